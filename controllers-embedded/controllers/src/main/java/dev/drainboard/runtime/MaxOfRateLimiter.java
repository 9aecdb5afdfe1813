package dev.drainboard.runtime;

import java.time.Duration;
import java.util.List;

/** Asks every limiter and waits for the longest answer, so each limit holds. */
public final class MaxOfRateLimiter<K> implements RateLimiter<K> {

    private final List<RateLimiter<K>> limiters;

    @SafeVarargs
    public MaxOfRateLimiter(RateLimiter<K>... limiters) {
        this.limiters = List.of(limiters);
    }

    @Override
    public Duration when(K key) {
        Duration longest = Duration.ZERO;
        for (RateLimiter<K> limiter : limiters) {
            Duration d = limiter.when(key);
            if (d.compareTo(longest) > 0) {
                longest = d;
            }
        }
        return longest;
    }

    @Override
    public void forget(K key) {
        limiters.forEach(l -> l.forget(key));
    }

    @Override
    public int numRequeues(K key) {
        int most = 0;
        for (RateLimiter<K> limiter : limiters) {
            most = Math.max(most, limiter.numRequeues(key));
        }
        return most;
    }
}
