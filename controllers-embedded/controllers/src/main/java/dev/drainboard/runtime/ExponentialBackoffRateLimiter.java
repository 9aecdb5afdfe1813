package dev.drainboard.runtime;

import java.time.Duration;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Per-key exponential back-off: base, 2×base, 4×base … capped at max. A key that keeps failing
 * backs off on its own without slowing down healthy keys.
 */
public final class ExponentialBackoffRateLimiter<K> implements RateLimiter<K> {

    private final long baseNanos;
    private final long maxNanos;
    private final ConcurrentHashMap<K, Integer> failures = new ConcurrentHashMap<>();

    public ExponentialBackoffRateLimiter(Duration base, Duration max) {
        if (base.isNegative() || base.isZero() || max.compareTo(base) < 0) {
            throw new IllegalArgumentException("need 0 < base <= max, got " + base + " and " + max);
        }
        this.baseNanos = base.toNanos();
        this.maxNanos = max.toNanos();
    }

    @Override
    public Duration when(K key) {
        int previous = failures.merge(key, 1, Integer::sum) - 1;
        return Duration.ofNanos(delayAfter(previous));
    }

    /** base × 2^failures, computed without overflowing (the exponent alone can exceed 63). */
    private long delayAfter(int previousFailures) {
        if (previousFailures >= 62) {
            return maxNanos;
        }
        long factor = 1L << previousFailures;
        if (baseNanos > maxNanos / factor) {
            return maxNanos;
        }
        return Math.min(maxNanos, baseNanos * factor);
    }

    @Override
    public void forget(K key) {
        failures.remove(key);
    }

    @Override
    public int numRequeues(K key) {
        return failures.getOrDefault(key, 0);
    }
}
