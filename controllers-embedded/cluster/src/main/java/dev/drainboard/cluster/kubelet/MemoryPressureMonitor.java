package dev.drainboard.cluster.kubelet;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.drainboard.cluster.apiserver.ApiException;
import dev.drainboard.cluster.apiserver.BuiltinResources;
import dev.drainboard.cluster.apiserver.Json;
import dev.drainboard.cluster.apiserver.PodConditions;
import dev.drainboard.cluster.apiserver.store.ObjectStore;
import dev.drainboard.hypervisor.Domain;
import dev.drainboard.hypervisor.HypervisorRegistry;
import dev.drainboard.kubevirt.KubeVirtLabels;
import dev.drainboard.kubevirt.KubeVirtValues;
import dev.drainboard.scheduling.PodResources;
import dev.drainboard.simulation.SimulationKnobs;
import dev.drainboard.units.Quantities;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * The simulated kubelets' eviction managers for memory: every {@link #PERIOD} each node's memory use is measured
 * (its pods' plus {@value SimulationKnobs#SYSTEM_MEMORY_USAGE}), {@link MemoryPressureDecision} decides,
 * and the node's {@code MemoryPressure} condition and {@code node.kubernetes.io/memory-pressure:NoSchedule} taint
 * (the node lifecycle controller's job in a real cluster) follow; a victim is handed to
 * {@link SimulatedKubelets#evict}.
 *
 * <p>What a pod uses: {@value SimulationKnobs#POD_MEMORY_USAGE} when the pod has it; a virt-launcher pod
 * its domain's guest memory while the domain is alive (a migration target's incoming domain too) plus
 * {@link #LAUNCHER_OVERHEAD_BYTES}; any other pod its memory request.
 */
final class MemoryPressureMonitor implements AutoCloseable {

    /** The kubelet looks every 10 s; the simulation every second, so a scenario reacts while one watches. */
    static final Duration PERIOD = Duration.ofSeconds(1);
    /** What virt-launcher, QEMU and libvirt use beside the guest's memory (what Drainboard's VMI controller requests). */
    static final long LAUNCHER_OVERHEAD_BYTES = 256L << 20;
    static final String MEMORY_PRESSURE = "MemoryPressure";
    static final String MEMORY_PRESSURE_TAINT = "node.kubernetes.io/memory-pressure";
    private static final long DEFAULT_CAPACITY = 64L << 30;
    private static final Logger LOG = LoggerFactory.getLogger(MemoryPressureMonitor.class);

    private final ObjectStore store;
    private final HypervisorRegistry hypervisors;
    private final SimulatedKubelets kubelets;
    private final Map<String, MemoryPressureDecision.State> states = new ConcurrentHashMap<>();
    /** The last configuration error reported per node, so each bad value is reported once. */
    private final Map<String, String> reportedErrors = new ConcurrentHashMap<>();
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "kubelet-eviction-managers");
        t.setDaemon(true);
        return t;
    });

    MemoryPressureMonitor(ObjectStore store, HypervisorRegistry hypervisors, SimulatedKubelets kubelets) {
        this.store = store;
        this.hypervisors = hypervisors;
        this.kubelets = kubelets;
    }

    void start() {
        timer.scheduleWithFixedDelay(this::checkAll, PERIOD.toMillis(), PERIOD.toMillis(), TimeUnit.MILLISECONDS);
    }

    private void checkAll() {
        for (ObjectNode node : store.list(BuiltinResources.NODES, null, o -> true)) {
            try {
                check(node);
            } catch (RuntimeException e) {
                LOG.debug("eviction manager of {} failed, next round retries", Json.name(node), e);
            }
        }
        states.keySet().removeIf(n -> store.get(BuiltinResources.NODES, null, n) == null);
    }

    private void check(ObjectNode node) {
        String name = Json.name(node);
        Instant now = store.clock().instant();
        EvictionConfig config = config(node, now);
        MemoryPressureDecision.State state = states.getOrDefault(name, MemoryPressureDecision.State.INITIAL);
        boolean pressureNow = PodConditions.status(node, MEMORY_PRESSURE).equals("True");
        if (!config.enabled() && state.equals(MemoryPressureDecision.State.INITIAL) && !pressureNow) {
            return;
        }
        List<ObjectNode> running = store.list(BuiltinResources.PODS, null,
                p -> name.equals(Json.text(p, "spec", "nodeName")) && !isFinished(p));
        long usage = quantity(Json.text(node, "metadata", "annotations", SimulationKnobs.SYSTEM_MEMORY_USAGE));
        List<MemoryPressureDecision.PodUsage> candidates = new ArrayList<>();
        for (ObjectNode pod : running) {
            MemoryPressureDecision.PodUsage u = usageOf(pod, name);
            usage += u.usageBytes();
            if (!pod.path("metadata").has("deletionTimestamp") && !kubelets.isEvicting(Json.uid(pod))) {
                candidates.add(u);
            }
        }
        boolean victimEnded = state.victimUid() == null
                || running.stream().noneMatch(p -> state.victimUid().equals(Json.uid(p)));
        MemoryPressureDecision.Plan plan = MemoryPressureDecision.decide(config, capacity(node), usage, candidates, state,
                victimEnded, now);
        states.put(name, plan.next());
        if (plan.memoryPressure() != pressureNow) {
            setPressure(name, plan.memoryPressure(), now);
        }
        if (plan.evict() != null) {
            MemoryPressureDecision.Victim v = plan.evict();
            LOG.info("node {}: memory available {} below the {} threshold, evicting {}/{} (grace {} s)", name,
                    plan.available(), v.hard() ? "hard" : "soft", v.pod().namespace(), v.pod().name(), v.gracePeriodSeconds());
            KubeletEvents.record(store, node, "Warning", "EvictionThresholdMet", "Attempting to reclaim memory", now);
            kubelets.evict(v.pod().namespace(), v.pod().name(), v.gracePeriodSeconds(), v.message());
        }
    }

    /** The node's eviction configuration; a bad one is reported once (Warning event on the node) and counts as none. */
    private EvictionConfig config(ObjectNode node, Instant now) {
        Map<String, String> annotations = new java.util.HashMap<>();
        node.path("metadata").path("annotations").properties().forEach(e -> annotations.put(e.getKey(), e.getValue().asText()));
        try {
            EvictionConfig config = EvictionConfig.parse(annotations);
            reportedErrors.remove(Json.name(node));
            return config;
        } catch (IllegalArgumentException e) {
            if (!Objects.equals(reportedErrors.put(Json.name(node), e.getMessage()), e.getMessage())) {
                LOG.warn("node {}: invalid eviction configuration, node-pressure eviction is off: {}", Json.name(node), e.getMessage());
                KubeletEvents.record(store, node, "Warning", "InvalidEvictionConfiguration",
                        "Node-pressure eviction is off: " + e.getMessage(), now);
            }
            return EvictionConfig.NONE;
        }
    }

    private MemoryPressureDecision.PodUsage usageOf(ObjectNode pod, String node) {
        long request = PodResources.requestsOf(pod).memoryBytes();
        String annotated = Json.text(pod, "metadata", "annotations", SimulationKnobs.POD_MEMORY_USAGE);
        long usage;
        String container = pod.path("spec").path("containers").path(0).path("name").asText("");
        if (!annotated.isEmpty()) {
            usage = quantity(annotated);
        } else if (SimulatedKubelets.isLauncher(pod)) {
            String vmiUid = Json.text(pod, "metadata", "labels", KubeVirtLabels.CREATED_BY);
            long guest = hypervisors.forNode(node).flatMap(h -> h.domain(vmiUid)).filter(Domain::isAlive)
                    .map(Domain::memoryBytes).orElse(0L);
            usage = guest + LAUNCHER_OVERHEAD_BYTES;
            container = KubeVirtValues.LAUNCHER_COMPUTE_CONTAINER;
        } else {
            usage = request;
        }
        long grace = pod.path("spec").path("terminationGracePeriodSeconds").asLong(30);
        return new MemoryPressureDecision.PodUsage(Json.namespace(pod), Json.name(pod), Json.uid(pod), usage, request,
                pod.path("spec").path("priority").asInt(0), grace, container);
    }

    private void setPressure(String node, boolean pressure, Instant now) {
        try {
            store.update(BuiltinResources.NODES, null, node, n -> {
                if (pressure) {
                    PodConditions.set(n, MEMORY_PRESSURE, "True", "KubeletHasInsufficientMemory", "kubelet has insufficient memory available", now);
                } else {
                    PodConditions.set(n, MEMORY_PRESSURE, "False", "KubeletHasSufficientMemory", "kubelet has sufficient memory available", now);
                }
                setTaint(n, pressure);
                return n;
            }, false);
        } catch (ApiException e) {
            if (e.code() != 404) {
                throw e;
            }
        }
        KubeletEvents.record(store, store.get(BuiltinResources.NODES, null, node) == null ? Json.object() : store.get(BuiltinResources.NODES, null, node),
                "Normal", pressure ? "NodeHasInsufficientMemory" : "NodeHasSufficientMemory",
                "Node " + node + " status is now: " + (pressure ? "NodeHasInsufficientMemory" : "NodeHasSufficientMemory"), now);
    }

    private static void setTaint(ObjectNode node, boolean present) {
        ArrayNode taints = node.with("spec").withArray("taints");
        for (int i = taints.size() - 1; i >= 0; i--) {
            JsonNode t = taints.get(i);
            if (t.path("key").asText().equals(MEMORY_PRESSURE_TAINT) && t.path("effect").asText().equals("NoSchedule")) {
                if (present) {
                    return;
                }
                taints.remove(i);
            }
        }
        if (present) {
            taints.addObject().put("key", MEMORY_PRESSURE_TAINT).put("effect", "NoSchedule");
        } else if (taints.isEmpty()) {
            ((ObjectNode) node.get("spec")).remove("taints");
        }
    }

    private static boolean isFinished(JsonNode pod) {
        String phase = Json.text(pod, "status", "phase");
        return phase.equals("Succeeded") || phase.equals("Failed");
    }

    private static long capacity(ObjectNode node) {
        String memory = Json.text(node, "status", "capacity", "memory");
        return memory.isEmpty() ? DEFAULT_CAPACITY : quantity(memory);
    }

    private static long quantity(String text) {
        if (text == null || text.isBlank()) {
            return 0;
        }
        try {
            return Quantities.whole(text.trim());
        } catch (RuntimeException e) {
            return 0;
        }
    }

    @Override
    public void close() {
        timer.shutdownNow();
    }
}
