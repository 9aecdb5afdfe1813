package dev.drainboard.runtime;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What a controller is still waiting to see in its informer caches after it created or deleted
 * objects for a key.
 *
 * <p>Why: a controller's caches lag behind its own writes. Without expectations, a reconcile that
 * runs right after creating two pods still sees none in the cache and creates two more. So before
 * writing, the controller records "expect N creations" for the key; the informer's add handler
 * calls {@link #creationObserved}; reconcile acts only when {@link #satisfied} says the cache has
 * caught up. A create that failed will never be observed, so the controller lowers its own
 * expectation ({@link #lowerExpectations}). An expectation older than {@link #DEFAULT_TTL} counts as
 * satisfied, so one lost watch event cannot wedge a key forever.
 *
 * <p>Thread-safe: informer threads observe while workers set and check.
 */
public final class Expectations<K> {

    public static final Duration DEFAULT_TTL = Duration.ofMinutes(5);

    /** Creations and deletions still to be observed, and when they were last set. */
    public record Pending(long creations, long deletions, long setAtNanos) {
        public boolean fulfilled() {
            return creations <= 0 && deletions <= 0;
        }
    }

    private final ConcurrentHashMap<K, Pending> pending = new ConcurrentHashMap<>();
    private final Ticker ticker;
    private final long ttlNanos;

    public Expectations(Ticker ticker, Duration ttl) {
        this.ticker = ticker;
        this.ttlNanos = ttl.toNanos();
    }

    public Expectations() {
        this(Ticker.system(), DEFAULT_TTL);
    }

    /** Replaces what is expected for the key with {@code count} creations. */
    public void expectCreations(K key, long count) {
        setExpectations(key, count, 0);
    }

    /** Replaces what is expected for the key with {@code count} deletions. */
    public void expectDeletions(K key, long count) {
        setExpectations(key, 0, count);
    }

    public void setExpectations(K key, long creations, long deletions) {
        pending.put(key, new Pending(creations, deletions, ticker.nanoTime()));
    }

    /** Adds to what is expected (a second batch while the first is in flight); restarts the TTL. */
    public void raiseExpectations(K key, long creations, long deletions) {
        pending.merge(key, new Pending(creations, deletions, ticker.nanoTime()),
                (old, add) -> new Pending(old.creations() + add.creations(), old.deletions() + add.deletions(), add.setAtNanos()));
    }

    /**
     * Takes away from what is expected: an object was observed, or a write failed and will never be
     * observed. Keeps the time the expectation was set, so lowering does not extend its life.
     */
    public void lowerExpectations(K key, long creations, long deletions) {
        pending.computeIfPresent(key,
                (k, old) -> new Pending(old.creations() - creations, old.deletions() - deletions, old.setAtNanos()));
    }

    /** An informer saw an object created for the key. */
    public void creationObserved(K key) {
        lowerExpectations(key, 1, 0);
    }

    /** An informer saw an object of the key deleted. */
    public void deletionObserved(K key) {
        lowerExpectations(key, 0, 1);
    }

    /**
     * True when the controller may act on the key: nothing is expected (never set, or deleted),
     * everything expected was observed, or the expectation is older than the TTL.
     */
    public boolean satisfied(K key) {
        Pending p = pending.get(key);
        return p == null || p.fulfilled() || expired(p);
    }

    private boolean expired(Pending p) {
        return ticker.nanoTime() - p.setAtNanos() > ttlNanos;
    }

    /** Forgets the key (its object was deleted). */
    public void delete(K key) {
        pending.remove(key);
    }

    /** What is still expected for the key, for logs and figures. */
    public Optional<Pending> pending(K key) {
        return Optional.ofNullable(pending.get(key));
    }
}
