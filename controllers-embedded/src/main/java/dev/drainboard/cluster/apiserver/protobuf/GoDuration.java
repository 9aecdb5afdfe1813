package dev.drainboard.cluster.apiserver.protobuf;

/** Writes a duration the way Go's time.Duration.String does, which is the JSON form of metav1.Duration. */
final class GoDuration {

    private static final long MICROSECOND = 1_000L;
    private static final long MILLISECOND = 1_000_000L;
    private static final long SECOND = 1_000_000_000L;

    private GoDuration() {
    }

    /** For example "1h15m30.5s", "1m0s", "1.5ms", "250µs", "10ns" or "0s". */
    static String format(long nanoseconds) {
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
