package dev.drainboard.cluster.disruption;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.drainboard.cluster.apiserver.Json;
import dev.drainboard.cluster.apiserver.PodConditions;

import java.time.Duration;
import java.time.Instant;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * The status kube-controller-manager's disruption controller computes for a PodDisruptionBudget,
 * as a pure function of the budget and the pods it selects.
 */
public final class DisruptionBudgetStatus {

    /** An evicted pod that has not started terminating stops counting as disrupted after this. */
    public static final Duration DISRUPTED_POD_TIMEOUT = Duration.ofMinutes(2);

    private DisruptionBudgetStatus() {
    }

    /** Returns the budget with its status recomputed. */
    public static ObjectNode compute(ObjectNode budget, List<ObjectNode> pods, Instant now) {
        ObjectNode result = budget.deepCopy();
        ObjectNode status = result.with("status");
        ObjectNode disrupted = pruneDisrupted(status.path("disruptedPods"), pods, now);

        int expected = pods.size();
        int healthy = 0;
        for (ObjectNode pod : pods) {
            boolean terminating = pod.path("metadata").has("deletionTimestamp");
            if (!terminating && !disrupted.has(Json.name(pod)) && "True".equals(PodConditions.status(pod, "Ready"))) {
                healthy++;
            }
        }
        int desired = desiredHealthy(budget.path("spec"), expected);
        int allowed = expected <= 0 ? 0 : Math.max(0, healthy - desired);

        status.put("observedGeneration", result.path("metadata").path("generation").asLong(1));
        status.put("expectedPods", expected);
        status.put("currentHealthy", healthy);
        status.put("desiredHealthy", desired);
        status.put("disruptionsAllowed", allowed);
        if (disrupted.isEmpty()) {
            status.remove("disruptedPods");
        } else {
            status.set("disruptedPods", disrupted);
        }
        boolean sufficient = allowed > 0;
        PodConditions.set(result, "DisruptionAllowed", sufficient ? "True" : "False",
                sufficient ? "SufficientPods" : "InsufficientPods", "", now);
        // The condition helper adds a pod-style lastProbeTime that PDB conditions do not have.
        for (JsonNode c : status.withArray("conditions")) {
            ((ObjectNode) c).remove("lastProbeTime");
            ((ObjectNode) c).put("observedGeneration", result.path("metadata").path("generation").asLong(1));
            if (!((ObjectNode) c).has("message")) {
                ((ObjectNode) c).put("message", "");
            }
        }
        return result;
    }

    /** When the earliest still-counted disrupted pod times out, or null when none does. */
    public static Instant nextExpiry(ObjectNode budget) {
        Instant earliest = null;
        for (Iterator<Map.Entry<String, JsonNode>> it = budget.path("status").path("disruptedPods").fields(); it.hasNext(); ) {
            Instant at = Json.parseTimestamp(it.next().getValue().asText()).plus(DISRUPTED_POD_TIMEOUT);
            if (earliest == null || at.isBefore(earliest)) {
                earliest = at;
            }
        }
        return earliest;
    }

    static int desiredHealthy(JsonNode spec, int expected) {
        JsonNode minAvailable = spec.get("minAvailable");
        JsonNode maxUnavailable = spec.get("maxUnavailable");
        if (minAvailable != null && !minAvailable.isNull()) {
            return scaled(minAvailable, expected, true);
        }
        if (maxUnavailable != null && !maxUnavailable.isNull()) {
            return Math.max(0, expected - scaled(maxUnavailable, expected, true));
        }
        return expected; // neither set: every selected pod must stay healthy
    }

    /** An IntOrString: an integer, or a percentage of expected rounded up. */
    private static int scaled(JsonNode value, int expected, boolean roundUp) {
        if (value.isNumber()) {
            return value.asInt();
        }
        String text = value.asText().trim();
        if (text.endsWith("%")) {
            double percent = Double.parseDouble(text.substring(0, text.length() - 1));
            double v = percent * expected / 100.0;
            return (int) (roundUp ? Math.ceil(v) : Math.floor(v));
        }
        return Integer.parseInt(text);
    }

    /** Keeps disrupted pods that still exist, are not terminating yet, and have not timed out. */
    private static ObjectNode pruneDisrupted(JsonNode disruptedPods, List<ObjectNode> pods, Instant now) {
        ObjectNode kept = Json.object();
        for (Iterator<Map.Entry<String, JsonNode>> it = disruptedPods.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> entry = it.next();
            ObjectNode pod = pods.stream().filter(p -> Json.name(p).equals(entry.getKey())).findFirst().orElse(null);
            Instant at = Json.parseTimestamp(entry.getValue().asText());
            boolean gone = pod == null || pod.path("metadata").has("deletionTimestamp");
            if (!gone && at != null && at.plus(DISRUPTED_POD_TIMEOUT).isAfter(now)) {
                kept.set(entry.getKey(), entry.getValue());
            }
        }
        return kept;
    }
}
