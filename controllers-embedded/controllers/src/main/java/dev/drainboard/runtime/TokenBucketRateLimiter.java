package dev.drainboard.runtime;

import java.time.Duration;

/**
 * An overall limit on retries across all keys: a bucket of {@code burst} tokens refilled at
 * {@code qps}. Each retry reserves a token; when the bucket is empty the reservation is made
 * in the future and the caller waits until then. This keeps a storm of failing keys from
 * hammering the API server, whatever each key's own back-off says.
 */
public final class TokenBucketRateLimiter<K> implements RateLimiter<K> {

    private final double qps;
    private final double burst;
    private final Ticker ticker;
    private double tokens;
    private long lastNanos;

    public TokenBucketRateLimiter(double qps, int burst, Ticker ticker) {
        if (qps <= 0 || burst <= 0) {
            throw new IllegalArgumentException("qps and burst must be positive");
        }
        this.qps = qps;
        this.burst = burst;
        this.ticker = ticker;
        this.tokens = burst;
        this.lastNanos = ticker.nanoTime();
    }

    @Override
    public synchronized Duration when(K key) {
        long now = ticker.nanoTime();
        tokens = Math.min(burst, tokens + (now - lastNanos) / 1e9 * qps);
        lastNanos = now;
        tokens -= 1;
        // A negative balance is the queue of reservations ahead of this one.
        return tokens >= 0 ? Duration.ZERO : Duration.ofNanos((long) Math.ceil(-tokens / qps * 1e9));
    }

    /** The bucket is shared by all keys; one key's success gives nothing back. */
    @Override
    public void forget(K key) {
    }

    @Override
    public int numRequeues(K key) {
        return 0;
    }
}
