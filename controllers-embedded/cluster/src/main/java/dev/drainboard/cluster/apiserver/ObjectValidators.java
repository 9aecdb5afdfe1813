package dev.drainboard.cluster.apiserver;

import com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

/** The {@link ObjectValidator}s per resource ({@code groupResource}); thread-safe. */
final class ObjectValidators {

    private final Map<String, List<ObjectValidator>> byResource = new ConcurrentHashMap<>();

    void add(String groupResource, ObjectValidator validator) {
        byResource.computeIfAbsent(groupResource, r -> new CopyOnWriteArrayList<>()).add(validator);
    }

    /** Throws 422 Invalid listing every violation of every validator of the type. */
    void check(ResourceType type, ObjectNode object) {
        List<ObjectValidator> validators = byResource.get(type.groupResource());
        if (validators == null) {
            return;
        }
        List<ObjectValidator.Violation> violations = validators.stream().flatMap(v -> v.validate(object).stream()).toList();
        if (!violations.isEmpty()) {
            throw ApiException.invalid(type, Json.name(object), violations);
        }
    }
}
