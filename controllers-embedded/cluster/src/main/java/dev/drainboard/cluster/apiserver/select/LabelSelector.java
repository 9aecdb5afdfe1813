package dev.drainboard.cluster.apiserver.select;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * A label selector with kube-apiserver's semantics: the {@code labelSelector=} query syntax of apimachinery's
 * labels.Parse, or a metav1.LabelSelector object as metav1.LabelSelectorAsSelector reads it. Immutable.
 */
public final class LabelSelector {
    private static final LabelSelector EVERYTHING = new LabelSelector(List.of(), false);
    private static final LabelSelector NOTHING = new LabelSelector(List.of(), true);

    /** Sorted by key, like apimachinery, so that {@link #toString()} is canonical. */
    private final List<LabelRequirement> requirements;
    private final boolean matchesNothing;

    private LabelSelector(List<LabelRequirement> requirements, boolean matchesNothing) {
        this.requirements = requirements;
        this.matchesNothing = matchesNothing;
    }

    /** Parses the {@code labelSelector=} syntax; blank text selects everything. */
    public static LabelSelector parse(String text) throws SelectorException {
        return of(LabelSelectorParser.parse(text == null ? "" : text));
    }

    /**
     * Reads a metav1.LabelSelector object. An empty object ({@code {}}) selects everything, as a policy/v1 PDB's
     * empty selector selects every pod of its namespace. An absent or JSON-null selector selects nothing, as
     * LabelSelectorAsSelector(nil) does (a PDB with a null selector guards no pod).
     */
    public static LabelSelector fromJson(JsonNode selector) throws SelectorException {
        if (selector == null || selector.isMissingNode() || selector.isNull()) {
            return NOTHING;
        }
        List<LabelRequirement> requirements = new ArrayList<>();
        for (Map.Entry<String, String> label : sortedMatchLabels(selector.path("matchLabels")).entrySet()) {
            requirements.add(LabelRequirement.create(label.getKey(), LabelOperator.EQUALS, List.of(label.getValue())));
        }
        for (JsonNode expression : selector.path("matchExpressions")) {
            requirements.add(expressionRequirement(expression));
        }
        return of(requirements);
    }

    public boolean matches(JsonNode labels) {
        if (matchesNothing) {
            return false;
        }
        JsonNode labelObject = labels == null || labels.isMissingNode() || labels.isNull() ? null : labels;
        return requirements.stream().allMatch(r -> r.matches(labelObject));
    }

    public boolean matchesObject(JsonNode object) {
        return matches(object == null ? null : object.path("metadata").path("labels"));
    }

    /**
     * A label every selected object carries, as {@code key=value}, when the selector has an equality requirement
     * (or an {@code in} with one value): lets callers index objects by label instead of testing each. Empty
     * otherwise, and for a selector that selects nothing.
     */
    public java.util.Optional<String> requiredLabel() {
        if (matchesNothing) {
            return java.util.Optional.empty();
        }
        return requirements.stream()
                .filter(r -> r.operator() == LabelOperator.EQUALS || r.operator() == LabelOperator.DOUBLE_EQUALS
                        || (r.operator() == LabelOperator.IN && r.values().size() == 1))
                .map(r -> r.key() + "=" + r.values().getFirst())
                .findFirst();
    }

    public boolean isEverything() {
        return !matchesNothing && requirements.isEmpty();
    }

    /** The canonical text, as kube-apiserver prints a selector; empty for everything (and for nothing). */
    @Override
    public String toString() {
        return requirements.stream().map(LabelRequirement::toString).collect(Collectors.joining(","));
    }

    private static LabelSelector of(List<LabelRequirement> requirements) {
        if (requirements.isEmpty()) {
            return EVERYTHING;
        }
        List<LabelRequirement> sorted = new ArrayList<>(requirements);
        sorted.sort(Comparator.comparing(LabelRequirement::key));
        return new LabelSelector(List.copyOf(sorted), false);
    }

    private static Map<String, String> sortedMatchLabels(JsonNode matchLabels) {
        Map<String, String> sorted = new TreeMap<>();
        for (Map.Entry<String, JsonNode> label : matchLabels.properties()) {
            sorted.put(label.getKey(), label.getValue().isNull() ? "" : label.getValue().asText());
        }
        return sorted;
    }

    private static LabelRequirement expressionRequirement(JsonNode expression) throws SelectorException {
        String operatorName = expression.path("operator").asText("");
        LabelOperator operator = switch (operatorName) {
            case "In" -> LabelOperator.IN;
            case "NotIn" -> LabelOperator.NOT_IN;
            case "Exists" -> LabelOperator.EXISTS;
            case "DoesNotExist" -> LabelOperator.DOES_NOT_EXIST;
            default -> throw new SelectorException(
                    ValidationMessages.quote(operatorName) + " is not a valid label selector operator");
        };
        List<String> values = new ArrayList<>();
        for (JsonNode value : expression.path("values")) {
            values.add(value.asText());
        }
        return LabelRequirement.create(expression.path("key").asText(""), operator, values);
    }
}
