package dev.drainboard.kubevirt.config;

import dev.drainboard.kubevirt.api.KubeVirtSpec;
import io.fabric8.kubernetes.api.model.Quantity;

/**
 * {@code spec.configuration.migrations} with KubeVirt's defaults filled in (KubeVirt's
 * {@code pkg/virt-config/configuration.go}, {@code defaultClusterConfig}).
 *
 * @param bandwidthPerMigration bytes per second per migration; zero means no limit
 * @param allowWorkloadDisruption post-copy or pause when the completion timeout is hit; follows
 *                                {@code allowPostCopy} when unset
 */
public record MigrationConfig(
        int parallelMigrationsPerCluster,
        int parallelOutboundMigrationsPerNode,
        String nodeDrainTaintKey,
        Quantity bandwidthPerMigration,
        long completionTimeoutPerGiB,
        long progressTimeout,
        boolean allowPostCopy,
        boolean allowAutoConverge,
        boolean allowWorkloadDisruption,
        boolean unsafeMigrationOverride,
        long maxDowntimeMs,
        long utilityVolumesTimeout) {

    public static final int DEFAULT_PARALLEL_MIGRATIONS_PER_CLUSTER = 5;
    public static final int DEFAULT_PARALLEL_OUTBOUND_MIGRATIONS_PER_NODE = 2;
    public static final String DEFAULT_NODE_DRAIN_TAINT_KEY = "kubevirt.io/drain";
    public static final String DEFAULT_BANDWIDTH_PER_MIGRATION = "0Mi";
    public static final long DEFAULT_COMPLETION_TIMEOUT_PER_GIB = 150;
    public static final long DEFAULT_PROGRESS_TIMEOUT = 150;
    public static final long DEFAULT_MAX_DOWNTIME_MS = 900;
    public static final long DEFAULT_UTILITY_VOLUMES_TIMEOUT = 150;

    public static MigrationConfig defaults() {
        return new MigrationConfig(
                DEFAULT_PARALLEL_MIGRATIONS_PER_CLUSTER,
                DEFAULT_PARALLEL_OUTBOUND_MIGRATIONS_PER_NODE,
                DEFAULT_NODE_DRAIN_TAINT_KEY,
                new Quantity(DEFAULT_BANDWIDTH_PER_MIGRATION),
                DEFAULT_COMPLETION_TIMEOUT_PER_GIB,
                DEFAULT_PROGRESS_TIMEOUT,
                false,
                false,
                false,
                false,
                DEFAULT_MAX_DOWNTIME_MS,
                DEFAULT_UTILITY_VOLUMES_TIMEOUT);
    }

    /** Bytes per second a migration may use, or 0 for no limit. */
    public long bandwidthBytesPerSecond() {
        return bandwidthPerMigration.getNumericalAmount().longValue();
    }

    /** True when a bandwidth cap is set. */
    public boolean bandwidthLimited() {
        return bandwidthPerMigration.getNumericalAmount().signum() > 0;
    }

    /**
     * As a migration's {@code status.migrationState.migrationConfiguration} starts, before a MigrationPolicy is laid
     * over it (KubeVirt's {@code pkg/util/migrations} {@code ToVMIMConfigurationOptions}).
     */
    public KubeVirtSpec.Migrations toOptions() {
        KubeVirtSpec.Migrations m = new KubeVirtSpec.Migrations();
        m.setAllowAutoConverge(allowAutoConverge);
        m.setBandwidthPerMigration(new Quantity(bandwidthPerMigration.toString()));
        m.setCompletionTimeoutPerGiB(completionTimeoutPerGiB);
        m.setMaxDowntimeMs(maxDowntimeMs);
        m.setProgressTimeout(progressTimeout);
        m.setUtilityVolumesTimeout(utilityVolumesTimeout);
        m.setUnsafeMigrationOverride(unsafeMigrationOverride);
        m.setAllowPostCopy(allowPostCopy);
        m.setAllowWorkloadDisruption(allowWorkloadDisruption);
        m.setParallelOutboundMigrationsPerNode((long) parallelOutboundMigrationsPerNode);
        m.setNodeDrainTaintKey(nodeDrainTaintKey);
        m.setParallelMigrationsPerCluster((long) parallelMigrationsPerCluster);
        return m;
    }
}
