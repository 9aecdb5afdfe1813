package dev.drainboard.ui.model;

import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.LabelSelectorRequirement;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** Label selector matching and printing as Kubernetes does it. */
final class LabelSelectors {

    private LabelSelectors() {
    }

    /** A null selector selects nothing; an empty one selects everything (policy/v1 PDB semantics). */
    static boolean matches(LabelSelector selector, Map<String, String> labels) {
        if (selector == null) {
            return false;
        }
        Map<String, String> l = labels == null ? Map.of() : labels;
        if (selector.getMatchLabels() != null) {
            for (Map.Entry<String, String> e : selector.getMatchLabels().entrySet()) {
                if (!e.getValue().equals(l.get(e.getKey()))) {
                    return false;
                }
            }
        }
        if (selector.getMatchExpressions() != null) {
            for (LabelSelectorRequirement r : selector.getMatchExpressions()) {
                List<String> values = r.getValues() == null ? List.of() : r.getValues();
                boolean ok = switch (r.getOperator()) {
                    case "In" -> l.containsKey(r.getKey()) && values.contains(l.get(r.getKey()));
                    case "NotIn" -> !l.containsKey(r.getKey()) || !values.contains(l.get(r.getKey()));
                    case "Exists" -> l.containsKey(r.getKey());
                    case "DoesNotExist" -> !l.containsKey(r.getKey());
                    default -> false;
                };
                if (!ok) {
                    return false;
                }
            }
        }
        return true;
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
