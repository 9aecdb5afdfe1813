package dev.drainboard.cluster.apiserver.store;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.Iterator;
import java.util.Map;

/**
 * The length of a tree's compact JSON, counted without writing it (strings as their characters: escapes and
 * multi-byte characters are not counted extra). What the change log measures what it keeps in.
 */
public final class JsonSize {

    private JsonSize() {
    }

    public static long of(JsonNode node) {
        if (node == null) {
            return 0;
        }
        return switch (node.getNodeType()) {
            case OBJECT -> {
                long size = 2 + Math.max(0, node.size() - 1);
                for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
                    Map.Entry<String, JsonNode> field = it.next();
                    size += field.getKey().length() + 3 + of(field.getValue());
                }
                yield size;
            }
            case ARRAY -> {
                long size = 2 + Math.max(0, node.size() - 1);
                for (JsonNode element : node) {
                    size += of(element);
                }
                yield size;
            }
            case STRING -> node.textValue().length() + 2;
            case NUMBER -> node.canConvertToLong() && node.isIntegralNumber() ? digits(node.longValue()) : node.asText().length();
            case BOOLEAN -> node.booleanValue() ? 4 : 5;
            case BINARY -> node.asText().length() + 2;
            default -> 4;
        };
    }

    private static int digits(long value) {
        if (value == Long.MIN_VALUE) {
            return 20;
        }
        int digits = value < 0 ? 2 : 1;
        for (long v = Math.abs(value); v >= 10; v /= 10) {
            digits++;
        }
        return digits;
    }
}
