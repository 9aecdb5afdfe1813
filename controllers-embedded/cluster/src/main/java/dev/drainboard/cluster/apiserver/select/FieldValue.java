package dev.drainboard.cluster.apiserver.select;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * How one selectable field's value is read from an object's JSON, following the registry strategies'
 * ToSelectableFields: Go fills every field from a typed struct, so an absent string reads "", an absent
 * bool "false" and an absent count "0".
 */
@FunctionalInterface
interface FieldValue {
    String of(JsonNode object);

    FieldValue NONE = object -> "";

    /** A string field at a dotted JSON path; CRD selectable fields read integers and booleans the same way. */
    static FieldValue text(String dottedPath) {
        return object -> scalarText(at(object, dottedPath));
    }

    static FieldValue bool(String dottedPath) {
        return object -> String.valueOf(at(object, dottedPath).asBoolean(false));
    }

    static FieldValue count(String dottedPath) {
        return object -> String.valueOf(at(object, dottedPath).asLong(0));
    }

    /** The first path with a non-empty value, like core/v1 Event's "source" falling back to the reporting controller. */
    static FieldValue firstNonEmpty(String... dottedPaths) {
        return object -> {
            for (String path : dottedPaths) {
                String value = scalarText(at(object, path));
                if (!value.isEmpty()) {
                    return value;
                }
            }
            return "";
        };
    }

    /** Go reads status.podIPs[0].ip; status.podIP is the same address, kept for objects written without podIPs. */
    static FieldValue podIP() {
        return object -> {
            String first = scalarText(at(object, "status").path("podIPs").path(0).path("ip"));
            return first.isEmpty() ? scalarText(at(object, "status.podIP")) : first;
        };
    }

    private static JsonNode at(JsonNode object, String dottedPath) {
        JsonNode node = object;
        for (String step : dottedPath.split("\\.")) {
            node = node.path(step);
        }
        return node;
    }

    private static String scalarText(JsonNode node) {
        return node.isValueNode() && !node.isNull() ? node.asText() : "";
    }
}
