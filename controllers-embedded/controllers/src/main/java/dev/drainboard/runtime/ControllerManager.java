package dev.drainboard.runtime;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.fabric8.kubernetes.client.informers.SharedInformerFactory;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

/**
 * Runs a set of controllers against one cluster: owns the fabric8 client, the shared informer
 * factory, the event recorders and leader election. Controllers run only while this process is
 * the leader.
 *
 * <p>Informers run from {@link #start} on, leader or not: their caches feed the UI anyway, and a
 * candidate whose caches are warm starts reconciling within moments of taking over.
 *
 * <p>Usage: create, build informers from {@link #informers()} and register {@link ControllerLoop}s
 * that use them, then {@link #start()}. {@link #close()} stops everything and closes the client.
 */
public final class ControllerManager implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(ControllerManager.class);

    private final KubernetesClient client;
    private final SharedInformerFactory informers;
    private final LeaderElection election; // null when leader election is off
    private final String identity;
    private final List<ControllerLoop<?>> controllers = new CopyOnWriteArrayList<>();
    private final Map<String, EventRecorder> recorders = new ConcurrentHashMap<>();
    private final List<Consumer<Boolean>> leadershipListeners = new CopyOnWriteArrayList<>();
    private volatile boolean controllersRunning;
    private boolean started;
    private boolean closed;

    /**
     * @param client   taken over: closed by {@link #close()}
     * @param election leader election options, or null to run the controllers unconditionally
     *                 (a single Drainboard on its own embedded cluster, tests, benchmarks)
     */
    public ControllerManager(KubernetesClient client, LeaderElection.Options election) {
        this.client = client;
        this.informers = client.informers();
        this.identity = election != null ? election.identity() : LeaderIdentity.generate();
        this.election = election == null ? null
                : new LeaderElection(client, election, this::startControllers, this::stopControllers);
    }

    public KubernetesClient client() {
        return client;
    }

    /** The shared informer factory: one informer per type for all controllers and the UI. */
    public SharedInformerFactory informers() {
        return informers;
    }

    /** The recorder for a component name (see {@link EventComponents}), shared by controllers using it. */
    public EventRecorder eventRecorder(String component) {
        return recorders.computeIfAbsent(component, c -> new EventRecorder(client, c, identity));
    }

    /**
     * The factory's informer (all namespaces, no resync) for a type, created on the first ask: controllers that
     * watch the same type share one. Ask before the manager starts, so the informer starts with the rest.
     */
    public <T extends HasMetadata> SharedIndexInformer<T> informer(Class<T> type) {
        synchronized (informers) {
            SharedIndexInformer<T> existing = informers.getExistingSharedIndexInformer(type);
            return existing != null ? existing : informers.sharedIndexInformerFor(type, 0);
        }
    }

    /** Adds a controller; if this process already leads, it starts at once. Returns it. */
    public <K> ControllerLoop<K> register(ControllerLoop<K> controller) {
        controllers.add(controller);
        if (controllersRunning) {
            controller.start();
        }
        return controller;
    }

    /**
     * Calls {@code listener} with true when this process starts running the controllers (became leader, or at
     * start without election) and with false when it stops (lost or gave up leadership). Runs on the election's
     * thread: keep it short. Returns a handle whose {@code close()} removes it.
     */
    public AutoCloseable onLeadershipChange(Consumer<Boolean> listener) {
        leadershipListeners.add(listener);
        return () -> leadershipListeners.remove(listener);
    }

    private void notifyLeadership(boolean leading) {
        for (Consumer<Boolean> listener : leadershipListeners) {
            try {
                listener.accept(leading);
            } catch (RuntimeException e) {
                log.warn("leadership listener failed", e);
            }
        }
    }

    /** Starts the informers, then stands for leader (or starts the controllers if election is off). */
    public synchronized void start() {
        if (started || closed) {
            return;
        }
        started = true;
        informers.startAllRegisteredInformers();
        if (election != null) {
            election.start();
        } else {
            startControllers();
        }
    }

    private void startControllers() {
        controllersRunning = true;
        log.info("starting {} controllers", controllers.size());
        controllers.forEach(ControllerLoop::start);
        notifyLeadership(true);
    }

    private void stopControllers() {
        boolean wasRunning = controllersRunning;
        controllersRunning = false;
        // In parallel: each waits for its passes in flight, and stepping down must be quick.
        List<Thread> stopping = new ArrayList<>();
        for (ControllerLoop<?> c : controllers) {
            stopping.add(Thread.ofVirtual().start(c::stop));
        }
        for (Thread t : stopping) {
            try {
                t.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
        if (wasRunning) {
            notifyLeadership(false);
        }
    }

    /** Stops the controllers and releases leadership; informers keep running until {@link #close()}. */
    public synchronized void stop() {
        if (election != null) {
            election.stop(); // stops the controllers first, then releases the Lease
        } else {
            stopControllers();
        }
    }

    /** Simulates a crash of this process, for tests: controllers stop, the Lease is not released. */
    synchronized void crash() {
        if (election != null) {
            election.haltWithoutRelease();
        }
        stopControllers();
        informers.stopAllRegisteredInformers();
    }

    public List<ControllerFigures> figures() {
        return controllers.stream().<ControllerFigures>map(ControllerLoop::figures).toList();
    }

    public LeaderState leaderState() {
        if (election == null) {
            return new LeaderState(identity, controllersRunning, controllersRunning ? identity : null, null);
        }
        return election.state();
    }

    public boolean isLeader() {
        return election == null ? controllersRunning : election.isLeader();
    }

    /** Stops everything in order: controllers, Lease, event writes, informers, client. */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        stop();
        controllers.forEach(ControllerLoop::close);
        if (election != null) {
            election.close();
        }
        recorders.values().forEach(EventRecorder::close);
        informers.stopAllRegisteredInformers();
        client.close();
    }
}
