package dev.drainboard.benchmarks;

import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;

import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/** What the drain benchmarks ask of the cluster before they drain: VMIs that can move, budgets that protect them. */
final class DrainFixtures {

    private DrainFixtures() {
    }

    /** A VMI status (as a generic map) that is Running with {@code LiveMigratable=True}. */
    static boolean migratable(Map<String, Object> status) {
        if (!"Running".equals(status.get("phase")) || !(status.get("conditions") instanceof List<?> conditions)) {
            return false;
        }
        return conditions.stream().anyMatch(c -> c instanceof Map<?, ?> m
                && "LiveMigratable".equals(m.get("type")) && "True".equals(m.get("status")));
    }

    /** The disruption controller has seen the budget's current generation and counts its pod healthy. */
    static boolean settled(PodDisruptionBudget pdb) {
        return pdb.getStatus() != null && pdb.getStatus().getObservedGeneration() != null
                && pdb.getStatus().getObservedGeneration().equals(pdb.getMetadata().getGeneration())
                && pdb.getStatus().getCurrentHealthy() != null && pdb.getStatus().getCurrentHealthy() >= 1;
    }

    /**
     * {@code -Ddrainboard.bench.kubevirt-version=v1.9.0} (or a main's {@code --kubevirt-version=v1.9.0}): the KubeVirt
     * release the benchmark's cluster reports ({@code status.observedKubeVirtVersion} of its KubeVirt CR), so the
     * controllers run that release's drain path (on v1.9: the migration priority queue). Unset: no KubeVirt CR, the
     * default profile.
     */
    static final String KUBEVIRT_VERSION_PROPERTY = "drainboard.bench.kubevirt-version";

    /** The version asked for, or null. */
    static String kubeVirtVersion() {
        String v = System.getProperty(KUBEVIRT_VERSION_PROPERTY);
        return v == null || v.isBlank() ? null : v.trim();
    }

    /** A main's {@code --kubevirt-version=…} sets the property the benchmark reads. */
    static void kubeVirtVersionArg(String[] args) {
        for (String a : args) {
            if (a.startsWith("--kubevirt-version=")) {
                System.setProperty(KUBEVIRT_VERSION_PROPERTY, a.substring("--kubevirt-version=".length()));
            }
        }
    }

    /**
     * Scenario documents (each starting with {@code ---}) for a KubeVirt CR reporting {@link #kubeVirtVersion()}, or
     * nothing when none is asked for.
     */
    static String kubeVirtScenario() {
        String version = kubeVirtVersion();
        if (version == null) {
            return "";
        }
        return "---\napiVersion: v1\nkind: Namespace\nmetadata: {name: kubevirt}\n"
                + "---\napiVersion: kubevirt.io/v1\nkind: KubeVirt\nmetadata: {name: kubevirt, namespace: kubevirt}\n"
                + "spec: {}\nstatus: {observedKubeVirtVersion: \"" + version + "\"}\n";
    }

    /** Whether the release keeps a PDB per VMI (≤ 1.5), so the benchmark waits for them to settle before draining. */
    static boolean budgetsExpected() {
        String version = kubeVirtVersion();
        return version == null || dev.drainboard.kubevirt.KubeVirtProfile.of(version)
                .map(dev.drainboard.kubevirt.KubeVirtProfile::protectsWithPdbs).orElse(true);
    }

    /** Polls until the condition holds; fails after 5 minutes naming what it waited for. */
    static void waitUntil(String what, BooleanSupplier condition) throws InterruptedException {
        waitUntil(what, java.time.Duration.ofMinutes(5), condition);
    }

    /** Polls until the condition holds; fails after {@code limit} naming what it waited for. */
    static void waitUntil(String what, java.time.Duration limit, BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + limit.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("not within " + limit.toMinutes() + " min: " + what);
            }
            Thread.sleep(100);
        }
    }
}
