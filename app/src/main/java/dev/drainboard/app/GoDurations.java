package dev.drainboard.app;

import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** kubectl's duration syntax ({@code 90s}, {@code 5m}, {@code 1h30m}, {@code 0} for none) as a picocli converter. */
final class GoDurations implements ITypeConverter<Duration> {

    private static final Pattern PART = Pattern.compile("(\\d+(?:\\.\\d+)?)(ns|us|µs|ms|s|m|h)");

    @Override
    public Duration convert(String value) {
        return parse(value);
    }

    static Duration parse(String value) {
        String text = value.strip();
        if (text.equals("0")) {
            return Duration.ZERO;
        }
        Matcher m = PART.matcher(text);
        int at = 0;
        double nanos = 0;
        while (m.find() && m.start() == at) {
            double amount = Double.parseDouble(m.group(1));
            nanos += amount * switch (m.group(2)) {
                case "ns" -> 1d;
                case "us", "µs" -> 1e3;
                case "ms" -> 1e6;
                case "s" -> 1e9;
                case "m" -> 60e9;
                default -> 3600e9;
            };
            at = m.end();
        }
        if (at == 0 || at != text.length()) {
            throw new TypeConversionException("invalid duration \"" + value + "\" (examples: 90s, 5m, 1h30m, 0 for no limit)");
        }
        return Duration.ofNanos((long) nanos);
    }

    /** {@code 1m30s}, {@code 5s}, {@code 250ms}. */
    static String format(Duration d) {
        if (d.isZero()) {
            return "0s";
        }
        if (d.toMillis() < 1000) {
            return d.toMillis() + "ms";
        }
        long s = d.toSeconds();
        StringBuilder text = new StringBuilder();
        if (s >= 3600) {
            text.append(s / 3600).append('h');
        }
        if (s % 3600 >= 60) {
            text.append(s % 3600 / 60).append('m');
        }
        if (s % 60 != 0 || text.isEmpty()) {
            text.append(s % 60).append('s');
        }
        return text.toString();
    }
}
