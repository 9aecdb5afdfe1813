package dev.drainboard.cluster.apiserver;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.time.Instant;

/** Sets a condition in status.conditions, keeping lastTransitionTime when the status is unchanged. */
public final class PodConditions {

    private PodConditions() {
    }

    public static void set(ObjectNode object, String type, String status, String reason, String message, Instant now) {
        ArrayNode conditions = object.with("status").withArray("conditions");
        for (JsonNode c : conditions) {
            if (c.path("type").asText().equals(type)) {
                ObjectNode condition = (ObjectNode) c;
                if (!condition.path("status").asText().equals(status)) {
                    condition.put("lastTransitionTime", Json.timestamp(now));
                }
                condition.put("status", status);
                putOrRemove(condition, "reason", reason);
                putOrRemove(condition, "message", message);
                return;
            }
        }
        ObjectNode condition = conditions.addObject();
        condition.put("type", type);
        condition.put("status", status);
        condition.putNull("lastProbeTime");
        condition.put("lastTransitionTime", Json.timestamp(now));
        putOrRemove(condition, "reason", reason);
        putOrRemove(condition, "message", message);
    }

    public static String status(JsonNode object, String type) {
        for (JsonNode c : object.path("status").path("conditions")) {
            if (c.path("type").asText().equals(type)) {
                return c.path("status").asText();
            }
        }
        return "";
    }

    private static void putOrRemove(ObjectNode condition, String field, String value) {
        if (value == null || value.isEmpty()) {
            condition.remove(field);
        } else {
            condition.put(field, value);
        }
    }
}
