package dev.drainboard.cluster.apiserver.table;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;

import java.util.ArrayList;
import java.util.List;

/**
 * The JSONPath subset CRD printer columns use (a subset of kubectl's JSONPath):
 * {@code .a.b} fields (a backslash escapes a dot inside a key), {@code ['key']}, {@code [2]} and
 * {@code [-1]} indexes, {@code *} and {@code [*]} wildcards, {@code ..key} recursive descent and
 * {@code [?(@.path OP literal)]} filters with ==, !=, <, <=, >, >= or a bare {@code @.path}
 * existence test. Surrounding braces and a leading {@code $} are optional. Missing keys are not
 * errors: they just contribute no result.
 */
public final class JsonPath {

    private JsonPath() {
    }

    /** Every value the expression selects, in document order; empty when nothing matches. */
    public static List<JsonNode> evaluate(JsonNode root, String expression) {
        return apply(compile(expression), root);
    }

    /** Parses an expression once for repeated use with {@link #apply}. */
    static List<Step> compile(String expression) {
        return new JsonPathParser(expression).parse();
    }

    static List<JsonNode> apply(List<Step> steps, JsonNode root) {
        List<JsonNode> current = root == null ? List.of() : List.of(root);
        for (Step step : steps) {
            List<JsonNode> next = new ArrayList<>();
            current.forEach(node -> step.select(node, next));
            current = next;
        }
        return current;
    }

    /** One path segment: adds what it selects from a node to the results. */
    sealed interface Step {
        void select(JsonNode node, List<JsonNode> results);
    }

    record Field(String name) implements Step {
        @Override
        public void select(JsonNode node, List<JsonNode> results) {
            JsonNode value = node.isObject() ? node.get(name) : null;
            if (value != null && !value.isNull()) {
                results.add(value);
            }
        }
    }

    record Index(int index) implements Step {
        @Override
        public void select(JsonNode node, List<JsonNode> results) {
            int position = index < 0 ? node.size() + index : index;
            if (node.isArray() && position >= 0 && position < node.size()) {
                results.add(node.get(position));
            }
        }
    }

    record Wildcard() implements Step {
        @Override
        public void select(JsonNode node, List<JsonNode> results) {
            if (node.isContainerNode()) {
                node.forEach(results::add);
            }
        }
    }

    record RecursiveField(String name) implements Step {
        @Override
        public void select(JsonNode node, List<JsonNode> results) {
            new Field(name).select(node, results);
            if (node.isContainerNode()) {
                node.forEach(child -> select(child, results));
            }
        }
    }

    /** Keeps the array elements whose relative path exists or compares true against a literal. */
    record Filter(List<Step> path, String operator, JsonNode literal) implements Step {
        @Override
        public void select(JsonNode node, List<JsonNode> results) {
            if (!node.isArray()) {
                return;
            }
            for (JsonNode element : node) {
                List<JsonNode> values = apply(path, element);
                boolean matches = operator == null ? !values.isEmpty() : values.stream().anyMatch(this::compares);
                if (matches) {
                    results.add(element);
                }
            }
        }

        private boolean compares(JsonNode value) {
            int order;
            if (value.isNumber() && literal.isNumber()) {
                order = Double.compare(value.asDouble(), literal.asDouble());
            } else if (value.isTextual() && literal.isTextual() || value.isBoolean() && literal.isBoolean()) {
                order = value.asText().compareTo(literal.asText());
            } else {
                return false; // values of different kinds are never comparable
            }
            return switch (operator) {
                case "==" -> order == 0;
                case "!=" -> order != 0;
                case "<" -> order < 0;
                case "<=" -> order <= 0;
                case ">" -> order > 0;
                case ">=" -> order >= 0;
                default -> throw new IllegalStateException("Unknown filter operator " + operator);
            };
        }
    }

    /** A filter's right-hand side: a quoted string, true/false or a number. */
    static JsonNode literal(String text) {
        JsonNodeFactory json = JsonNodeFactory.instance;
        if (text.length() >= 2 && (text.charAt(0) == '"' || text.charAt(0) == '\'')
                && text.charAt(text.length() - 1) == text.charAt(0)) {
            return json.textNode(text.substring(1, text.length() - 1));
        }
        if (text.equals("true") || text.equals("false")) {
            return json.booleanNode(Boolean.parseBoolean(text));
        }
        try {
            return json.numberNode(Double.parseDouble(text));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("Unsupported JSONPath filter literal: " + text, e);
        }
    }
}
