package dev.drainboard.cluster.apiserver.table;

import java.time.Duration;

/**
 * Kubernetes' human duration format (apimachinery {@code duration.HumanDuration}): about two or
 * three significant figures, e.g. 45s, 2m3s, 10m, 3h4m, 20h, 5d6h, 300d, 2y30d, 9y.
 */
final class HumanDuration {
    private HumanDuration() {
    }

    static String format(Duration duration) {
        long seconds = truncatedSeconds(duration);
        // Up to one second in the future is tolerated as clock skew.
        if (seconds < -1) {
            return "<invalid>";
        }
        if (seconds < 0) {
            return "0s";
        }
        if (seconds < 120) {
            return seconds + "s";
        }
        long minutes = seconds / 60;
        if (minutes < 10) {
            return withRemainder(minutes, "m", seconds % 60, "s");
        }
        if (minutes < 180) {
            return minutes + "m";
        }
        long hours = minutes / 60;
        if (hours < 8) {
            return withRemainder(hours, "h", minutes % 60, "m");
        }
        if (hours < 48) {
            return hours + "h";
        }
        long days = hours / 24;
        if (hours < 24 * 8) {
            return withRemainder(days, "d", hours % 24, "h");
        }
        if (hours < 24 * 365 * 2) {
            return days + "d";
        }
        long years = days / 365;
        if (hours < 24 * 365 * 8) {
            return withRemainder(years, "y", days % 365, "d");
        }
        return years + "y";
    }

    /** Whole seconds rounded toward zero, as Go's int(d.Seconds()) does. */
    private static long truncatedSeconds(Duration duration) {
        long seconds = duration.getSeconds();
        return seconds < 0 && duration.getNano() > 0 ? seconds + 1 : seconds;
    }

    private static String withRemainder(long major, String majorUnit, long minor, String minorUnit) {
        return minor == 0 ? major + majorUnit : major + majorUnit + minor + minorUnit;
    }
}
