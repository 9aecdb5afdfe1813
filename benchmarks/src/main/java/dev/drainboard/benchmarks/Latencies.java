package dev.drainboard.benchmarks;

import java.util.Arrays;

/** Recorded durations in nanoseconds, and their percentiles in milliseconds. */
final class Latencies {

    private long[] nanos;
    private int size;

    Latencies(int expected) {
        nanos = new long[Math.max(expected, 16)];
    }

    synchronized void add(long durationNanos) {
        if (size == nanos.length) {
            nanos = Arrays.copyOf(nanos, size * 2);
        }
        nanos[size++] = durationNanos;
    }

    synchronized void addAll(Latencies other) {
        for (int i = 0; i < other.size; i++) {
            add(other.nanos[i]);
        }
    }

    synchronized int count() {
        return size;
    }

    /** The value below which {@code p} percent of the samples lie (nearest rank), in milliseconds. */
    synchronized double percentileMillis(double p) {
        if (size == 0) {
            return Double.NaN;
        }
        long[] sorted = Arrays.copyOf(nanos, size);
        Arrays.sort(sorted);
        int rank = (int) Math.ceil(p / 100.0 * size);
        return sorted[Math.clamp(rank - 1, 0, size - 1)] / 1e6;
    }
}
