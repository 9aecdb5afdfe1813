package dev.drainboard.benchmarks;

import dev.drainboard.kubevirt.KubeVirtAnnotations;
import dev.drainboard.kubevirt.api.MigrationPhase;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * When each VMIM held a migration slot, as an informer sees it: from the first event in a phase past Pending (the
 * migration controller let it start) until the first event in a final phase. Times are {@link System#nanoTime}.
 */
final class MigrationTimeline implements AutoCloseable {

    /** One migration's slot: {@code endNanos} is 0 while it is still in flight. */
    record Interval(String vmim, String sourceNode, long startNanos, long endNanos, boolean succeeded) {
        Interval(String vmim, long startNanos, long endNanos, boolean succeeded) {
            this(vmim, null, startNanos, endNanos, succeeded);
        }

        double seconds() {
            return (endNanos - startNanos) / 1e9;
        }
    }

    private final Map<String, Interval> intervals = new ConcurrentHashMap<>();
    private final SharedIndexInformer<GenericKubernetesResource> informer;

    MigrationTimeline(KubernetesClient client) {
        informer = client.genericKubernetesResources("kubevirt.io/v1", "VirtualMachineInstanceMigration").inAnyNamespace()
                .inform(new ResourceEventHandler<>() {
                    @Override
                    public void onAdd(GenericKubernetesResource vmim) {
                        seen(vmim);
                    }

                    @Override
                    public void onUpdate(GenericKubernetesResource before, GenericKubernetesResource after) {
                        seen(after);
                    }

                    @Override
                    public void onDelete(GenericKubernetesResource vmim, boolean finalStateUnknown) {
                    }
                }, 0);
    }

    private void seen(GenericKubernetesResource vmim) {
        long now = System.nanoTime();
        String key = vmim.getMetadata().getNamespace() + "/" + vmim.getMetadata().getName();
        Optional<MigrationPhase> phase = phase(vmim);
        if (phase.isEmpty() || phase.get() == MigrationPhase.PENDING) {
            return;
        }
        intervals.compute(key, (k, known) -> {
            Interval started = known != null ? known : new Interval(k, evacuatedNode(vmim), now, 0, false);
            if (phase.get().isFinal() && started.endNanos() == 0) {
                return new Interval(k, started.sourceNode(), started.startNanos(), now, phase.get() == MigrationPhase.SUCCEEDED);
            }
            return started;
        });
    }

    private static String evacuatedNode(GenericKubernetesResource vmim) {
        Map<String, String> annotations = vmim.getMetadata().getAnnotations();
        return annotations == null ? null : annotations.get(KubeVirtAnnotations.EVACUATION_MIGRATION);
    }

    private static Optional<MigrationPhase> phase(GenericKubernetesResource vmim) {
        Object status = vmim.getAdditionalProperties().get("status");
        if (status instanceof Map<?, ?> map && map.get("phase") instanceof String value) {
            return MigrationPhase.parse(value);
        }
        return Optional.empty();
    }

    /** The migrations that have ended, in no order. */
    List<Interval> ended() {
        return new ArrayList<>(intervals.values().stream().filter(i -> i.endNanos() != 0).toList());
    }

    /**
     * The share of {@code slots × (last end − first start)} during which migrations were in flight (overlaps count
     * once each, so a span where all slots are busy counts fully).
     */
    static double busyShare(List<Interval> ended, int slots) {
        if (ended.isEmpty()) {
            return 0;
        }
        long first = ended.stream().mapToLong(Interval::startNanos).min().orElseThrow();
        long last = ended.stream().mapToLong(Interval::endNanos).max().orElseThrow();
        long busy = ended.stream().mapToLong(i -> i.endNanos() - i.startNanos()).sum();
        return last == first ? 0 : (double) busy / ((double) slots * (last - first));
    }

    /** The most migrations in flight at any one time. */
    static int mostInFlight(List<Interval> ended) {
        List<long[]> edges = new ArrayList<>();
        for (Interval i : ended) {
            edges.add(new long[]{i.startNanos(), 1});
            edges.add(new long[]{i.endNanos(), -1});
        }
        edges.sort((a, b) -> a[0] != b[0] ? Long.compare(a[0], b[0]) : Long.compare(a[1], b[1]));
        int now = 0;
        int most = 0;
        for (long[] e : edges) {
            now += (int) e[1];
            most = Math.max(most, now);
        }
        return most;
    }

    @Override
    public void close() {
        informer.close();
    }
}
