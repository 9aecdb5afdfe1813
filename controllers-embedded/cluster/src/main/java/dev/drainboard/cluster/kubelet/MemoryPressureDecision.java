package dev.drainboard.cluster.kubelet;

import dev.drainboard.architecture.Pure;

import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;

/**
 * One pass of a simulated kubelet's eviction manager for the {@code memory.available} signal, as the kubelet does
 * it. Pure.
 *
 * <pre>
 * available = capacity − usage (the pods' usage plus the node's own)
 * hard met   available &lt; hard threshold                      → MemoryPressure, evict now, grace 1 s
 * soft met   available &lt; soft threshold                      → MemoryPressure; evict once it has held for
 *                                                              evictionSoftGracePeriod, grace min(evictionMaxPodGracePeriod,
 *                                                              the pod's terminationGracePeriodSeconds)
 * MemoryPressure stays True for evictionPressureTransitionPeriod after a threshold was last met
 * one pod at a time: no new victim while the last one is still terminating
 * victims, first to last: usage above its memory request first; then lower priority; then more usage above the
 *          request; critical pods (priority ≥ 2000000000) never. PodDisruptionBudgets are not consulted.
 * </pre>
 */
@Pure
public final class MemoryPressureDecision {

    /** The kubelet's {@code immediateEvictionGracePeriodSeconds}: what a hard threshold leaves a pod. */
    public static final long HARD_EVICTION_GRACE_SECONDS = 1;
    /** Pods at or above this priority (system-node-critical, system-cluster-critical) are never evicted. */
    public static final int CRITICAL_PRIORITY = 2_000_000_000;

    /**
     * A running pod on the node as the eviction manager sees it.
     *
     * @param container the container named in the eviction message (the one using the memory)
     */
    public record PodUsage(String namespace, String name, String uid, long usageBytes, long requestBytes, int priority,
                           long terminationGracePeriodSeconds, String container) {

        boolean exceedsRequest() {
            return usageBytes > requestBytes;
        }
    }

    /**
     * What a node's eviction manager remembers between passes.
     *
     * @param softFirstObserved when the soft threshold started to hold, or null
     * @param lastObserved      when a threshold was last met, or null
     * @param victimUid         the pod evicted last, until it has ended
     */
    public record State(Instant softFirstObserved, Instant lastObserved, String victimUid) {
        public static final State INITIAL = new State(null, null, null);
    }

    public record Victim(PodUsage pod, long gracePeriodSeconds, String message, boolean hard) {
    }

    /**
     * @param memoryPressure the node's MemoryPressure condition (and so its memory-pressure taint)
     * @param evict          the pod to evict now, or null
     * @param available      the memory available, for messages and figures
     */
    public record Plan(boolean memoryPressure, State next, Victim evict, long available) {
    }

    private MemoryPressureDecision() {
    }

    /**
     * @param victimEnded the pod named by {@code state.victimUid()} is no longer running (or there is none)
     */
    public static Plan decide(EvictionConfig config, long capacity, long usage, List<PodUsage> pods, State state,
                              boolean victimEnded, Instant now) {
        long available = capacity - usage;
        boolean hardMet = config.hard() != null && available < config.hard().bytesOf(capacity);
        boolean softMet = config.soft() != null && available < config.soft().bytesOf(capacity);
        Instant softSince = softMet ? (state.softFirstObserved() != null ? state.softFirstObserved() : now) : null;
        Instant lastObserved = hardMet || softMet ? now : state.lastObserved();
        boolean pressure = lastObserved != null
                && Duration.between(lastObserved, now).compareTo(config.pressureTransitionPeriod()) < 0;
        boolean softActive = softMet && !now.isBefore(softSince.plus(config.softGracePeriod()));
        String victimUid = victimEnded ? null : state.victimUid();

        Victim victim = null;
        if ((hardMet || softActive) && victimUid == null) {
            PodUsage pod = rank(pods).stream().findFirst().orElse(null);
            if (pod != null) {
                long grace = hardMet ? HARD_EVICTION_GRACE_SECONDS
                        : Math.min(config.maxPodGracePeriodSeconds(), pod.terminationGracePeriodSeconds());
                EvictionConfig.Threshold threshold = hardMet ? config.hard() : config.soft();
                victim = new Victim(pod, grace, message(threshold, available, pod), hardMet);
                victimUid = pod.uid();
            }
        }
        return new Plan(pressure, new State(softSince, lastObserved, victimUid), victim, available);
    }

    /** The kubelet's order for memory pressure, first victim first; critical pods are left out. */
    public static List<PodUsage> rank(List<PodUsage> pods) {
        return pods.stream()
                .filter(p -> p.priority() < CRITICAL_PRIORITY)
                .sorted(Comparator.comparing((PodUsage p) -> !p.exceedsRequest())
                        .thenComparingInt(PodUsage::priority)
                        .thenComparing(Comparator.comparingLong((PodUsage p) -> p.usageBytes() - p.requestBytes()).reversed())
                        .thenComparing(PodUsage::namespace)
                        .thenComparing(PodUsage::name))
                .toList();
    }

    /** The kubelet's eviction message (pod status, Evicted event, DisruptionTarget condition). */
    public static String message(EvictionConfig.Threshold threshold, long available, PodUsage pod) {
        StringBuilder text = new StringBuilder("The node was low on resource: memory. ")
                .append("Threshold quantity: ").append(threshold.text())
                .append(", available: ").append(Math.max(0, available) / 1024).append("Ki. ");
        if (pod.exceedsRequest()) {
            text.append("Container ").append(pod.container()).append(" was using ").append(pod.usageBytes() / 1024)
                    .append("Ki, request is ").append(quantity(pod.requestBytes())).append(", has larger consumption of memory. ");
        }
        return text.toString().trim();
    }

    static String quantity(long bytes) {
        if (bytes != 0 && bytes % (1L << 30) == 0) {
            return bytes / (1L << 30) + "Gi";
        }
        if (bytes % (1L << 20) == 0) {
            return bytes / (1L << 20) + "Mi";
        }
        return (bytes + 1023) / 1024 + "Ki";
    }
}
