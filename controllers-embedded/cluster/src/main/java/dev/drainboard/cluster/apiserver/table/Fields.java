package dev.drainboard.cluster.apiserver.table;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.MissingNode;

import java.util.ArrayList;
import java.util.List;

/**
 * Null-tolerant reads from a Kubernetes object's JSON. Absent fields read as Go zero values
 * ("" / 0 / false / empty list) because the printers were written against Go structs.
 */
final class Fields {
    private Fields() {
    }

    static JsonNode at(JsonNode node, String... path) {
        JsonNode current = node;
        for (String key : path) {
            current = current == null ? null : current.get(key);
        }
        return current == null || current.isNull() ? MissingNode.getInstance() : current;
    }

    static boolean has(JsonNode node, String... path) {
        return !at(node, path).isMissingNode();
    }

    static String text(JsonNode node, String... path) {
        JsonNode value = at(node, path);
        return value.isValueNode() ? value.asText() : "";
    }

    static String textOr(String fallback, JsonNode node, String... path) {
        String value = text(node, path);
        return value.isEmpty() ? fallback : value;
    }

    static long integer(JsonNode node, String... path) {
        return at(node, path).asLong(0);
    }

    static boolean bool(JsonNode node, String... path) {
        return at(node, path).asBoolean(false);
    }

    static List<JsonNode> list(JsonNode node, String... path) {
        List<JsonNode> items = new ArrayList<>();
        at(node, path).forEach(items::add);
        return items;
    }

    static int size(JsonNode node, String... path) {
        JsonNode value = at(node, path);
        return value.isContainerNode() ? value.size() : 0;
    }
}
