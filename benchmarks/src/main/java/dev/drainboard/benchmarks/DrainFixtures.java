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

    /** Polls until the condition holds; fails after 5 minutes naming what it waited for. */
    static void waitUntil(String what, BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(5);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("not within 5 min: " + what);
            }
            Thread.sleep(100);
        }
    }
}
