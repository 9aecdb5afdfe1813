package dev.drainboard.ops;

import java.util.List;
import java.util.Objects;

/**
 * How a drain ended. {@link Status#DRAINED} only when every pod it evicts is really gone.
 *
 * @param why  for every status but DRAINED, what went wrong (for DRAINED a summary)
 * @param pods     each pod's last progress
 * @param stranded what the drain left with nowhere to run ({@link DrainOptions#allowStranded()}); a DRAINED drain with
 *                 any is not a clean one, and {@code why} names them
 */
public record DrainResult(String node, Status status, String why, List<PodProgress> pods, List<Blocker> stranded) {

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
        stranded = List.copyOf(stranded);
    }

    public DrainResult(String node, Status status, String why, List<PodProgress> pods) {
        this(node, status, why, pods, List.of());
    }

    /** Drained and nothing left stranded. */
    public boolean clean() {
        return drained() && stranded.isEmpty();
    }

    public boolean drained() {
        return status == Status.DRAINED;
    }
}
