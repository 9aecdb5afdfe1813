package dev.drainboard.scheduling;

import com.fasterxml.jackson.databind.JsonNode;
import dev.drainboard.architecture.Pure;

import java.util.Optional;
import java.util.Set;

/** Taints against tolerations, by Kubernetes' rules. */
@Pure
public final class Tolerations {

    public static final Set<String> SCHEDULING_EFFECTS = Set.of("NoSchedule", "NoExecute");

    private Tolerations() {
    }

    /**
     * Whether one toleration tolerates one taint: an effect, if given, must match; a key, if given, must match
     * (an empty key with {@code Exists} tolerates every taint); {@code Exists} ignores the value, {@code Equal}
     * (the default operator) needs the same value.
     */
    public static boolean tolerates(JsonNode toleration, JsonNode taint) {
        String effect = toleration.path("effect").asText("");
        if (!effect.isEmpty() && !effect.equals(taint.path("effect").asText(""))) {
            return false;
        }
        String key = toleration.path("key").asText("");
        if (!key.isEmpty() && !key.equals(taint.path("key").asText(""))) {
            return false;
        }
        return switch (toleration.path("operator").asText("")) {
            case "Exists" -> true;
            case "", "Equal" -> toleration.path("value").asText("").equals(taint.path("value").asText(""));
            default -> false;
        };
    }

    public static boolean anyTolerates(JsonNode tolerations, JsonNode taint) {
        for (JsonNode t : tolerations) {
            if (tolerates(t, taint)) {
                return true;
            }
        }
        return false;
    }

    /** The first NoSchedule or NoExecute taint none of the tolerations tolerates. */
    public static Optional<JsonNode> firstUntolerated(Iterable<JsonNode> taints, JsonNode tolerations) {
        for (JsonNode taint : taints) {
            if (SCHEDULING_EFFECTS.contains(taint.path("effect").asText()) && !anyTolerates(tolerations, taint)) {
                return Optional.of(taint);
            }
        }
        return Optional.empty();
    }
}
