package dev.drainboard.cluster.workloads;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.drainboard.architecture.Pure;
import dev.drainboard.cluster.apiserver.ObjectValidator.Violation;
import dev.drainboard.labels.LabelSelector;
import dev.drainboard.labels.SelectorException;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;

/**
 * The parts of kube-apiserver's apps/v1 validation ({@code pkg/apis/apps/validation/validation.go}) the workload
 * controllers rely on: a selector is required and not empty, it selects the template's labels (or a controller would
 * create pods it never counts, without end), replicas are not negative, and the template's restartPolicy is Always.
 */
@Pure
public final class WorkloadValidation {

    private WorkloadValidation() {
    }

    public static List<Violation> validate(ObjectNode object) {
        List<Violation> violations = new ArrayList<>();
        JsonNode spec = object.path("spec");
        JsonNode replicas = spec.path("replicas");
        if (replicas.isIntegralNumber() && replicas.asLong() < 0) {
            violations.add(new Violation("spec.replicas", "Invalid value: " + replicas.asLong() + ": must be greater than or equal to 0"));
        }
        JsonNode selectorJson = spec.get("selector");
        LabelSelector selector = null;
        if (selectorJson == null || selectorJson.isNull()) {
            violations.add(new Violation("spec.selector", "Required value"));
        } else {
            if (selectorJson.path("matchLabels").isEmpty() && selectorJson.path("matchExpressions").isEmpty()) {
                violations.add(new Violation("spec.selector", "Invalid value: v1.LabelSelector{MatchLabels:"
                        + (selectorJson.get("matchLabels") == null ? "map[string]string(nil)" : "map[string]string{}")
                        + ", MatchExpressions:[]v1.LabelSelectorRequirement(nil)}: empty selector is invalid for " + emptySelectorNoun(object)));
            }
            try {
                selector = LabelSelector.fromJson(selectorJson);
            } catch (SelectorException e) {
                violations.add(new Violation("spec.selector", "Invalid value: " + selectorJson + ": invalid label selector"));
            }
        }
        JsonNode template = spec.path("template");
        JsonNode labels = template.path("metadata").path("labels");
        if (selector != null && !selector.isEverything() && !selector.matches(labels)) {
            violations.add(new Violation("spec.template.metadata.labels",
                    "Invalid value: " + goMap(labels) + ": `selector` does not match template `labels`"));
        }
        String restartPolicy = template.path("spec").path("restartPolicy").asText("Always");
        if (!restartPolicy.equals("Always")) {
            violations.add(new Violation("spec.template.spec.restartPolicy",
                    "Unsupported value: \"" + restartPolicy + "\": supported values: \"Always\""));
        }
        return violations;
    }

    /** kube's wording names the kind, except that a ReplicaSet's message says "deployment" too. */
    private static String emptySelectorNoun(ObjectNode object) {
        return switch (object.path("kind").asText()) {
            case "DaemonSet" -> "daemonset";
            case "StatefulSet" -> "statefulset";
            default -> "deployment";
        };
    }

    /** A label map as Go's {@code %#v} prints it: {@code map[string]string{"app":"web"}}, keys sorted. */
    static String goMap(JsonNode labels) {
        if (labels == null || !labels.isObject()) {
            return "map[string]string(nil)";
        }
        TreeMap<String, String> sorted = new TreeMap<>();
        labels.properties().forEach(e -> sorted.put(e.getKey(), e.getValue().asText()));
        StringBuilder out = new StringBuilder("map[string]string{");
        boolean first = true;
        for (var e : sorted.entrySet()) {
            if (!first) {
                out.append(", ");
            }
            first = false;
            out.append('"').append(e.getKey()).append("\":\"").append(e.getValue()).append('"');
        }
        return out.append('}').toString();
    }
}
