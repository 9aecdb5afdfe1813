package dev.drainboard.scheduling;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.drainboard.architecture.Pure;

import java.util.Iterator;
import java.util.Map;

/** Whether a node matches a pod's {@code nodeSelector} and required node affinity. */
@Pure
public final class NodeSelection {

    private NodeSelection() {
    }

    public static boolean matches(JsonNode podSpec, JsonNode node) {
        JsonNode labels = node.path("metadata").path("labels");
        Iterator<Map.Entry<String, JsonNode>> selector = podSpec.path("nodeSelector").fields();
        while (selector.hasNext()) {
            Map.Entry<String, JsonNode> e = selector.next();
            if (!labels.has(e.getKey()) || !labels.path(e.getKey()).asText().equals(e.getValue().asText())) {
                return false;
            }
        }
        JsonNode required = podSpec.path("affinity").path("nodeAffinity").path("requiredDuringSchedulingIgnoredDuringExecution");
        if (required.isMissingNode() || required.isNull()) {
            return true;
        }
        // Terms are ORed; an empty list matches no node, as in Kubernetes.
        for (JsonNode term : required.path("nodeSelectorTerms")) {
            if (termMatches(term, node)) {
                return true;
            }
        }
        return false;
    }

    /** A term's requirements are ANDed; a term without any requirement matches nothing. */
    static boolean termMatches(JsonNode term, JsonNode node) {
        JsonNode expressions = term.path("matchExpressions");
        JsonNode fields = term.path("matchFields");
        if (expressions.isEmpty() && fields.isEmpty()) {
            return false;
        }
        JsonNode labels = node.path("metadata").path("labels");
        for (JsonNode e : expressions) {
            if (!requirementMatches(e, labels)) {
                return false;
            }
        }
        for (JsonNode f : fields) {
            // metadata.name is the only field node affinity supports.
            var asLabels = JsonNodeFactory.instance.objectNode();
            if (f.path("key").asText().equals("metadata.name")) {
                asLabels.put("metadata.name", node.path("metadata").path("name").asText());
            }
            if (!requirementMatches(f, asLabels)) {
                return false;
            }
        }
        return true;
    }

    /** One node selector requirement against a label map: In, NotIn, Exists, DoesNotExist, Gt, Lt. */
    public static boolean requirementMatches(JsonNode requirement, JsonNode labels) {
        String key = requirement.path("key").asText();
        boolean present = labels.has(key);
        String value = labels.path(key).asText();
        JsonNode values = requirement.path("values");
        return switch (requirement.path("operator").asText()) {
            case "In" -> present && contains(values, value);
            case "NotIn" -> !present || !contains(values, value);
            case "Exists" -> present;
            case "DoesNotExist" -> !present;
            case "Gt" -> present && values.size() == 1 && compare(value, values.get(0).asText()) > 0;
            case "Lt" -> present && values.size() == 1 && compare(value, values.get(0).asText()) < 0;
            default -> false;
        };
    }

    private static boolean contains(JsonNode values, String value) {
        for (JsonNode v : values) {
            if (v.asText().equals(value)) {
                return true;
            }
        }
        return false;
    }

    /** Integer comparison; a value that is not an integer never satisfies Gt or Lt. */
    private static int compare(String label, String bound) {
        try {
            return Long.compare(Long.parseLong(label), Long.parseLong(bound));
        } catch (NumberFormatException e) {
            return 0;
        }
    }
}
