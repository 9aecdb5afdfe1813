package dev.drainboard.cluster.apiserver;

import com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.List;

/**
 * A check of one resource's objects on create and update, run in-process before admission webhooks, the way
 * kube-apiserver's per-resource validation (or an extension's always-installed webhook) refuses bad objects:
 * any violation is a 422 Invalid and nothing is stored. Registered with {@link ApiServer#addValidator}.
 */
@FunctionalInterface
public interface ObjectValidator {

    /** One problem: field path and kube's text ({@code Required value}, {@code Invalid value: …}). */
    record Violation(String field, String message) {
    }

    /** The object's problems; empty when it may be stored. Status-only writes are not checked. */
    List<Violation> validate(ObjectNode object);
}
