package dev.drainboard.units;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Kubernetes resource quantities ({@code 100m}, {@code 1Gi}, {@code 512Mi}, {@code 2}, {@code 1e3}, {@code 1.5k}):
 * a signed decimal number followed by a binary suffix, a decimal suffix or a decimal exponent.
 */
public final class Quantities {

    private static final Pattern SYNTAX = Pattern.compile("([+-]?(?:\\d+\\.?\\d*|\\.\\d+))(.*)");
    private static final Pattern EXPONENT = Pattern.compile("[eE]([+-]?\\d+)");
    private static final Map<String, BigDecimal> SUFFIXES = Map.ofEntries(
            Map.entry("", BigDecimal.ONE),
            Map.entry("n", new BigDecimal("1e-9")),
            Map.entry("u", new BigDecimal("1e-6")),
            Map.entry("m", new BigDecimal("1e-3")),
            Map.entry("k", new BigDecimal("1e3")),
            Map.entry("M", new BigDecimal("1e6")),
            Map.entry("G", new BigDecimal("1e9")),
            Map.entry("T", new BigDecimal("1e12")),
            Map.entry("P", new BigDecimal("1e15")),
            Map.entry("E", new BigDecimal("1e18")),
            Map.entry("Ki", BigDecimal.valueOf(1L << 10)),
            Map.entry("Mi", BigDecimal.valueOf(1L << 20)),
            Map.entry("Gi", BigDecimal.valueOf(1L << 30)),
            Map.entry("Ti", BigDecimal.valueOf(1L << 40)),
            Map.entry("Pi", BigDecimal.valueOf(1L << 50)),
            Map.entry("Ei", BigDecimal.valueOf(1L << 60)));

    private Quantities() {
    }

    /** The exact value; throws {@link IllegalArgumentException} for text that is not a quantity. */
    public static BigDecimal parse(String text) {
        if (text == null || text.isBlank()) {
            throw new IllegalArgumentException("quantity is empty");
        }
        Matcher m = SYNTAX.matcher(text.trim());
        if (!m.matches()) {
            throw new IllegalArgumentException("not a quantity: " + text);
        }
        BigDecimal number = new BigDecimal(m.group(1).endsWith(".") ? m.group(1) + "0" : m.group(1));
        String suffix = m.group(2);
        BigDecimal multiplier = SUFFIXES.get(suffix);
        if (multiplier == null) {
            Matcher e = EXPONENT.matcher(suffix);
            if (!e.matches()) {
                throw new IllegalArgumentException("not a quantity: " + text);
            }
            multiplier = BigDecimal.ONE.scaleByPowerOfTen(Integer.parseInt(e.group(1)));
        }
        return number.multiply(multiplier);
    }

    /** Thousandths, rounded up as Kubernetes' MilliValue does ({@code 0.5m} is 1m): CPU. */
    public static long milli(String text) {
        return parse(text).movePointRight(3).setScale(0, RoundingMode.CEILING).longValueExact();
    }

    /** Whole units rounded up: memory bytes, pod counts. */
    public static long whole(String text) {
        return parse(text).setScale(0, RoundingMode.CEILING).longValueExact();
    }
}
