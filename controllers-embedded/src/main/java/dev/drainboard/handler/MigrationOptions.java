package dev.drainboard.handler;

import java.time.Duration;

/**
 * How a live migration may run (spec §5.9, §10), resolved by the source node's handler from the cluster's migration
 * configuration, the node and the VMI.
 *
 * @param bandwidthBytesPerSecond   what the transfer moves per second ({@code bandwidthPerMigration}, else the link)
 * @param dirtyRateBytesPerSecond   what the guest dirties per second while it runs
 * @param maxDowntime               the pause the switch-over may cost: pre-copy ends once what remains fits in it
 * @param progressTimeout           abort when no data has moved for this long
 * @param completionTimeout         {@code completionTimeoutPerGiB} × the data size in GB, rounded up
 * @param allowPostCopy             switch to post-copy when the completion timeout is hit
 * @param allowWorkloadDisruption   post-copy (when allowed) or pause the guest instead of aborting at that timeout
 */
public record MigrationOptions(long bandwidthBytesPerSecond, long dirtyRateBytesPerSecond, Duration maxDowntime,
                               Duration progressTimeout, Duration completionTimeout, boolean allowPostCopy,
                               boolean allowWorkloadDisruption) {
}
