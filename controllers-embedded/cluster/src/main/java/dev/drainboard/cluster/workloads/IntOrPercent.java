package dev.drainboard.cluster.workloads;

import com.fasterxml.jackson.databind.JsonNode;
import dev.drainboard.architecture.Pure;

/**
 * An IntOrString such as {@code maxSurge: 25%}, scaled against a total as
 * {@code intstr.GetScaledValueFromIntOrPercent} does it (a percentage rounded up or down).
 */
@Pure
public final class IntOrPercent {

    private IntOrPercent() {
    }

    /** The value; {@code fallback} when it is missing or null. Throws IllegalArgumentException for garbage. */
    public static int scaled(JsonNode value, int total, boolean roundUp, int fallback) {
        if (value == null || value.isNull() || value.isMissingNode()) {
            return fallback;
        }
        if (value.isIntegralNumber()) {
            return value.asInt();
        }
        String text = value.asText().trim();
        if (text.endsWith("%")) {
            int percent = Integer.parseInt(text.substring(0, text.length() - 1));
            long scaled = (long) percent * total;
            return (int) (roundUp ? Math.ceilDiv(scaled, 100) : Math.floorDiv(scaled, 100));
        }
        throw new IllegalArgumentException("invalid value for IntOrString: invalid type: string is not a percentage");
    }
}
