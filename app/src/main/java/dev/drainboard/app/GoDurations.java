package dev.drainboard.app;

import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

import java.time.Duration;

/** kubectl's duration syntax ({@code 90s}, {@code 5m}, {@code 1h30m}, {@code 0} for none) as a picocli converter. */
final class GoDurations implements ITypeConverter<Duration> {

    @Override
    public Duration convert(String value) {
        return parse(value);
    }

    static Duration parse(String value) {
        try {
            return dev.drainboard.units.GoDurations.parse(value.strip());
        } catch (IllegalArgumentException e) {
            throw new TypeConversionException("invalid duration \"" + value + "\" (examples: 90s, 5m, 1h30m, 0 for no limit)");
        }
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
