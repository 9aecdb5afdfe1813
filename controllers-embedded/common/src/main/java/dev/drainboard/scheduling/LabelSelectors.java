package dev.drainboard.scheduling;

import com.fasterxml.jackson.databind.JsonNode;
import dev.drainboard.architecture.Pure;

import java.util.Iterator;
import java.util.Map;

/** A metav1.LabelSelector (matchLabels and matchExpressions) against labels. */
@Pure
public final class LabelSelectors {

    private LabelSelectors() {
    }

    /** A missing or null selector selects nothing; an empty one selects everything. */
    public static boolean matches(JsonNode selector, JsonNode labels) {
        if (selector == null || selector.isMissingNode() || selector.isNull()) {
            return false;
        }
        Iterator<Map.Entry<String, JsonNode>> matchLabels = selector.path("matchLabels").fields();
        while (matchLabels.hasNext()) {
            Map.Entry<String, JsonNode> e = matchLabels.next();
            if (!labels.has(e.getKey()) || !labels.path(e.getKey()).asText().equals(e.getValue().asText())) {
                return false;
            }
        }
        for (JsonNode requirement : selector.path("matchExpressions")) {
            String op = requirement.path("operator").asText();
            if (!(op.equals("In") || op.equals("NotIn") || op.equals("Exists") || op.equals("DoesNotExist"))) {
                return false;
            }
            if (!NodeSelection.requirementMatches(requirement, labels)) {
                return false;
            }
        }
        return true;
    }
}
