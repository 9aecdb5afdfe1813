package dev.drainboard.cluster.apiserver.patch;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.StreamSupport;

/** Renders JSON the way Go's {@code fmt} prints decoded JSON ({@code %v}), so error texts match kube-apiserver's. */
final class GoFormat {

    private GoFormat() {
    }

    static String value(JsonNode node) {
        if (node == null || node.isNull()) {
            return "<nil>";
        }
        if (node.isObject()) {
            List<String> keys = new ArrayList<>();
            node.fieldNames().forEachRemaining(keys::add);
            keys.sort(null); // Go prints map keys sorted
            return keys.stream().map(k -> k + ":" + value(node.get(k))).collect(Collectors.joining(" ", "map[", "]"));
        }
        if (node.isArray()) {
            return StreamSupport.stream(node.spliterator(), false).map(GoFormat::value).collect(Collectors.joining(" ", "[", "]"));
        }
        return node.asText();
    }

    /** The Go type a JSON value decodes to in kube-apiserver (integers stay int64), as {@code %s} prints it. */
    static String decodedTypeName(JsonNode node) {
        return switch (node.getNodeType()) {
            case OBJECT, POJO -> "map[string]interface {}";
            case ARRAY -> "[]interface {}";
            case STRING, BINARY -> "string";
            case NUMBER -> node.isIntegralNumber() ? "int64" : "float64";
            case BOOLEAN -> "bool";
            case NULL, MISSING -> "%!s(<nil>)";
        };
    }

    /** The name encoding/json uses for a JSON value's type in "cannot unmarshal X into ..." errors. */
    static String jsonTypeName(JsonNode node) {
        return switch (node.getNodeType()) {
            case OBJECT, POJO -> "object";
            case ARRAY -> "array";
            case STRING, BINARY -> "string";
            case NUMBER -> "number";
            case BOOLEAN -> "bool";
            case NULL, MISSING -> "null";
        };
    }
}
