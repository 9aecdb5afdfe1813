package dev.drainboard.units;

import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Parses Go duration strings ("1h2m3s", "500ms", "1.5s") as Kubernetes users write them. */
public final class GoDurations {

    private static final Pattern PART = Pattern.compile("(\\d+(?:\\.\\d+)?)(ns|us|µs|ms|s|m|h)");

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
}
