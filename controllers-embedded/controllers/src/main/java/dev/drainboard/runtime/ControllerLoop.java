package dev.drainboard.runtime;

import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.BiPredicate;
import java.util.function.Function;

/**
 * The loop every Drainboard controller runs on: informer events become keys in a
 * {@link WorkQueue}; N workers take keys and call the {@link Reconciler}; failures are retried
 * with back-off; figures are kept for the UI.
 *
 * <p>Workers start only after every informer has synced, because a reconcile against a half-filled
 * cache would conclude that objects are missing and create them again. On each start every object
 * already in the watched caches is queued once, so a controller that becomes leader looks at
 * everything, not only at what changes next.
 *
 * <p>A loop can be started and stopped repeatedly (leadership comes and goes). It never starts or
 * stops informers: they belong to whoever shares them. Thread-safe.
 */
public final class ControllerLoop<K> implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(ControllerLoop.class);
    private static final long SYNC_POLL_MILLIS = 20;
    private static final Duration STOP_GRACE = Duration.ofSeconds(30);

    private record Watch<T, K>(SharedIndexInformer<T> informer,
                               Function<? super T, ? extends Collection<? extends K>> keysOf,
                               ResourceEventHandler<T> handler) {
    }

    private final String name;
    private final int workerCount;
    private final Reconciler<K> reconciler;
    private final RateLimiter<K> rateLimiter;
    private final Ticker ticker;
    private final List<Watch<?, K>> watches = new ArrayList<>();
    private final List<SharedIndexInformer<?>> syncedBeforeStart;

    // Figures: written by workers without locking, read by figures().
    private final LongAdder reconciles = new LongAdder();
    private final LongAdder errors = new LongAdder();
    private final LongAdder requeues = new LongAdder();
    private final AtomicLong totalLatencyNanos = new AtomicLong();
    private final AtomicLong lastLatencyNanos = new AtomicLong();
    private final LatencyHistogram histogram = new LatencyHistogram();
    private volatile String lastError;
    private volatile Instant lastReconcileAt;

    // Lifecycle, guarded by this.
    private volatile WorkQueue<K> queue;
    private volatile ControllerFigures.State state = ControllerFigures.State.STOPPED;
    private long generation;
    private Thread syncWaiter;
    private List<Thread> workers = List.of();
    private boolean closed;

    private ControllerLoop(Builder<K> b) {
        this.name = b.name;
        this.workerCount = b.workers;
        this.reconciler = b.reconciler;
        this.ticker = b.ticker;
        this.rateLimiter = b.rateLimiter != null ? b.rateLimiter : RateLimiters.controllerDefault(b.ticker);
        List<SharedIndexInformer<?>> sync = new ArrayList<>(b.waitFor);
        for (PendingWatch<?, K> w : b.watches) {
            watches.add(register(w));
            if (!b.unsynced.contains(w)) {
                sync.add(w.informer());
            }
        }
        this.syncedBeforeStart = List.copyOf(sync);
    }

    public static <K> Builder<K> builder(String name, Reconciler<K> reconciler) {
        return new Builder<>(name, reconciler);
    }

    private <T> Watch<T, K> register(PendingWatch<T, K> w) {
        ResourceEventHandler<T> handler = new ResourceEventHandler<>() {
            @Override
            public void onAdd(T obj) {
                enqueueKeysOf(w.keysOf(), obj);
            }

            @Override
            public void onUpdate(T oldObj, T newObj) {
                if (!relevant(w.relevantUpdate(), oldObj, newObj)) {
                    return;
                }
                // Both: an object that moved from one key to another (new owner, new node) concerns both.
                enqueueKeysOf(w.keysOf(), oldObj);
                enqueueKeysOf(w.keysOf(), newObj);
            }

            @Override
            public void onDelete(T obj, boolean deletedFinalStateUnknown) {
                enqueueKeysOf(w.keysOf(), obj);
            }
        };
        w.informer().addEventHandler(handler);
        return new Watch<>(w.informer(), w.keysOf(), handler);
    }

    /** A failing filter lets the update through: a wasted pass is better than a missed one. */
    private <T> boolean relevant(BiPredicate<? super T, ? super T> filter, T oldObj, T newObj) {
        if (filter == null || oldObj == null || newObj == null) {
            return true;
        }
        try {
            return filter.test(oldObj, newObj);
        } catch (RuntimeException e) {
            log.error("{}: filtering an update failed", name, e);
            return true;
        }
    }

    private <T> void enqueueKeysOf(Function<? super T, ? extends Collection<? extends K>> keysOf, T obj) {
        try {
            Collection<? extends K> keys = keysOf.apply(obj);
            if (keys != null) {
                keys.forEach(this::enqueue);
            }
        } catch (RuntimeException e) {
            // A mapping bug must not kill the informer's dispatch thread.
            log.error("{}: mapping an event to keys failed", name, e);
        }
    }

    public String name() {
        return name;
    }

    /** Queues a key now. Ignored while the loop is stopped: a start queues every cached object anyway. */
    public void enqueue(K key) {
        WorkQueue<K> q = queue;
        if (q != null && key != null) {
            q.add(key);
        }
    }

    /** Queues a key after a delay (e.g. a timeout to check). Ignored while stopped. */
    public void enqueueAfter(K key, Duration delay) {
        WorkQueue<K> q = queue;
        if (q != null && key != null) {
            q.addAfter(key, delay);
        }
    }

    /**
     * Starts the loop: queues events from now on, waits for the informers to sync, then starts the
     * workers. Returns at once. Does nothing if already started.
     */
    public synchronized void start() {
        if (closed || state != ControllerFigures.State.STOPPED) {
            return;
        }
        long gen = ++generation;
        queue = new WorkQueue<>(rateLimiter, ticker);
        state = ControllerFigures.State.WAITING_FOR_SYNC;
        syncWaiter = Thread.ofVirtual().name(name + "-sync").start(() -> awaitSyncThenRun(gen));
    }

    private void awaitSyncThenRun(long gen) {
        try {
            while (!syncedBeforeStart.stream().allMatch(SharedIndexInformer::hasSynced)) {
                TimeUnit.MILLISECONDS.sleep(SYNC_POLL_MILLIS);
            }
        } catch (InterruptedException e) {
            return; // stopped while waiting
        }
        startWorkers(gen);
    }

    private synchronized void startWorkers(long gen) {
        if (gen != generation || state != ControllerFigures.State.WAITING_FOR_SYNC) {
            return; // stopped (and maybe restarted) meanwhile
        }
        WorkQueue<K> q = queue;
        for (Watch<?, K> w : watches) {
            queueEverythingCached(w);
        }
        List<Thread> started = new ArrayList<>(workerCount);
        for (int i = 0; i < workerCount; i++) {
            started.add(Thread.ofPlatform().daemon().name(name + "-worker-" + i).start(() -> work(q)));
        }
        workers = started;
        state = ControllerFigures.State.RUNNING;
        log.info("{}: caches synced, {} workers running", name, workerCount);
    }

    private <T> void queueEverythingCached(Watch<T, K> w) {
        for (T obj : w.informer().getStore().list()) {
            enqueueKeysOf(w.keysOf(), obj);
        }
    }

    private void work(WorkQueue<K> q) {
        while (true) {
            K key;
            try {
                var next = q.take();
                if (next.isEmpty()) {
                    return;
                }
                key = next.get();
            } catch (InterruptedException e) {
                return;
            }
            try {
                process(q, key);
            } finally {
                q.done(key);
            }
        }
    }

    private void process(WorkQueue<K> q, K key) {
        long start = ticker.nanoTime();
        Result result;
        try {
            result = Objects.requireNonNullElse(reconciler.reconcile(key), Result.done());
        } catch (VirtualMachineError e) {
            throw e;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            result = Result.error(e);
        } catch (Throwable e) {
            result = Result.error(e);
        }
        recordPass(ticker.nanoTime() - start);
        switch (result) {
            case Result.Done d -> q.forget(key);
            case Result.Requeue r -> {
                requeues.increment();
                q.addRateLimited(key);
            }
            case Result.RequeueAfter r -> {
                requeues.increment();
                q.forget(key);
                q.addAfter(key, r.delay());
            }
            case Result.Failed f when isWriteConflict(f.cause()) -> {
                // Someone wrote the object first: normal optimistic concurrency, decided again on a fresher cache.
                requeues.increment();
                log.debug("{}: {} was written meanwhile, retrying: {}", name, key, describe(f.cause()));
                q.addRateLimited(key);
            }
            case Result.Failed f when isGone(f.cause()) -> {
                // The object went while we wrote it (a migration cancelled by deleting it, a VMI deleted): expected,
                // and the next pass reads the cache that has seen the deletion. Not a failure worth a Warning.
                requeues.increment();
                log.debug("{}: {} is gone, retrying from the cache: {}", name, key, describe(f.cause()));
                q.addRateLimited(key);
            }
            case Result.Failed f -> {
                errors.increment();
                lastError = key + ": " + describe(f.cause());
                log.warn("{}: reconcile of {} failed (retry {}): {}", name, key, q.numRequeues(key) + 1, describe(f.cause()),
                        log.isDebugEnabled() ? f.cause() : null);
                q.addRateLimited(key);
            }
        }
    }

    /**
     * A stale write: 409 for an update or patch with an old resourceVersion, 422 for a JSON patch whose
     * {@code test} of the resourceVersion failed (how the controllers guard their status patches).
     */
    static boolean isWriteConflict(Throwable t) {
        if (!(t instanceof io.fabric8.kubernetes.client.KubernetesClientException e)) {
            return false;
        }
        if (e.getCode() == 409) {
            return e.getStatus() != null && "Conflict".equals(e.getStatus().getReason());
        }
        return e.getCode() == 422 && e.getStatus() != null && e.getStatus().getDetails() == null
                && String.valueOf(e.getStatus().getMessage()).startsWith("the server rejected our request due to an error in our request");
    }

    /** A write answered 404 NotFound: the object was deleted meanwhile. */
    static boolean isGone(Throwable t) {
        return t instanceof io.fabric8.kubernetes.client.KubernetesClientException e && e.getCode() == 404
                && e.getStatus() != null && "NotFound".equals(e.getStatus().getReason());
    }

    /**
     * One line: for an API error its code, reason and the API server's message, not fabric8's message, which ends
     * in a dump of the whole Status object.
     */
    static String describe(Throwable t) {
        if (t instanceof io.fabric8.kubernetes.client.KubernetesClientException e && e.getStatus() != null
                && e.getStatus().getMessage() != null) {
            return "HTTP " + e.getCode() + (e.getStatus().getReason() == null ? "" : " " + e.getStatus().getReason())
                    + ": " + e.getStatus().getMessage();
        }
        return t.getMessage() == null ? t.getClass().getSimpleName() : t.getMessage();
    }

    private void recordPass(long nanos) {
        reconciles.increment();
        totalLatencyNanos.addAndGet(nanos);
        lastLatencyNanos.set(nanos);
        histogram.record(nanos);
        lastReconcileAt = Instant.now();
    }

    /**
     * Stops taking keys and waits for passes in flight to finish (up to 30 s, then interrupts them).
     * Keys still queued are dropped; the next start queues everything again.
     */
    public void stop() {
        List<Thread> running;
        synchronized (this) {
            if (state == ControllerFigures.State.STOPPED) {
                return;
            }
            generation++;
            state = ControllerFigures.State.STOPPED;
            WorkQueue<K> q = queue;
            queue = null;
            q.shutDown();
            if (syncWaiter != null) {
                syncWaiter.interrupt();
                syncWaiter = null;
            }
            running = workers;
            workers = List.of();
        }
        joinOutsideLock(running);
        log.info("{}: stopped", name);
    }

    private static void joinOutsideLock(List<Thread> threads) {
        long deadline = System.nanoTime() + STOP_GRACE.toNanos();
        for (Thread t : threads) {
            if (t == Thread.currentThread()) {
                continue; // stop() called from a reconcile: this worker ends when it returns
            }
            try {
                long left = deadline - System.nanoTime();
                if (left <= 0 || !t.join(Duration.ofNanos(left))) {
                    t.interrupt();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    public boolean isRunning() {
        return state == ControllerFigures.State.RUNNING;
    }

    /** A consistent-enough snapshot: each figure is exact, taken a few nanoseconds apart. */
    public ControllerFigures figures() {
        WorkQueue<K> q = queue;
        long passes = reconciles.sum();
        return new ControllerFigures(
                name,
                state,
                workerCount,
                q == null ? 0 : q.len(),
                q == null ? 0 : q.delayed(),
                q == null ? 0 : q.processing(),
                passes,
                errors.sum(),
                requeues.sum(),
                Duration.ofNanos(lastLatencyNanos.get()),
                passes == 0 ? Duration.ZERO : Duration.ofNanos(totalLatencyNanos.get() / passes),
                histogram.snapshot(),
                lastError,
                lastReconcileAt);
    }

    /** Stops and detaches from the informers. */
    @Override
    public void close() {
        stop();
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
        }
        for (Watch<?, K> w : watches) {
            detach(w);
        }
    }

    private static <T> void detach(Watch<T, ?> w) {
        w.informer().removeEventHandler(w.handler());
    }

    private record PendingWatch<T, K>(SharedIndexInformer<T> informer,
                                      Function<? super T, ? extends Collection<? extends K>> keysOf,
                                      BiPredicate<? super T, ? super T> relevantUpdate) {
    }

    /** Describes a loop: its name, reconciler, workers and what it watches. */
    public static final class Builder<K> {
        private final String name;
        private final Reconciler<K> reconciler;
        private int workers = 1;
        private final List<PendingWatch<?, K>> watches = new ArrayList<>();
        private final List<SharedIndexInformer<?>> waitFor = new ArrayList<>();
        private final List<PendingWatch<?, K>> unsynced = new ArrayList<>();
        private RateLimiter<K> rateLimiter;
        private Ticker ticker = Ticker.system();

        private Builder(String name, Reconciler<K> reconciler) {
            this.name = Objects.requireNonNull(name);
            this.reconciler = Objects.requireNonNull(reconciler);
        }

        /** Worker threads; KubeVirt's controllers use 3 by default (the VMI controller 10). */
        public Builder<K> workers(int n) {
            if (n < 1) {
                throw new IllegalArgumentException("workers must be at least 1");
            }
            this.workers = n;
            return this;
        }

        /** Queues {@code keyOf(object)} for every add, update and delete; a null key is ignored. */
        public <T> Builder<K> watch(SharedIndexInformer<T> informer, Function<? super T, ? extends K> keyOf) {
            return watch(informer, keyOf, null);
        }

        /**
         * As {@link #watch(SharedIndexInformer, Function)}, but an update queues only when {@code relevantUpdate}
         * says the change (before, after) can matter to the reconciler, e.g. not when only a status it never reads
         * changed. Adds and deletes always queue; so does every cached object when the loop starts.
         */
        public <T> Builder<K> watch(SharedIndexInformer<T> informer, Function<? super T, ? extends K> keyOf,
                                    BiPredicate<? super T, ? super T> relevantUpdate) {
            watches.add(new PendingWatch<T, K>(informer, obj -> {
                K key = keyOf.apply(obj);
                return key == null ? Set.of() : Set.of(key);
            }, relevantUpdate));
            return this;
        }

        /** Queues every key {@code keysOf(object)} returns (e.g. an object that concerns several keys). */
        public <T> Builder<K> watchAll(SharedIndexInformer<T> informer,
                                       Function<? super T, ? extends Collection<? extends K>> keysOf) {
            watches.add(new PendingWatch<>(informer, keysOf, null));
            return this;
        }

        /**
         * As {@link #watch(SharedIndexInformer, Function)}, but workers do not wait for this informer to sync: for a
         * kind whose CRD a cluster may lack (its informer then never syncs). Objects it lists later arrive as adds.
         * The reconciler must treat an object missing from its cache as absent, and act only on what it finds.
         */
        public <T> Builder<K> watchUnsynced(SharedIndexInformer<T> informer, Function<? super T, ? extends K> keyOf) {
            watch(informer, keyOf, null);
            unsynced.add(watches.getLast());
            return this;
        }

        /**
         * An informer the reconciler reads but whose events it handles itself (or not at all):
         * workers still wait for it to sync.
         */
        public Builder<K> waitFor(SharedIndexInformer<?> informer) {
            waitFor.add(informer);
            return this;
        }

        public Builder<K> rateLimiter(RateLimiter<K> limiter) {
            this.rateLimiter = limiter;
            return this;
        }

        public Builder<K> ticker(Ticker t) {
            this.ticker = t;
            return this;
        }

        /** Builds the loop and registers its event handlers; it stays stopped until {@link #start}. */
        public ControllerLoop<K> build() {
            return new ControllerLoop<>(this);
        }
    }
}
