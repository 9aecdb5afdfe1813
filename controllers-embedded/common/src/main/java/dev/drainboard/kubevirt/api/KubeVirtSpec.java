package dev.drainboard.kubevirt.api;

import io.fabric8.kubernetes.api.model.Quantity;

import java.util.List;

/**
 * {@code kubevirt.spec}: only {@code configuration} matters to Drainboard; image, workload placement, certificate
 * rotation and the rest are kept as they are.
 */
public class KubeVirtSpec extends ExtensibleObject {

    private Configuration configuration;

    public Configuration getConfiguration() { return configuration; }
    public void setConfiguration(Configuration configuration) { this.configuration = configuration; }

    /** {@code spec.configuration}. */
    public static class Configuration extends ExtensibleObject {
        private String evictionStrategy;
        private Migrations migrations;
        private DeveloperConfiguration developerConfiguration;

        public String getEvictionStrategy() { return evictionStrategy; }
        public void setEvictionStrategy(String evictionStrategy) { this.evictionStrategy = evictionStrategy; }
        public Migrations getMigrations() { return migrations; }
        public void setMigrations(Migrations migrations) { this.migrations = migrations; }
        public DeveloperConfiguration getDeveloperConfiguration() { return developerConfiguration; }
        public void setDeveloperConfiguration(DeveloperConfiguration developerConfiguration) { this.developerConfiguration = developerConfiguration; }
    }

    /**
     * {@code spec.configuration.migrations}; every field may be unset (then KubeVirt's default applies).
     * {@code bandwidthPerMigration} is bytes per second, {@code 0} for no limit.
     */
    public static class Migrations extends ExtensibleObject {
        private Long parallelMigrationsPerCluster;
        private Long parallelOutboundMigrationsPerNode;
        private String nodeDrainTaintKey;
        private Quantity bandwidthPerMigration;
        private Long completionTimeoutPerGiB;
        private Long progressTimeout;
        private Boolean allowPostCopy;
        private Boolean allowAutoConverge;
        private Boolean allowWorkloadDisruption;
        private Boolean unsafeMigrationOverride;
        private Boolean disableTLS;
        private Long maxDowntimeMs;
        private Long utilityVolumesTimeout;
        private String network;
        private Boolean matchSELinuxLevelOnMigration;

        public Long getParallelMigrationsPerCluster() { return parallelMigrationsPerCluster; }
        public void setParallelMigrationsPerCluster(Long parallelMigrationsPerCluster) { this.parallelMigrationsPerCluster = parallelMigrationsPerCluster; }
        public Long getParallelOutboundMigrationsPerNode() { return parallelOutboundMigrationsPerNode; }
        public void setParallelOutboundMigrationsPerNode(Long parallelOutboundMigrationsPerNode) { this.parallelOutboundMigrationsPerNode = parallelOutboundMigrationsPerNode; }
        public String getNodeDrainTaintKey() { return nodeDrainTaintKey; }
        public void setNodeDrainTaintKey(String nodeDrainTaintKey) { this.nodeDrainTaintKey = nodeDrainTaintKey; }
        public Quantity getBandwidthPerMigration() { return bandwidthPerMigration; }
        public void setBandwidthPerMigration(Quantity bandwidthPerMigration) { this.bandwidthPerMigration = bandwidthPerMigration; }
        public Long getCompletionTimeoutPerGiB() { return completionTimeoutPerGiB; }
        public void setCompletionTimeoutPerGiB(Long completionTimeoutPerGiB) { this.completionTimeoutPerGiB = completionTimeoutPerGiB; }
        public Long getProgressTimeout() { return progressTimeout; }
        public void setProgressTimeout(Long progressTimeout) { this.progressTimeout = progressTimeout; }
        public Boolean getAllowPostCopy() { return allowPostCopy; }
        public void setAllowPostCopy(Boolean allowPostCopy) { this.allowPostCopy = allowPostCopy; }
        public Boolean getAllowAutoConverge() { return allowAutoConverge; }
        public void setAllowAutoConverge(Boolean allowAutoConverge) { this.allowAutoConverge = allowAutoConverge; }
        public Boolean getAllowWorkloadDisruption() { return allowWorkloadDisruption; }
        public void setAllowWorkloadDisruption(Boolean allowWorkloadDisruption) { this.allowWorkloadDisruption = allowWorkloadDisruption; }
        public Boolean getUnsafeMigrationOverride() { return unsafeMigrationOverride; }
        public void setUnsafeMigrationOverride(Boolean unsafeMigrationOverride) { this.unsafeMigrationOverride = unsafeMigrationOverride; }
        public Boolean getDisableTLS() { return disableTLS; }
        public void setDisableTLS(Boolean disableTLS) { this.disableTLS = disableTLS; }
        public Long getMaxDowntimeMs() { return maxDowntimeMs; }
        public void setMaxDowntimeMs(Long maxDowntimeMs) { this.maxDowntimeMs = maxDowntimeMs; }
        public Long getUtilityVolumesTimeout() { return utilityVolumesTimeout; }
        public void setUtilityVolumesTimeout(Long utilityVolumesTimeout) { this.utilityVolumesTimeout = utilityVolumesTimeout; }
        public String getNetwork() { return network; }
        public void setNetwork(String network) { this.network = network; }
        public Boolean getMatchSELinuxLevelOnMigration() { return matchSELinuxLevelOnMigration; }
        public void setMatchSELinuxLevelOnMigration(Boolean matchSELinuxLevelOnMigration) { this.matchSELinuxLevelOnMigration = matchSELinuxLevelOnMigration; }
    }

    /** {@code spec.configuration.developerConfiguration}. */
    public static class DeveloperConfiguration extends ExtensibleObject {
        private List<String> featureGates;

        public List<String> getFeatureGates() { return featureGates; }
        public void setFeatureGates(List<String> featureGates) { this.featureGates = featureGates; }
    }
}
