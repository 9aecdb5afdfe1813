package dev.drainboard.runtime;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * Reconcile latencies counted in fixed buckets: cheap to record from many workers, and enough for
 * the UI to show whether a controller is slow now and then or slow always.
 */
public final class LatencyHistogram {

    /** Upper bounds (inclusive) of the buckets; one more bucket counts everything slower. */
    public static final List<Duration> BOUNDS = List.of(
            Duration.ofMillis(1), Duration.ofMillis(5), Duration.ofMillis(10), Duration.ofMillis(50),
            Duration.ofMillis(100), Duration.ofMillis(500), Duration.ofSeconds(1), Duration.ofSeconds(5));

    private static final long[] BOUND_NANOS = BOUNDS.stream().mapToLong(Duration::toNanos).toArray();

    private final AtomicLongArray counts = new AtomicLongArray(BOUND_NANOS.length + 1);

    void record(long nanos) {
        int bucket = 0;
        while (bucket < BOUND_NANOS.length && nanos > BOUND_NANOS[bucket]) {
            bucket++;
        }
        counts.incrementAndGet(bucket);
    }

    Snapshot snapshot() {
        List<Long> copy = new ArrayList<>(counts.length());
        for (int i = 0; i < counts.length(); i++) {
            copy.add(counts.get(i));
        }
        return new Snapshot(BOUNDS, List.copyOf(copy));
    }

    /**
     * @param bounds inclusive upper bounds
     * @param counts one count per bound, plus a last one for slower passes
     */
    public record Snapshot(List<Duration> bounds, List<Long> counts) {
    }
}
