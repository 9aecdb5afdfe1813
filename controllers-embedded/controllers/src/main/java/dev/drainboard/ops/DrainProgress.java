package dev.drainboard.ops;

import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * A snapshot of a drain, handed to listeners after every change (immutable: safe to keep and to pass to
 * another thread).
 *
 * @param phase   what the drain is doing
 * @param preview the plan it follows (null until computed)
 * @param pods    the pods it evicts, in the preview's order
 * @param result  set once it has ended
 */
public record DrainProgress(String node, Phase phase, DrainPreview preview, List<PodProgress> pods,
                            Instant startedAt, Optional<DrainResult> result) {

    public enum Phase {
        /** Reading the node's pods and computing the preview. */
        PREPARING,
        /** Marking the node unschedulable. */
        CORDONING,
        /** Evicting and waiting for pods to go. */
        EVICTING,
        /** Ended: see {@code result}. */
        ENDED
    }

    public DrainProgress {
        pods = List.copyOf(pods);
    }

    public long count(PodState state) {
        return pods.stream().filter(p -> p.state() == state).count();
    }
}
