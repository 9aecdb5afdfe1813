package dev.drainboard.history;

import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;

/** Times as Kubernetes writes them (RFC 3339, whole seconds, UTC). */
public final class HistoryTimes {

    private HistoryTimes() {
    }

    public static String format(Instant t) {
        return t == null ? null : t.truncatedTo(ChronoUnit.SECONDS).toString();
    }

    /** Epoch for null or unreadable text: an unreadable time sorts last, it does not break a listing. */
    public static Instant parse(String text) {
        if (text == null || text.isBlank()) {
            return Instant.EPOCH;
        }
        try {
            return Instant.parse(text);
        } catch (DateTimeParseException e) {
            return Instant.EPOCH;
        }
    }
}
