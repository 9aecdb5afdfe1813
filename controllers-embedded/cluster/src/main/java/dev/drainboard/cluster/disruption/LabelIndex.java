package dev.drainboard.cluster.disruption;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Names of objects by namespace and label ({@code key=value}): which pods carry a label a budget requires, which
 * budgets require a label a pod carries. One writer (the store's listener, under its write lock), any readers.
 */
final class LabelIndex {

    private final Map<String, Map<String, Set<String>>> byNamespace = new ConcurrentHashMap<>();

    /** Indexes {@code name} under each label of {@code labels} (a JSON object; null or missing for none). */
    void addAll(String namespace, String name, JsonNode labels) {
        if (labels == null || !labels.isObject()) {
            return;
        }
        for (var label : labels.properties()) {
            add(namespace, label.getKey() + "=" + label.getValue().asText(), name);
        }
    }

    void removeAll(String namespace, String name, JsonNode labels) {
        if (labels == null || !labels.isObject()) {
            return;
        }
        for (var label : labels.properties()) {
            remove(namespace, label.getKey() + "=" + label.getValue().asText(), name);
        }
    }

    void add(String namespace, String label, String name) {
        byNamespace.computeIfAbsent(namespace, ns -> new ConcurrentHashMap<>())
                .computeIfAbsent(label, l -> ConcurrentHashMap.newKeySet()).add(name);
    }

    void remove(String namespace, String label, String name) {
        Map<String, Set<String>> labels = byNamespace.get(namespace);
        Set<String> names = labels == null ? null : labels.get(label);
        if (names != null) {
            names.remove(name);
            if (names.isEmpty()) {
                labels.remove(label, names);
            }
        }
    }

    /** A copy of the names indexed under this label. */
    Set<String> get(String namespace, String label) {
        Map<String, Set<String>> labels = byNamespace.get(namespace);
        Set<String> names = labels == null ? null : labels.get(label);
        return names == null ? Set.of() : new HashSet<>(names);
    }

    /** Adds the names indexed under each label of {@code labels} to {@code into}. */
    void collect(String namespace, JsonNode labels, Set<String> into) {
        Map<String, Set<String>> index = byNamespace.get(namespace);
        if (index == null || labels == null || !labels.isObject()) {
            return;
        }
        for (var label : labels.properties()) {
            Set<String> names = index.get(label.getKey() + "=" + label.getValue().asText());
            if (names != null) {
                into.addAll(names);
            }
        }
    }
}
