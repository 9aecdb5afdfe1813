package dev.drainboard.ui.model;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Optional;

/**
 * A live migration's transfer as its source node last reported it (annotation
 * {@code drainboard.dev/migration-progress} on the VMIM), plus how the remaining data moved since the sample before.
 *
 * <p>Remaining data is not a countdown: the guest dirties memory while it is copied, so it can grow between samples
 * and a pass can end with more to send than it started with. {@link #fraction()} is therefore
 * processed / (processed + remaining), which falls when remaining grows, and {@link #trend()} says so explicitly.
 *
 * @param state            {@code RUNNING}, {@code COMPLETED} or {@code FAILED}
 * @param mode             {@code PreCopy}, {@code PostCopy} or {@code Paused}
 * @param iteration        the pre-copy pass, from 1
 * @param remainingBefore  remaining bytes in the previous sample, -1 when this is the first one seen
 */
public record TransferProgress(String state, String mode, int iteration, long totalBytes, long processedBytes,
                               long remainingBytes, long bytesPerSecond, Instant updated, Trend trend,
                               long remainingBefore) {

    /** How the remaining data moved between the two latest samples. */
    public enum Trend {
        /** Only one sample seen so far. */
        FIRST_SAMPLE,
        SHRINKING,
        UNCHANGED,
        /** Remaining rose since the last sample: the guest dirties memory faster than it is sent. */
        GROWING
    }

    private static final ObjectMapper JSON = new ObjectMapper();

    /** Share of the data moved so far, in [0, 1]; honest when remaining grows (it falls then). */
    public double fraction() {
        if ("COMPLETED".equals(state)) {
            return 1.0;
        }
        long known = processedBytes + remainingBytes;
        return known <= 0 ? 0.0 : Math.min(1.0, Math.max(0.0, (double) processedBytes / known));
    }

    public boolean running() {
        return "RUNNING".equals(state);
    }

    /** Remaining data rose since the previous sample of a running transfer. */
    public boolean notConverging() {
        return running() && trend == Trend.GROWING;
    }

    /**
     * Reads the annotation's JSON; empty when it is missing or not the documented shape (a bad annotation must not
     * break the row, it only loses the bar).
     */
    public static Optional<TransferProgress> parse(String json) {
        if (json == null || json.isBlank()) {
            return Optional.empty();
        }
        try {
            JsonNode n = JSON.readTree(json);
            if (n == null || !n.isObject() || !n.has("processedBytes") || !n.has("remainingBytes")) {
                return Optional.empty();
            }
            Instant updated = n.hasNonNull("updated") ? Instant.parse(n.get("updated").asText()) : Instant.EPOCH;
            return Optional.of(new TransferProgress(n.path("state").asText("RUNNING"), n.path("mode").asText(""),
                    n.path("iteration").asInt(0), n.path("totalBytes").asLong(0), n.path("processedBytes").asLong(0),
                    n.path("remainingBytes").asLong(0), n.path("bytesPerSecond").asLong(0), updated,
                    Trend.FIRST_SAMPLE, -1));
        } catch (java.io.IOException | DateTimeParseException e) {
            return Optional.empty();
        }
    }

    /**
     * This sample as the successor of {@code previous} (the last one seen for the same migration, or null): the same
     * sample again (same {@code updated}) keeps the previous verdict; a newer one compares the remaining bytes.
     */
    public TransferProgress after(TransferProgress previous) {
        if (previous == null) {
            return this;
        }
        if (previous.updated.equals(updated) && previous.remainingBytes == remainingBytes) {
            return previous;
        }
        Trend t = remainingBytes > previous.remainingBytes ? Trend.GROWING
                : remainingBytes < previous.remainingBytes ? Trend.SHRINKING : Trend.UNCHANGED;
        return new TransferProgress(state, mode, iteration, totalBytes, processedBytes, remainingBytes, bytesPerSecond,
                updated, t, previous.remainingBytes);
    }
}
