package dev.drainboard.runtime;

import java.time.Duration;

/**
 * Decides how long a key waits before it is retried. Implementations are thread-safe.
 */
public interface RateLimiter<K> {

    /** The delay for the next retry of this key; counts the retry. */
    Duration when(K key);

    /** The key succeeded: its back-off starts again from the beginning. */
    void forget(K key);

    /** How many retries were counted for this key since it was last forgotten. */
    int numRequeues(K key);
}
