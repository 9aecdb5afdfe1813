package dev.drainboard.cluster.apiserver.table;

import com.fasterxml.jackson.databind.JsonNode;

import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Optional;

/** Reads Kubernetes timestamps (RFC 3339, with or without fractional seconds) and renders ages. */
final class Ages {
    private static final DateTimeFormatter RFC3339_SECONDS = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss'Z'");

    private Ages() {
    }

    /** The timestamp, or empty when it is absent or blank (Go's zero time). */
    static Optional<Instant> instant(JsonNode timestamp) {
        String text = timestamp == null || !timestamp.isTextual() ? "" : timestamp.asText();
        return text.isEmpty() ? Optional.empty() : Optional.of(OffsetDateTime.parse(text).toInstant());
    }

    /** The age of a timestamp field; "<unknown>" when it is not set, like the printers' translateTimestampSince. */
    static String since(JsonNode timestamp, Instant now) {
        return instant(timestamp).map(time -> since(time, now)).orElse("<unknown>");
    }

    static String since(Instant time, Instant now) {
        return HumanDuration.format(Duration.between(time, now));
    }

    /** The timestamp in the second-precision UTC form Go prints with time.RFC3339. */
    static String rfc3339(Instant time) {
        return RFC3339_SECONDS.format(time.atOffset(ZoneOffset.UTC));
    }
}
