package dev.drainboard.units;

import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Go's duration syntax, the text form of Kubernetes durations: read as users write them ("1h2m3s", "500ms", "1.5s")
 * and written as Go's time.Duration.String writes them, which is the JSON form of metav1.Duration
 * (https://pkg.go.dev/time#Duration.String).
 */
public final class GoDurations {

    private static final Pattern PART = Pattern.compile("(\\d+(?:\\.\\d+)?)(ns|us|µs|ms|s|m|h)");
    private static final long MICROSECOND = 1_000L;
    private static final long MILLISECOND = 1_000_000L;
    private static final long SECOND = 1_000_000_000L;

    private GoDurations() {
    }

    public static Duration parse(String text) {
        String s = text.trim();
        if (s.equals("0")) {
            return Duration.ZERO;
        }
        Matcher m = PART.matcher(s);
        int at = 0;
        double nanos = 0;
        while (m.find()) {
            if (m.start() != at) {
                throw new IllegalArgumentException("invalid duration \"" + text + "\"");
            }
            double value = Double.parseDouble(m.group(1));
            nanos += value * switch (m.group(2)) {
                case "ns" -> 1;
                case "us", "µs" -> 1_000;
                case "ms" -> 1_000_000;
                case "s" -> 1_000_000_000L;
                case "m" -> 60_000_000_000L;
                default -> 3_600_000_000_000L;
            };
            at = m.end();
        }
        if (at != s.length() || at == 0) {
            throw new IllegalArgumentException("invalid duration \"" + text + "\"");
        }
        return Duration.ofNanos((long) nanos);
    }

    /** For example "1h15m30.5s", "1m0s", "1.5ms", "250µs", "10ns" or "0s". */
    public static String format(long nanoseconds) {
        if (nanoseconds == 0) {
            return "0s";
        }
        String sign = nanoseconds < 0 ? "-" : "";
        // Read as unsigned, the negation of Long.MIN_VALUE is its true magnitude, 2^63.
        long magnitude = nanoseconds < 0 ? -nanoseconds : nanoseconds;
        if (Long.compareUnsigned(magnitude, SECOND) < 0) {
            if (magnitude < MICROSECOND) {
                return sign + magnitude + "ns";
            }
            if (magnitude < MILLISECOND) {
                return sign + decimal(magnitude, MICROSECOND) + "µs";
            }
            return sign + decimal(magnitude, MILLISECOND) + "ms";
        }
        long totalSeconds = Long.divideUnsigned(magnitude, SECOND);
        long hours = totalSeconds / 3600;
        long minutes = totalSeconds / 60 % 60;
        StringBuilder text = new StringBuilder(sign);
        if (hours > 0) {
            text.append(hours).append('h');
        }
        if (hours > 0 || minutes > 0) {
            text.append(minutes).append('m');
        }
        return text.append(totalSeconds % 60)
                .append(fraction(Long.remainderUnsigned(magnitude, SECOND), SECOND))
                .append('s')
                .toString();
    }

    /** value / unit with the remainder as decimal places. */
    private static String decimal(long value, long unit) {
        return (value / unit) + fraction(value % unit, unit);
    }

    /** ".5" for 500 of 1000: the remainder's decimal places without trailing zeros, or "" when there are none. */
    private static String fraction(long remainder, long unit) {
        if (remainder == 0) {
            return "";
        }
        int places = String.valueOf(unit).length() - 1;
        String digits = String.format("%0" + places + "d", remainder);
        return "." + digits.replaceFirst("0+$", "");
    }
}
