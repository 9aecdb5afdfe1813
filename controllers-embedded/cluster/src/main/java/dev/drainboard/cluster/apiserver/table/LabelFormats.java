package dev.drainboard.cluster.apiserver.table;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

/** The label and selector renderings the printers use (labels.FormatLabels, LabelSelector strings). */
final class LabelFormats {
    private LabelFormats() {
    }

    /** A label map as sorted {@code k=v} pairs, or "<none>" when empty. */
    static String labels(JsonNode labelMap) {
        String formatted = sortedEntries(labelMap).entrySet().stream()
                .map(entry -> entry.getKey() + "=" + entry.getValue())
                .collect(Collectors.joining(","));
        return formatted.isEmpty() ? "<none>" : formatted;
    }

    /** A metav1.LabelSelector as a selector string; "" for an absent or empty selector. */
    static String selector(JsonNode labelSelector) {
        Map<String, List<String>> requirementsByKey = new TreeMap<>();
        sortedEntries(Fields.at(labelSelector, "matchLabels"))
                .forEach((key, value) -> requirementsByKey.computeIfAbsent(key, k -> new ArrayList<>()).add(key + "=" + value));
        for (JsonNode expression : Fields.list(labelSelector, "matchExpressions")) {
            String key = Fields.text(expression, "key");
            requirementsByKey.computeIfAbsent(key, k -> new ArrayList<>()).add(requirement(key, expression));
        }
        return requirementsByKey.values().stream().flatMap(List::stream).collect(Collectors.joining(","));
    }

    /** Like {@link #selector} but "<none>" for an empty selector (metav1.FormatLabelSelector). */
    static String selectorOrNone(JsonNode labelSelector) {
        String formatted = selector(labelSelector);
        return formatted.isEmpty() ? "<none>" : formatted;
    }

    private static String requirement(String key, JsonNode expression) {
        String values = Fields.list(expression, "values").stream().map(JsonNode::asText).sorted()
                .collect(Collectors.joining(","));
        return switch (Fields.text(expression, "operator")) {
            case "In" -> key + " in (" + values + ")";
            case "NotIn" -> key + " notin (" + values + ")";
            case "Exists" -> key;
            case "DoesNotExist" -> "!" + key;
            default -> "<error>";
        };
    }

    private static Map<String, String> sortedEntries(JsonNode map) {
        Map<String, String> sorted = new TreeMap<>();
        map.properties().forEach(entry -> sorted.put(entry.getKey(), entry.getValue().asText()));
        return sorted;
    }
}
