package dev.drainboard.benchmarks;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * {@code --trace}: prints, with milliseconds since the trace started, every change a drain's hand-overs go through —
 * a VMIM's phase, a pod's node/phase/readiness, a PDB's minAvailable and observed generation — so the gaps between one
 * migration's end and the next one's start can be read off.
 */
final class DrainTrace implements AutoCloseable {

    private final PrintStream out;
    private final long start = System.nanoTime();
    private final Map<String, String> last = new ConcurrentHashMap<>();
    private final List<SharedIndexInformer<?>> informers = new ArrayList<>();

    DrainTrace(KubernetesClient client, String namespace, PrintStream out) {
        this.out = out;
        informers.add(client.genericKubernetesResources("kubevirt.io/v1", "VirtualMachineInstanceMigration").inNamespace(namespace)
                .inform(handler("vmim", DrainTrace::vmim), 0));
        informers.add(client.pods().inNamespace(namespace).inform(handler("pod", DrainTrace::pod), 0));
        informers.add(client.genericKubernetesResources("kubevirt.io/v1", "VirtualMachineInstance").inNamespace(namespace)
                .inform(handler("vmi", DrainTrace::vmi), 0));
        informers.add(client.policy().v1().podDisruptionBudget().inNamespace(namespace).inform(handler("pdb", DrainTrace::pdb), 0));
    }

    @SuppressWarnings("unchecked")
    private static String vmim(GenericKubernetesResource m) {
        Object status = m.getAdditionalProperties().get("status");
        Object phase = status instanceof Map<?, ?> s ? ((Map<String, Object>) s).get("phase") : null;
        Object spec = m.getAdditionalProperties().get("spec");
        Object vmi = spec instanceof Map<?, ?> s ? ((Map<String, Object>) s).get("vmiName") : null;
        return "vmi=" + vmi + " phase=" + phase;
    }

    @SuppressWarnings("unchecked")
    private static String vmi(GenericKubernetesResource v) {
        Map<String, Object> status = (Map<String, Object>) v.getAdditionalProperties().getOrDefault("status", Map.of());
        Map<String, Object> state = (Map<String, Object>) status.getOrDefault("migrationState", Map.of());
        return "phase=" + status.get("phase") + " node=" + status.get("nodeName") + " evacuation=" + status.get("evacuationNodeName")
                + " migration=" + (state.isEmpty() ? "-" : "target " + state.get("targetNode") + (state.get("startTimestamp") != null ? " started" : "")
                + (Boolean.TRUE.equals(state.get("completed")) ? " completed" : "") + (Boolean.TRUE.equals(state.get("failed")) ? " failed" : ""));
    }

    private static String pod(Pod p) {
        boolean ready = p.getStatus() != null && p.getStatus().getConditions() != null && p.getStatus().getConditions().stream()
                .anyMatch(c -> "Ready".equals(c.getType()) && "True".equals(c.getStatus()));
        return "node=" + p.getSpec().getNodeName() + " phase=" + (p.getStatus() == null ? null : p.getStatus().getPhase())
                + " ready=" + ready + (p.getMetadata().getDeletionTimestamp() != null ? " deleting" : "");
    }

    private static String pdb(PodDisruptionBudget b) {
        return "minAvailable=" + b.getSpec().getMinAvailable().getValue() + " gen=" + b.getMetadata().getGeneration()
                + " observed=" + (b.getStatus() == null ? null : b.getStatus().getObservedGeneration())
                + " healthy=" + (b.getStatus() == null ? null : b.getStatus().getCurrentHealthy());
    }

    private <T extends HasMetadata> ResourceEventHandler<T> handler(String kind, Function<T, String> describe) {
        return new ResourceEventHandler<>() {
            @Override
            public void onAdd(T o) {
                seen(kind, o, describe.apply(o));
            }

            @Override
            public void onUpdate(T before, T after) {
                seen(kind, after, describe.apply(after));
            }

            @Override
            public void onDelete(T o, boolean unknown) {
                seen(kind, o, "deleted");
            }
        };
    }

    private void seen(String kind, HasMetadata o, String what) {
        String key = kind + " " + o.getMetadata().getName();
        if (Objects.equals(last.put(key, what), what)) {
            return;
        }
        out.printf(Locale.ROOT, "%9.3f %s %s%n", (System.nanoTime() - start) / 1e6 / 1000, key, what);
    }

    /** A line of the benchmark's own, on the same clock. */
    void mark(String what) {
        out.printf(Locale.ROOT, "%9.3f ---- %s%n", (System.nanoTime() - start) / 1e6 / 1000, what);
    }

    @Override
    public void close() {
        informers.forEach(SharedIndexInformer::close);
    }
}
