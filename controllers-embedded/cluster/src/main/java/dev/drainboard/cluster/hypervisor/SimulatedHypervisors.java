package dev.drainboard.cluster.hypervisor;

import dev.drainboard.cluster.ClusterComponent;
import dev.drainboard.cluster.apiserver.BuiltinResources;
import dev.drainboard.cluster.apiserver.Json;
import dev.drainboard.cluster.apiserver.store.ObjectStore;
import dev.drainboard.cluster.apiserver.store.WatchEvent;
import dev.drainboard.hypervisor.HypervisorRegistry;

import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;

/**
 * Gives every Node of the embedded cluster a {@link SimulatedHypervisor} in the registry, from the moment the Node
 * exists until it is deleted (its domains then die with it).
 */
public final class SimulatedHypervisors implements ClusterComponent {

    private final ObjectStore store;
    private final HypervisorRegistry registry;
    private final SimulatedHypervisor.Timing timing;
    private final double timeScale;
    private final ScheduledExecutorService timers = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "simulated-hypervisors");
        t.setDaemon(true);
        return t;
    });

    public SimulatedHypervisors(ObjectStore store, HypervisorRegistry registry, SimulatedHypervisor.Timing timing) {
        this(store, registry, timing, 1.0);
    }

    /** @param timing real-time timing, which this scales by {@code timeScale} (docs/embedded-cluster.md, "Time scale") */
    public SimulatedHypervisors(ObjectStore store, HypervisorRegistry registry, SimulatedHypervisor.Timing timing, double timeScale) {
        this.store = store;
        this.registry = registry;
        this.timing = timing.scaledBy(timeScale);
        this.timeScale = timeScale;
    }

    @Override
    public void start() {
        store.addListener(this::onEvent);
        store.list(BuiltinResources.NODES, null, o -> true).forEach(n -> ensure(Json.name(n)));
    }

    /** Under the store's lock: registering is quick and never calls back into the store. */
    private void onEvent(WatchEvent event) {
        if (event.resource() != BuiltinResources.NODES) {
            return;
        }
        String node = Json.name(event.object());
        if (event.type() == WatchEvent.Type.DELETED) {
            // Hand the power-off to the timer thread: listeners must not run under the store's lock.
            registry.unregister(node).ifPresent(h -> timers.execute(((SimulatedHypervisor) h)::powerOff));
        } else {
            ensure(node);
        }
    }

    private synchronized void ensure(String node) {
        if (!registry.serves(node)) {
            registry.register(new SimulatedHypervisor(node, store.clock(), timers, timing, timeScale));
        }
    }

    /** The simulated hypervisor of a node, for the kubelets and tests. */
    public static SimulatedHypervisor of(HypervisorRegistry registry, String node) {
        return registry.forNode(node).filter(SimulatedHypervisor.class::isInstance).map(SimulatedHypervisor.class::cast)
                .orElse(null);
    }

    @Override
    public void close() {
        timers.shutdownNow();
    }
}
