package dev.drainboard.ops;

import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.LabelSelectorRequirement;

import java.util.List;
import java.util.Map;

/** Whether a structured label selector (a PDB's) matches a pod's labels, as the API server's PDB lookup decides. */
final class LabelSelectors {

    private LabelSelectors() {
    }

    /** A null selector matches nothing; an empty one matches everything (policy/v1). */
    static boolean matches(LabelSelector selector, Map<String, String> labels) {
        if (selector == null) {
            return false;
        }
        Map<String, String> have = labels == null ? Map.of() : labels;
        if (selector.getMatchLabels() != null) {
            for (Map.Entry<String, String> e : selector.getMatchLabels().entrySet()) {
                if (!e.getValue().equals(have.get(e.getKey()))) {
                    return false;
                }
            }
        }
        if (selector.getMatchExpressions() != null) {
            for (LabelSelectorRequirement r : selector.getMatchExpressions()) {
                if (!matches(r, have)) {
                    return false;
                }
            }
        }
        return true;
    }

    private static boolean matches(LabelSelectorRequirement r, Map<String, String> labels) {
        List<String> values = r.getValues() == null ? List.of() : r.getValues();
        String value = labels.get(r.getKey());
        return switch (r.getOperator()) {
            case "In" -> value != null && values.contains(value);
            case "NotIn" -> value == null || !values.contains(value);
            case "Exists" -> labels.containsKey(r.getKey());
            case "DoesNotExist" -> !labels.containsKey(r.getKey());
            default -> false; // the API server refuses other operators, so such a selector selects nothing
        };
    }
}
