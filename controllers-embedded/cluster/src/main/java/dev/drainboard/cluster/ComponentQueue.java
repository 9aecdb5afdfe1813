package dev.drainboard.cluster;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.LinkedHashSet;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * A de-duplicating queue of keys worked off by one thread, with delayed re-adds. Enough for the
 * embedded cluster's own small controllers, which only need "look at this again".
 */
public final class ComponentQueue implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(ComponentQueue.class);

    private final LinkedHashSet<String> pending = new LinkedHashSet<>();
    private final ScheduledExecutorService worker;
    private final Consumer<String> handler;
    private boolean drainScheduled;

    public ComponentQueue(String name, Consumer<String> handler) {
        this.handler = handler;
        this.worker = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, name);
            t.setDaemon(true);
            return t;
        });
    }

    /** Safe to call under the store's lock: it only records the key. */
    public void add(String key) {
        synchronized (pending) {
            pending.add(key);
            if (!drainScheduled) {
                drainScheduled = true;
                worker.execute(this::drain);
            }
        }
    }

    public void addAfter(String key, long delayMillis) {
        if (!worker.isShutdown()) {
            worker.schedule(() -> add(key), delayMillis, TimeUnit.MILLISECONDS);
        }
    }

    private void drain() {
        while (true) {
            String key;
            synchronized (pending) {
                if (pending.isEmpty()) {
                    drainScheduled = false;
                    return;
                }
                key = pending.removeFirst();
            }
            try {
                handler.accept(key);
            } catch (RuntimeException e) {
                LOG.debug("{} failed, retrying", key, e);
                addAfter(key, 200);
            }
        }
    }

    @Override
    public void close() {
        worker.shutdownNow();
    }
}
