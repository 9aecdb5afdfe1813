package dev.drainboard.hypervisor;

import java.time.Duration;
import java.time.Instant;

/**
 * How a live migration may run, resolved by the source node's handler from the cluster's migration configuration
 * ({@code spec.configuration.migrations}), the node and the VMI, as KubeVirt's
 * {@code pkg/virt-launcher/virtwrap/live-migration-source.go} applies them.
 *
 * @param bandwidthBytesPerSecond   what the transfer moves per second ({@code bandwidthPerMigration}, else the link)
 * @param dirtyRateBytesPerSecond   what the guest dirties per second while it runs
 * @param maxDowntime               the pause the switch-over may cost: pre-copy ends once what remains fits in it
 * @param progressTimeout           abort when no data has moved for this long
 * @param completionTimeout         {@code completionTimeoutPerGiB} × the data size in GB, rounded up
 * @param allowPostCopy             switch to post-copy when the completion timeout is hit
 * @param allowWorkloadDisruption   post-copy (when allowed) or pause the guest instead of aborting at that timeout
 * @param autoConverge              throttle the guest's vCPUs more with every pass that does not converge
 *                                  ({@code allowAutoConverge}, or the node-pressure assist)
 * @param pauseBy                   pause the guest once the rest of the transfer only just fits before this instant
 *                                  (the node-pressure assist {@code PauseBeforeKill}); null: never
 */
public record MigrationOptions(long bandwidthBytesPerSecond, long dirtyRateBytesPerSecond, Duration maxDowntime,
                               Duration progressTimeout, Duration completionTimeout, boolean allowPostCopy,
                               boolean allowWorkloadDisruption, boolean autoConverge, Instant pauseBy) {

    public MigrationOptions(long bandwidthBytesPerSecond, long dirtyRateBytesPerSecond, Duration maxDowntime,
                            Duration progressTimeout, Duration completionTimeout, boolean allowPostCopy,
                            boolean allowWorkloadDisruption) {
        this(bandwidthBytesPerSecond, dirtyRateBytesPerSecond, maxDowntime, progressTimeout, completionTimeout,
                allowPostCopy, allowWorkloadDisruption, false, null);
    }

    public MigrationOptions withAssist(boolean autoConverge, Instant pauseBy) {
        return new MigrationOptions(bandwidthBytesPerSecond, dirtyRateBytesPerSecond, maxDowntime, progressTimeout,
                completionTimeout, allowPostCopy, allowWorkloadDisruption, autoConverge, pauseBy);
    }
}
