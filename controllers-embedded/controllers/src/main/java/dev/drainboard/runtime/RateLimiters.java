package dev.drainboard.runtime;

import java.time.Duration;

/** The rate limiters controllers use unless they have a reason to differ. */
public final class RateLimiters {

    public static final Duration BACKOFF_BASE = Duration.ofMillis(5);
    public static final Duration BACKOFF_MAX = Duration.ofSeconds(1000);
    public static final double OVERALL_QPS = 10;
    public static final int OVERALL_BURST = 100;

    private RateLimiters() {
    }

    /**
     * Per-key back-off 5 ms doubling to 1000 s, combined with an overall bucket of 10 qps and
     * burst 100, taking the longer delay: the same shape as the default controller limiter of
     * Kubernetes controllers, which KubeVirt's controllers use.
     */
    public static <K> RateLimiter<K> controllerDefault(Ticker ticker) {
        return new MaxOfRateLimiter<>(
                new ExponentialBackoffRateLimiter<>(BACKOFF_BASE, BACKOFF_MAX),
                new TokenBucketRateLimiter<>(OVERALL_QPS, OVERALL_BURST, ticker));
    }
}
