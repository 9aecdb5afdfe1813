package dev.drainboard.kubevirt;

/**
 * The condition types KubeVirt gives VMIs, VMIMs and VMIRSs, and the reasons it writes into them (declared in
 * KubeVirt's {@code staging/src/kubevirt.io/api/core/v1/types.go}; the {@code LiveMigratable} reasons are computed in
 * {@code pkg/virt-handler/vm.go}).
 */
public final class KubeVirtConditions {

    private KubeVirtConditions() {
    }

    // VMI condition types
    public static final String LIVE_MIGRATABLE = "LiveMigratable";
    public static final String EVICTION_REQUESTED = "EvictionRequested";
    public static final String READY = "Ready";
    public static final String PAUSED = "Paused";
    public static final String POD_SCHEDULED = "PodScheduled";

    // VMIM condition types
    public static final String MIGRATION_ABORT_REQUESTED = "migrationAbortRequested";

    // VMIRS condition types
    public static final String REPLICA_FAILURE = "ReplicaFailure";
    public static final String REPLICA_PAUSED = "ReplicaPaused";

    public static final String STATUS_TRUE = "True";
    public static final String STATUS_FALSE = "False";

    // Reasons of LiveMigratable=False that the node handler gives, in the order it checks them
    public static final String REASON_INTERFACE_NOT_LIVE_MIGRATABLE = "InterfaceNotLiveMigratable";
    public static final String REASON_HOST_DEVICE_NOT_LIVE_MIGRATABLE = "HostDeviceNotLiveMigratable";
    public static final String REASON_DISKS_NOT_LIVE_MIGRATABLE = "DisksNotLiveMigratable";
    public static final String REASON_NOT_MIGRATABLE = "NotMigratable";

    /** Reasons of a VM's {@code Ready=False} when there is nothing to copy from a VMI. */
    public static final String REASON_VMI_NOT_EXISTS = "VMINotExists";
    public static final String REASON_VMI_CONDITION_MISSING = "VMIConditionMissing";
    /** Reason of {@code EvictionRequested=True}. */
    public static final String REASON_EVICTION_REQUESTED = "EvictionRequested";
    /** Reason of {@code Ready=False} while the launcher pod terminates (the VMIRS counts such VMIs as finished). */
    public static final String REASON_POD_TERMINATING = "PodTerminating";
    /** Reason of {@code ReplicaPaused=True}. */
    public static final String REASON_PAUSED = "Paused";
    /**
     * Reasons of {@code ReplicaFailure=True} as Drainboard's VMIRS controller writes them: the spelling of the
     * examples in KubeVirt's VMIRS design document ({@code docs/replica-sets.md}). KubeVirt's controller writes
     * {@code FailedCreate}/{@code FailedDelete} instead (docs/behaviour.md, "Replica sets").
     */
    public static final String REASON_FAILURE_CREATE = "FailureCreate";
    public static final String REASON_FAILURE_DELETE = "FailureDelete";
}
