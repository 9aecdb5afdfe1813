package dev.drainboard.cluster.apiserver.patch;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.Comparator;
import java.util.List;

/** Value comparisons on JSON trees that ignore how a number happens to be stored (80 as int, long or decimal). */
final class JsonValues {

    private static final Comparator<JsonNode> NUMBERS_BY_VALUE = (a, b) -> {
        if (a.isNumber() && b.isNumber()) {
            return a.decimalValue().compareTo(b.decimalValue());
        }
        return a.equals(b) ? 0 : 1;
    };

    private JsonValues() {
    }

    static boolean same(JsonNode a, JsonNode b) {
        if (a == null || b == null) {
            return a == b;
        }
        return a.equals(NUMBERS_BY_VALUE, b);
    }

    /** Index of the first element of {@code values} that is the same as {@code value}, or -1. */
    static int indexOf(List<JsonNode> values, JsonNode value) {
        for (int i = 0; i < values.size(); i++) {
            if (same(values.get(i), value)) {
                return i;
            }
        }
        return -1;
    }

    static boolean isScalar(JsonNode node) {
        return !node.isContainerNode();
    }
}
