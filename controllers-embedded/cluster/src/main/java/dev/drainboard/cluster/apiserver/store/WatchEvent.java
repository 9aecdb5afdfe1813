package dev.drainboard.cluster.apiserver.store;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.drainboard.cluster.apiserver.ResourceType;

/**
 * One committed change. {@code object} is the state after the change (for DELETED, the last state
 * with the deletion's resourceVersion); {@code previous} is the state before (null for ADDED).
 * Both are shared and must never be mutated.
 */
public record WatchEvent(Type type, ResourceType resource, ObjectNode object, ObjectNode previous, long resourceVersion) {

    public enum Type { ADDED, MODIFIED, DELETED }
}
