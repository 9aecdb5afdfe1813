package dev.drainboard.ui.model;

import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.LabelSelectorRequirement;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** Label selectors for the console: matched as the API server does ({@link dev.drainboard.labels.LabelSelector}), printed as kubectl describe does. */
final class LabelSelectors {

    private LabelSelectors() {
    }

    /** A null selector selects nothing; an empty one selects everything (policy/v1 PDB semantics). */
    static boolean matches(LabelSelector selector, Map<String, String> labels) {
        return dev.drainboard.labels.LabelSelector.selects(selector, labels);
    }

    /** kubectl's way of printing a selector: {@code app=web,tier in (a,b)}; empty selector prints as "(all pods)". */
    static String format(LabelSelector selector) {
        if (selector == null) {
            return "(none)";
        }
        List<String> parts = new ArrayList<>();
        if (selector.getMatchLabels() != null) {
            new TreeMap<>(selector.getMatchLabels()).forEach((k, v) -> parts.add(k + "=" + v));
        }
        if (selector.getMatchExpressions() != null) {
            for (LabelSelectorRequirement r : selector.getMatchExpressions()) {
                String values = r.getValues() == null ? "" : String.join(",", r.getValues());
                parts.add(switch (r.getOperator()) {
                    case "In" -> r.getKey() + " in (" + values + ")";
                    case "NotIn" -> r.getKey() + " notin (" + values + ")";
                    case "Exists" -> r.getKey();
                    case "DoesNotExist" -> "!" + r.getKey();
                    default -> r.getKey() + " " + r.getOperator() + " (" + values + ")";
                });
            }
        }
        return parts.isEmpty() ? "(all pods)" : String.join(",", parts);
    }
}
