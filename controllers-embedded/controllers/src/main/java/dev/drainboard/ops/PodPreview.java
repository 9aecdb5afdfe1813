package dev.drainboard.ops;

import java.util.Objects;

/**
 * One pod in a {@link DrainPreview}: what will happen to it and why.
 *
 * @param reason          one sentence for the operator
 * @param vmi             the VMI a launcher pod runs, or null
 * @param budget          the PodDisruptionBudget that decides ({@code namespace/name}), or null
 * @param expectedMessage what the API server will answer to its eviction when it refuses it, or null
 */
public record PodPreview(String namespace, String name, String uid, PodOutcome outcome, String reason,
                         String vmi, String budget, String expectedMessage) {

    public PodPreview {
        Objects.requireNonNull(namespace, "namespace");
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(outcome, "outcome");
        Objects.requireNonNull(reason, "reason");
    }

    public String key() {
        return namespace + "/" + name;
    }
}
