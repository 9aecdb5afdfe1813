package dev.drainboard.runtime;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Optional;
import java.util.PriorityQueue;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The queue of keys a controller still has to reconcile.
 *
 * <ul>
 *   <li><b>De-duplicating:</b> a key added again while it waits is handed out once. Controllers
 *       reconcile the whole current state of a key, so one pass covers every event.</li>
 *   <li><b>One worker per key:</b> a key that is being processed is not handed to another worker.
 *       If it is added meanwhile it is marked dirty and queued again when {@link #done} is called,
 *       so the change is not lost and is seen by a pass that starts after it.</li>
 *   <li><b>Delays and back-off:</b> {@link #addAfter} holds a key until its time (keeping the
 *       earliest time if added twice); {@link #addRateLimited} asks the rate limiter for the delay.</li>
 * </ul>
 *
 * Every worker must call {@link #done} for each key it took, whatever the outcome. Thread-safe.
 */
public final class WorkQueue<K> {

    /** Upper bound on a blocked {@link #take}'s wait, so a changed clock is noticed eventually. */
    private static final long MAX_WAIT_NANOS = TimeUnit.SECONDS.toNanos(1);

    private record Waiting<K>(K key, long readyAtNanos, long sequence) {
    }

    private final ReentrantLock lock = new ReentrantLock();
    private final Condition changed = lock.newCondition();
    private final ArrayDeque<K> ready = new ArrayDeque<>();
    /** Keys that need a pass: those in {@code ready} plus those re-added while processing. */
    private final Set<K> dirty = new HashSet<>();
    private final Set<K> processing = new HashSet<>();
    private final PriorityQueue<Waiting<K>> waiting = new PriorityQueue<>(
            Comparator.<Waiting<K>>comparingLong(Waiting::readyAtNanos).thenComparingLong(Waiting::sequence));
    private final Map<K, Waiting<K>> waitingByKey = new HashMap<>();
    private final RateLimiter<K> rateLimiter;
    private final Ticker ticker;
    private long sequence;
    private boolean shuttingDown;

    public WorkQueue(RateLimiter<K> rateLimiter, Ticker ticker) {
        this.rateLimiter = rateLimiter;
        this.ticker = ticker;
    }

    /** A queue with the default controller rate limiter on the system clock. */
    public static <K> WorkQueue<K> withDefaults() {
        return new WorkQueue<>(RateLimiters.controllerDefault(Ticker.system()), Ticker.system());
    }

    public void add(K key) {
        lock.lock();
        try {
            if (!shuttingDown) {
                addLocked(key);
            }
        } finally {
            lock.unlock();
        }
    }

    private void addLocked(K key) {
        if (!dirty.add(key)) {
            return; // already waiting for a pass
        }
        if (processing.contains(key)) {
            return; // queued again by done()
        }
        ready.addLast(key);
        changed.signal();
    }

    /** Adds the key once {@code delay} has passed. Zero or negative delays add at once. */
    public void addAfter(K key, Duration delay) {
        if (delay.isZero() || delay.isNegative()) {
            add(key);
            return;
        }
        lock.lock();
        try {
            if (shuttingDown) {
                return;
            }
            long readyAt = ticker.nanoTime() + delay.toNanos();
            Waiting<K> existing = waitingByKey.get(key);
            if (existing != null) {
                if (existing.readyAtNanos() <= readyAt) {
                    return; // an earlier pass is already planned
                }
                waiting.remove(existing);
            }
            Waiting<K> entry = new Waiting<>(key, readyAt, sequence++);
            waiting.add(entry);
            waitingByKey.put(key, entry);
            // A blocked take() may now have an earlier deadline to wake up for.
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /** Adds the key after the rate limiter's delay: per-key back-off and the overall limit. */
    public void addRateLimited(K key) {
        addAfter(key, rateLimiter.when(key));
    }

    /** The key succeeded: its back-off starts from the beginning next time. */
    public void forget(K key) {
        rateLimiter.forget(key);
    }

    public int numRequeues(K key) {
        return rateLimiter.numRequeues(key);
    }

    /**
     * Waits for a key and marks it as processing. Returns empty once the queue is shut down:
     * keys still queued then are dropped, since a stopping controller must not start new work.
     */
    public Optional<K> take() throws InterruptedException {
        lock.lockInterruptibly();
        try {
            while (true) {
                if (shuttingDown) {
                    return Optional.empty();
                }
                long now = ticker.nanoTime();
                promoteDueLocked(now);
                if (!ready.isEmpty()) {
                    return Optional.of(handOutLocked());
                }
                long wait = waiting.isEmpty() ? MAX_WAIT_NANOS
                        : Math.min(MAX_WAIT_NANOS, waiting.peek().readyAtNanos() - now);
                changed.awaitNanos(Math.max(1, wait));
            }
        } finally {
            lock.unlock();
        }
    }

    /** Like {@link #take} but never waits: empty when no key is ready now or the queue is shut down. */
    public Optional<K> poll() {
        lock.lock();
        try {
            if (shuttingDown) {
                return Optional.empty();
            }
            promoteDueLocked(ticker.nanoTime());
            return ready.isEmpty() ? Optional.empty() : Optional.of(handOutLocked());
        } finally {
            lock.unlock();
        }
    }

    private K handOutLocked() {
        K key = ready.pollFirst();
        dirty.remove(key);
        processing.add(key);
        return key;
    }

    private void promoteDueLocked(long now) {
        while (!waiting.isEmpty() && waiting.peek().readyAtNanos() <= now) {
            Waiting<K> due = waiting.poll();
            waitingByKey.remove(due.key());
            addLocked(due.key());
        }
    }

    /** The worker has finished with the key; if it was added meanwhile it is queued again. */
    public void done(K key) {
        lock.lock();
        try {
            processing.remove(key);
            if (dirty.contains(key) && !shuttingDown) {
                ready.addLast(key);
                changed.signal();
            }
        } finally {
            lock.unlock();
        }
    }

    /** Stops handing out keys and ignores new ones; blocked workers return at once. */
    public void shutDown() {
        lock.lock();
        try {
            shuttingDown = true;
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    public boolean isShuttingDown() {
        lock.lock();
        try {
            return shuttingDown;
        } finally {
            lock.unlock();
        }
    }

    /** Keys ready to be handed out now (the queue depth). */
    public int len() {
        lock.lock();
        try {
            return ready.size();
        } finally {
            lock.unlock();
        }
    }

    /** Keys held back by a delay or back-off. */
    public int delayed() {
        lock.lock();
        try {
            return waiting.size();
        } finally {
            lock.unlock();
        }
    }

    /** Keys a worker holds right now. */
    public int processing() {
        lock.lock();
        try {
            return processing.size();
        } finally {
            lock.unlock();
        }
    }
}
