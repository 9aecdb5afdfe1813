package dev.drainboard.kubevirt.api;

import io.fabric8.kubernetes.api.model.Quantity;

import java.util.Map;

/** {@code migrationpolicy.spec}: the selectors and the settings it overrides (null: the cluster's setting stays). */
public class MigrationPolicySpec extends ExtensibleObject {

    private Selectors selectors;
    private Boolean allowAutoConverge;
    private Quantity bandwidthPerMigration;
    private Long completionTimeoutPerGiB;
    private Boolean allowPostCopy;
    private Boolean allowWorkloadDisruption;
    private Long maxDowntimeMs;

    public Selectors getSelectors() { return selectors; }
    public void setSelectors(Selectors selectors) { this.selectors = selectors; }
    public Boolean getAllowAutoConverge() { return allowAutoConverge; }
    public void setAllowAutoConverge(Boolean allowAutoConverge) { this.allowAutoConverge = allowAutoConverge; }
    public Quantity getBandwidthPerMigration() { return bandwidthPerMigration; }
    public void setBandwidthPerMigration(Quantity bandwidthPerMigration) { this.bandwidthPerMigration = bandwidthPerMigration; }
    public Long getCompletionTimeoutPerGiB() { return completionTimeoutPerGiB; }
    public void setCompletionTimeoutPerGiB(Long completionTimeoutPerGiB) { this.completionTimeoutPerGiB = completionTimeoutPerGiB; }
    public Boolean getAllowPostCopy() { return allowPostCopy; }
    public void setAllowPostCopy(Boolean allowPostCopy) { this.allowPostCopy = allowPostCopy; }
    public Boolean getAllowWorkloadDisruption() { return allowWorkloadDisruption; }
    public void setAllowWorkloadDisruption(Boolean allowWorkloadDisruption) { this.allowWorkloadDisruption = allowWorkloadDisruption; }
    public Long getMaxDowntimeMs() { return maxDowntimeMs; }
    public void setMaxDowntimeMs(Long maxDowntimeMs) { this.maxDowntimeMs = maxDowntimeMs; }

    /** {@code spec.selectors}: plain label maps (every pair must match), not metav1.LabelSelectors. */
    public static class Selectors extends ExtensibleObject {
        private Map<String, String> namespaceSelector;
        private Map<String, String> virtualMachineInstanceSelector;

        public Map<String, String> getNamespaceSelector() { return namespaceSelector; }
        public void setNamespaceSelector(Map<String, String> namespaceSelector) { this.namespaceSelector = namespaceSelector; }
        public Map<String, String> getVirtualMachineInstanceSelector() { return virtualMachineInstanceSelector; }
        public void setVirtualMachineInstanceSelector(Map<String, String> selector) { this.virtualMachineInstanceSelector = selector; }
    }
}
