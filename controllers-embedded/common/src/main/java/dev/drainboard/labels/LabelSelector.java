package dev.drainboard.labels;

import com.fasterxml.jackson.databind.JsonNode;
import dev.drainboard.architecture.Pure;
import io.fabric8.kubernetes.api.model.LabelSelectorRequirement;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * A label selector with kube-apiserver's semantics: the {@code labelSelector=} query syntax of apimachinery's
 * labels.Parse, or a metav1.LabelSelector object (as JSON or as fabric8's model) as metav1.LabelSelectorAsSelector
 * reads it. The one matcher for the API server's lists and watches, PDBs, webhooks' namespace selectors, pod
 * affinity, replica sets, the drain preview. Immutable.
 */
@Pure
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
        Map<String, String> matchLabels = new TreeMap<>();
        for (Map.Entry<String, JsonNode> label : selector.path("matchLabels").properties()) {
            matchLabels.put(label.getKey(), label.getValue().isNull() ? "" : label.getValue().asText());
        }
        List<LabelRequirement> requirements = equalities(matchLabels);
        for (JsonNode expression : selector.path("matchExpressions")) {
            List<String> values = new ArrayList<>();
            for (JsonNode value : expression.path("values")) {
                values.add(value.asText());
            }
            requirements.add(expression(expression.path("key").asText(""), expression.path("operator").asText(""), values));
        }
        return of(requirements);
    }

    /** {@link #fromJson} for fabric8's model of a metav1.LabelSelector: null selects nothing, empty everything. */
    public static LabelSelector fromModel(io.fabric8.kubernetes.api.model.LabelSelector selector) throws SelectorException {
        if (selector == null) {
            return NOTHING;
        }
        Map<String, String> matchLabels = new TreeMap<>();
        if (selector.getMatchLabels() != null) {
            selector.getMatchLabels().forEach((key, value) -> matchLabels.put(key, value == null ? "" : value));
        }
        List<LabelRequirement> requirements = equalities(matchLabels);
        if (selector.getMatchExpressions() != null) {
            for (LabelSelectorRequirement expression : selector.getMatchExpressions()) {
                requirements.add(expression(expression.getKey() == null ? "" : expression.getKey(),
                        expression.getOperator() == null ? "" : expression.getOperator(),
                        expression.getValues() == null ? List.of() : expression.getValues()));
            }
        }
        return of(requirements);
    }

    /**
     * Whether fabric8's model of a selector selects these labels (null: none); a selector the API server would
     * refuse selects nothing.
     */
    public static boolean selects(io.fabric8.kubernetes.api.model.LabelSelector selector, Map<String, String> labels) {
        try {
            return fromModel(selector).matches(labels);
        } catch (SelectorException e) {
            return false;
        }
    }

    /** {@link #selects(io.fabric8.kubernetes.api.model.LabelSelector, Map)} for JSON: a selector object and a label map. */
    public static boolean selects(JsonNode selector, JsonNode labels) {
        try {
            return fromJson(selector).matches(labels);
        } catch (SelectorException e) {
            return false;
        }
    }

    /** A JSON label map (null or missing: no labels). */
    public boolean matches(JsonNode labels) {
        if (matchesNothing) {
            return false;
        }
        JsonNode labelObject = labels == null || labels.isMissingNode() || labels.isNull() ? null : labels;
        return requirements.stream().allMatch(r -> {
            JsonNode label = labelObject == null ? null : labelObject.get(r.key());
            return r.matches(label == null ? null : label.isNull() ? "" : label.asText());
        });
    }

    /** A label map (null: no labels). */
    public boolean matches(Map<String, String> labels) {
        if (matchesNothing) {
            return false;
        }
        return requirements.stream().allMatch(r -> r.matches(labels == null ? null : labels.get(r.key())));
    }

    public boolean matchesObject(JsonNode object) {
        return matches(object == null ? null : object.path("metadata").path("labels"));
    }

    /**
     * A label every selected object carries, as {@code key=value}, when the selector has an equality requirement
     * (or an {@code in} with one value): lets callers index objects by label instead of testing each. Empty
     * otherwise, and for a selector that selects nothing.
     */
    public Optional<String> requiredLabel() {
        if (matchesNothing) {
            return Optional.empty();
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

    private static List<LabelRequirement> equalities(Map<String, String> sortedMatchLabels) throws SelectorException {
        List<LabelRequirement> requirements = new ArrayList<>();
        for (Map.Entry<String, String> label : sortedMatchLabels.entrySet()) {
            requirements.add(LabelRequirement.create(label.getKey(), LabelOperator.EQUALS, List.of(label.getValue())));
        }
        return requirements;
    }

    private static LabelRequirement expression(String key, String operatorName, List<String> values) throws SelectorException {
        LabelOperator operator = switch (operatorName) {
            case "In" -> LabelOperator.IN;
            case "NotIn" -> LabelOperator.NOT_IN;
            case "Exists" -> LabelOperator.EXISTS;
            case "DoesNotExist" -> LabelOperator.DOES_NOT_EXIST;
            default -> throw new SelectorException(
                    ValidationMessages.quote(operatorName) + " is not a valid label selector operator");
        };
        return LabelRequirement.create(key, operator, values);
    }
}
