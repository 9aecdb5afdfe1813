package dev.drainboard.ui.common;

import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Locale;

/** Numbers and times as an operator reads them (kubectl's style where kubectl has one). */
public final class Formats {

    private Formats() {
    }

    /** kubectl's AGE: {@code 45s}, {@code 12m}, {@code 3h}, {@code 2d}; empty for an unparsable timestamp. */
    public static String age(String timestamp, Instant now) {
        if (timestamp == null || timestamp.isEmpty()) {
            return "";
        }
        try {
            return age(Duration.between(Instant.parse(timestamp), now));
        } catch (DateTimeParseException e) {
            return "";
        }
    }

    public static String age(Duration d) {
        long s = Math.max(0, d.toSeconds());
        if (s < 120) {
            return s + "s";
        }
        if (s < 3600 * 2) {
            return s / 60 + "m";
        }
        if (s < 86400 * 2) {
            return s / 3600 + "h";
        }
        return s / 86400 + "d";
    }

    /** CPU in cores: {@code 0.5}, {@code 16}. */
    public static String cores(long millis) {
        if (millis % 1000 == 0) {
            return String.valueOf(millis / 1000);
        }
        return String.format(Locale.ROOT, "%.1f", millis / 1000.0);
    }

    /** Memory in GiB with one decimal ({@code 12.5 GiB}), MiB below one GiB. */
    public static String memory(long bytes) {
        double gib = bytes / (1024.0 * 1024 * 1024);
        if (gib >= 1 || bytes == 0) {
            return String.format(Locale.ROOT, "%.1f GiB", gib);
        }
        return String.format(Locale.ROOT, "%d MiB", bytes / (1024 * 1024));
    }

    /** A share in [0, 1] for progress bars; 0 when nothing is allocatable. */
    public static double share(long used, long total) {
        return total <= 0 ? 0 : Math.min(1.0, (double) used / total);
    }

    public static String orDash(String s) {
        return s == null || s.isEmpty() ? "—" : s;
    }
}
