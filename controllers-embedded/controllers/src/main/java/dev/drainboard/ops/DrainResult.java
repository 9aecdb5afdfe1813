package dev.drainboard.ops;

import java.util.List;
import java.util.Objects;

/**
 * How a drain ended. {@link Status#DRAINED} only when every pod it evicts is really gone.
 *
 * @param why  for every status but DRAINED, what went wrong (for DRAINED a summary)
 * @param pods each pod's last progress
 */
public record DrainResult(String node, Status status, String why, List<PodProgress> pods) {

    public enum Status {
        /** Every pod to evict is gone. */
        DRAINED,
        /** An eviction was refused for good, the drain could not start, or the cluster could not be used. */
        FAILED,
        /** The timeout passed with pods left. */
        TIMED_OUT,
        /** Cancelled before it finished. */
        CANCELLED,
        /** {@code dryRun}: nothing was written; see the preview. */
        DRY_RUN
    }

    public DrainResult {
        Objects.requireNonNull(status, "status");
        pods = List.copyOf(pods);
    }

    public boolean drained() {
        return status == Status.DRAINED;
    }
}
