package dev.drainboard.controller.replicaset;

import java.util.Objects;

/**
 * How a pass's scaling went, which decides the {@code ReplicaFailure} condition.
 *
 * @param kind    what happened
 * @param message the first API error, for the failures
 */
public record ScaleOutcome(Kind kind, String message) {

    public enum Kind {
        /** Not tried (waiting for the caches, paused, being deleted): the condition stays as it is. */
        NOT_ATTEMPTED,
        /** Scaled, or nothing to scale: the condition goes. */
        SUCCEEDED,
        /** A create failed: {@code ReplicaFailure} reason {@code FailureCreate}. */
        FAILED_CREATE,
        /** A delete failed: {@code ReplicaFailure} reason {@code FailureDelete}. */
        FAILED_DELETE
    }

    public ScaleOutcome {
        Objects.requireNonNull(kind);
    }

    public static ScaleOutcome notAttempted() {
        return new ScaleOutcome(Kind.NOT_ATTEMPTED, null);
    }

    public static ScaleOutcome succeeded() {
        return new ScaleOutcome(Kind.SUCCEEDED, null);
    }

    public static ScaleOutcome failedCreate(String message) {
        return new ScaleOutcome(Kind.FAILED_CREATE, message);
    }

    public static ScaleOutcome failedDelete(String message) {
        return new ScaleOutcome(Kind.FAILED_DELETE, message);
    }

    public boolean failed() {
        return kind == Kind.FAILED_CREATE || kind == Kind.FAILED_DELETE;
    }
}
