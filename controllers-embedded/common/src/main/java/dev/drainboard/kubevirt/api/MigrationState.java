package dev.drainboard.kubevirt.api;

/**
 * A live migration as the VMI reports it ({@code vmi.status.migrationState}); VMIMs copy it into their own status.
 * The migration controller fills the hand-off fields, the node handlers the rest.
 */
public class MigrationState extends ExtensibleObject {

    private String migrationUid;
    private String sourceNode;
    private String targetNode;
    private String sourcePod;
    private String targetPod;
    private String targetNodeAddress;
    private Boolean targetNodeDomainDetected;
    private String targetNodeDomainReadyTimestamp;
    private String startTimestamp;
    private String endTimestamp;
    private Boolean completed;
    private Boolean failed;
    private String failureReason;
    private Boolean abortRequested;
    private String abortStatus;
    private String mode;
    /** The MigrationPolicy that matched at the hand-off, if any. */
    private String migrationPolicyName;
    /** The configuration of this migration: the cluster's, overlaid by the matching policy (written at the hand-off). */
    private KubeVirtSpec.Migrations migrationConfiguration;

    public String getMigrationUid() { return migrationUid; }
    public void setMigrationUid(String migrationUid) { this.migrationUid = migrationUid; }
    public String getSourceNode() { return sourceNode; }
    public void setSourceNode(String sourceNode) { this.sourceNode = sourceNode; }
    public String getTargetNode() { return targetNode; }
    public void setTargetNode(String targetNode) { this.targetNode = targetNode; }
    public String getSourcePod() { return sourcePod; }
    public void setSourcePod(String sourcePod) { this.sourcePod = sourcePod; }
    public String getTargetPod() { return targetPod; }
    public void setTargetPod(String targetPod) { this.targetPod = targetPod; }
    public String getTargetNodeAddress() { return targetNodeAddress; }
    public void setTargetNodeAddress(String targetNodeAddress) { this.targetNodeAddress = targetNodeAddress; }
    public Boolean getTargetNodeDomainDetected() { return targetNodeDomainDetected; }
    public void setTargetNodeDomainDetected(Boolean targetNodeDomainDetected) { this.targetNodeDomainDetected = targetNodeDomainDetected; }
    public String getTargetNodeDomainReadyTimestamp() { return targetNodeDomainReadyTimestamp; }
    public void setTargetNodeDomainReadyTimestamp(String targetNodeDomainReadyTimestamp) { this.targetNodeDomainReadyTimestamp = targetNodeDomainReadyTimestamp; }
    public String getStartTimestamp() { return startTimestamp; }
    public void setStartTimestamp(String startTimestamp) { this.startTimestamp = startTimestamp; }
    public String getEndTimestamp() { return endTimestamp; }
    public void setEndTimestamp(String endTimestamp) { this.endTimestamp = endTimestamp; }
    public Boolean getCompleted() { return completed; }
    public void setCompleted(Boolean completed) { this.completed = completed; }
    public Boolean getFailed() { return failed; }
    public void setFailed(Boolean failed) { this.failed = failed; }
    public String getFailureReason() { return failureReason; }
    public void setFailureReason(String failureReason) { this.failureReason = failureReason; }
    public Boolean getAbortRequested() { return abortRequested; }
    public void setAbortRequested(Boolean abortRequested) { this.abortRequested = abortRequested; }
    public String getAbortStatus() { return abortStatus; }
    public void setAbortStatus(String abortStatus) { this.abortStatus = abortStatus; }
    public String getMode() { return mode; }
    public void setMode(String mode) { this.mode = mode; }
    public String getMigrationPolicyName() { return migrationPolicyName; }
    public void setMigrationPolicyName(String migrationPolicyName) { this.migrationPolicyName = migrationPolicyName; }
    public KubeVirtSpec.Migrations getMigrationConfiguration() { return migrationConfiguration; }
    public void setMigrationConfiguration(KubeVirtSpec.Migrations migrationConfiguration) { this.migrationConfiguration = migrationConfiguration; }
}
