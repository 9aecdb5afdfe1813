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

    /** Data sizes as a migration reports them: {@code 812 KiB}, {@code 312 MiB}, {@code 1.4 GiB}. */
    public static String bytes(long bytes) {
        double b = Math.max(0, bytes);
        if (b >= 1024.0 * 1024 * 1024) {
            return String.format(Locale.ROOT, "%.1f GiB", b / (1024.0 * 1024 * 1024));
        }
        if (b >= 1024.0 * 1024) {
            return String.format(Locale.ROOT, "%d MiB", Math.round(b / (1024.0 * 1024)));
        }
        if (b >= 1024) {
            return String.format(Locale.ROOT, "%d KiB", Math.round(b / 1024.0));
        }
        return (long) b + " B";
    }

    /** A transfer rate: {@code 48 MiB/s}. */
    public static String rate(long bytesPerSecond) {
        return bytes(bytesPerSecond) + "/s";
    }

    /** A running time as a clock reads it: {@code 42s}, {@code 3m 05s}, {@code 1h 02m}. */
    public static String duration(Duration d) {
        long s = Math.max(0, d.toSeconds());
        if (s < 60) {
            return s + "s";
        }
        if (s < 3600) {
            return String.format(Locale.ROOT, "%dm %02ds", s / 60, s % 60);
        }
        return String.format(Locale.ROOT, "%dh %02dm", s / 3600, (s % 3600) / 60);
    }

    public static String orDash(String s) {
        return s == null || s.isEmpty() ? "—" : s;
    }

    /** A count with its noun, given in the plural: "1 VMI", "3 VMIs", "1 replica set", "0 drain records". */
    public static String count(long n, String pluralNoun) {
        String noun = n == 1 && pluralNoun.endsWith("s") ? pluralNoun.substring(0, pluralNoun.length() - 1) : pluralNoun;
        return n + " " + noun;
    }
}
