package dev.drainboard.cluster.apiserver.table;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;

/**
 * Renders JSON values the way kube-apiserver's Go code does for string-typed custom columns:
 * strings as they are, other scalars as text, objects and arrays as compact JSON with sorted keys.
 */
final class JsonValueText {
    private static final ObjectMapper SORTED_JSON = new ObjectMapper().enable(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS);
    // Below this magnitude Go prints a whole float64 as plain digits, and a long holds it exactly.
    private static final double PLAIN_DIGITS_LIMIT = 1e18;

    private JsonValueText() {
    }

    static String of(JsonNode value) {
        if (value.isContainerNode()) {
            try {
                // Through plain maps so that the keys come out sorted, as Go's encoding/json sorts them.
                return SORTED_JSON.writeValueAsString(SORTED_JSON.treeToValue(value, Object.class));
            } catch (JsonProcessingException e) {
                throw new IllegalStateException("A JSON tree could not be written back as JSON", e);
            }
        }
        return value.isFloatingPointNumber() ? number(value.asDouble()).asText() : value.asText();
    }

    /** A float64 as Go writes it: whole values without a fraction (3, not 3.0). */
    static JsonNode number(double value) {
        boolean whole = value == Math.rint(value) && Math.abs(value) < PLAIN_DIGITS_LIMIT;
        return whole ? JsonNodeFactory.instance.numberNode((long) value) : JsonNodeFactory.instance.numberNode(value);
    }
}
