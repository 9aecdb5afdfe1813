package dev.drainboard.cluster.kubelet;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.drainboard.cluster.ClusterComponent;
import dev.drainboard.cluster.ComponentQueue;
import dev.drainboard.cluster.apiserver.ApiException;
import dev.drainboard.cluster.apiserver.BuiltinResources;
import dev.drainboard.cluster.apiserver.Json;
import dev.drainboard.cluster.apiserver.PodConditions;
import dev.drainboard.cluster.apiserver.ResourceType;
import dev.drainboard.cluster.apiserver.store.ObjectStore;
import dev.drainboard.cluster.apiserver.store.WatchEvent;
import dev.drainboard.cluster.hypervisor.SimulatedHypervisor;
import dev.drainboard.cluster.hypervisor.SimulatedHypervisors;
import dev.drainboard.hypervisor.Domain;
import dev.drainboard.hypervisor.DomainState;
import dev.drainboard.hypervisor.HypervisorRegistry;
import dev.drainboard.hypervisor.StopReason;
import dev.drainboard.kubevirt.KubeVirtLabels;
import dev.drainboard.simulation.SimulationKnobs;
import dev.drainboard.units.GoDurations;

import dev.drainboard.kubevirt.config.ClusterConfig;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * The kubelets of the simulated nodes: a node reports Ready with capacity and keeps its Lease fresh;
 * a pod bound to it starts (Running, Ready) after its start delay; a deleted pod's process gets
 * SIGTERM, exits after its shutdown delay (killed at the end of the grace period), ends Succeeded
 * (or Failed when killed) and is removed.
 *
 * <p>A virt-launcher pod's process is tied to its VMI's domain on the node's hypervisor, as virt-launcher
 * is: SIGTERM is passed on to the hypervisor (the node handler then shuts the guest down); the process exits
 * once the domain is off, so the pod ends Succeeded (Failed after a crash) and, being restartPolicy Never,
 * stays until deleted; a launcher killed at the end of its grace period takes QEMU with it. After a live migration
 * away, the source launcher exits only once the VMI has moved to the target node (its handler finishing the
 * migration first, as virt-launcher waits for virt-handler's clean-up): until then the VMI's pod on its node is
 * still there, and nothing — an eviction of the finished pod, say — can make it look as if the VM had died.
 *
 * <p>Node-pressure eviction ({@link MemoryPressureMonitor}, configured per node by annotations, see
 * {@link EvictionConfig}): an evicted pod gets SIGTERM, is killed after its eviction grace period and ends Failed,
 * reason Evicted, without being deleted.
 *
 * <p>Knobs, as annotations on the pod: {@code sim.drainboard.dev/start-delay} (default: the cluster's
 * pod start delay) and {@code sim.drainboard.dev/shutdown-delay} (Go-style durations such as
 * {@code 500ms}, {@code 2s}). A launcher pod with a domain ignores the shutdown delay: it exits when
 * its domain is off.
 */
public final class SimulatedKubelets implements ClusterComponent {

    public static final String START_DELAY = SimulationKnobs.POD_START_DELAY;
    public static final String SHUTDOWN_DELAY = SimulationKnobs.POD_SHUTDOWN_DELAY;
    static final Duration LEASE_RENEW = Duration.ofSeconds(10);
    static final int LEASE_DURATION_SECONDS = 40;
    private static final String KILL = "kill:";
    private static final String VMIS = "virtualmachineinstances.kubevirt.io";

    private final ObjectStore store;
    private final HypervisorRegistry hypervisors;
    private final Duration defaultStartDelay;
    /** How many times faster than real time this cluster runs: start and shutdown delays and grace periods shrink. */
    private final double timeScale;
    private final ComponentQueue queue;
    /** Launcher pods by "node/VMI uid", so that a domain's change reaches its pod. */
    private final Map<String, String> launchers = new ConcurrentHashMap<>();
    /** When this kubelet started each pod (by uid); pods it found running have none. */
    private final Map<String, Instant> runningSince = new ConcurrentHashMap<>();
    /** When each "node/VMI uid" domain was last reported alive. */
    private final Map<String, Instant> domainAliveAt = new ConcurrentHashMap<>();
    /** The VMI resource, learnt from its first event (the CRD is installed at start, or by a scenario). */
    private volatile ResourceType vmiType;
    /**
     * When each terminating pod (by uid) got its SIGTERM: the moment its kubelet first saw the
     * deletionTimestamp. Derived from the timestamp it could be up to a second early, as
     * metav1.Time keeps whole seconds only.
     */
    private final Map<String, Instant> signalled = new ConcurrentHashMap<>();
    /** Pods the node-pressure eviction manager is evicting, by uid: SIGTERM time, grace period, message. */
    private final Map<String, Eviction> evictions = new ConcurrentHashMap<>();
    private final MemoryPressureMonitor memoryPressure;
    private final ScheduledExecutorService leases = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "kubelet-leases");
        t.setDaemon(true);
        return t;
    });

    public SimulatedKubelets(ObjectStore store) {
        this(store, new HypervisorRegistry(), Duration.ZERO);
    }

    /**
     * @param hypervisors       the nodes' hypervisors, which run the launcher pods' domains
     * @param defaultStartDelay how long a pod takes to start when it has no start-delay annotation
     */
    public SimulatedKubelets(ObjectStore store, HypervisorRegistry hypervisors, Duration defaultStartDelay) {
        this(store, hypervisors, defaultStartDelay, 1.0);
    }

    /**
     * @param timeScale how many times faster than real time the cluster runs (docs/embedded-cluster.md, "Time
     *                  scale"): pod start and shutdown delays (the default and the annotations) and grace periods are
     *                  real time, divided by it
     */
    public SimulatedKubelets(ObjectStore store, HypervisorRegistry hypervisors, Duration defaultStartDelay, double timeScale) {
        this.store = store;
        this.hypervisors = hypervisors;
        this.defaultStartDelay = defaultStartDelay;
        this.timeScale = timeScale;
        this.queue = new ComponentQueue("simulated-kubelets", this::sync);
        this.memoryPressure = new MemoryPressureMonitor(store, hypervisors, this);
    }

    /** A node-pressure eviction: the pod's process got SIGTERM at {@code sigterm} and is killed after the grace period. */
    record Eviction(Instant sigterm, long graceSeconds, String message) {
    }

    /**
     * Evicts a pod for node pressure, as the kubelet's eviction manager does: the DisruptionTarget condition
     * (TerminationByKubelet) and a Warning {@code Evicted} event at once, SIGTERM to its process (a launcher passes it
     * on to its domain), a kill after {@code graceSeconds}, then phase Failed with reason Evicted. The pod object
     * stays; no PodDisruptionBudget is consulted. Evicting a pod already being evicted does nothing.
     */
    public void evict(String namespace, String name, long graceSeconds, String message) {
        ObjectNode pod = store.get(BuiltinResources.PODS, namespace, name);
        if (pod == null) {
            return;
        }
        Instant now = store.clock().instant();
        if (evictions.putIfAbsent(Json.uid(pod), new Eviction(now, graceSeconds, message)) != null) {
            return;
        }
        ignoreMissing(() -> store.update(BuiltinResources.PODS, namespace, name, p -> {
            PodConditions.set(p, "DisruptionTarget", "True", "TerminationByKubelet", message, now);
            return p;
        }, false));
        KubeletEvents.record(store, pod, "Warning", "Evicted", message, now);
        queue.add(podKey(pod));
    }

    /** Whether the eviction manager has evicted this pod (by uid) and it has not been removed. */
    boolean isEvicting(String podUid) {
        return evictions.containsKey(podUid);
    }

    @Override
    public void start() {
        hypervisors.addDomainListener(this::onDomainChanged);
        store.addListener(this::onEvent);
        store.list(BuiltinResources.NODES, null, o -> true).forEach(n -> queue.add("node:" + Json.name(n)));
        store.list(BuiltinResources.PODS, null, o -> true).forEach(p -> queue.add(podKey(p)));
        leases.scheduleAtFixedRate(this::renewLeases, LEASE_RENEW.toMillis(), LEASE_RENEW.toMillis(), TimeUnit.MILLISECONDS);
        memoryPressure.start();
    }

    private void onEvent(WatchEvent event) {
        if (event.type() == WatchEvent.Type.DELETED) {
            if (event.resource() == BuiltinResources.PODS) {
                signalled.remove(Json.uid(event.object()));
                runningSince.remove(Json.uid(event.object()));
                evictions.remove(Json.uid(event.object()));
                ObjectNode pod = event.object();
                if (isLauncher(pod)) {
                    String launcher = launcherKey(Json.text(pod, "spec", "nodeName"), vmiUid(pod));
                    launchers.remove(launcher, podKey(pod));
                    String phase = Json.text(pod, "status", "phase");
                    if (!phase.equals("Succeeded") && !phase.equals("Failed")) {
                        // Removed without its process having exited (grace period 0): the kubelet still kills it.
                        queue.add(KILL + launcher);
                    }
                }
            }
            return;
        }
        if (VMIS.equals(event.resource().groupResource())) {
            vmiType = event.resource();
            String before = event.previous() == null ? "" : Json.text(event.previous(), "status", "nodeName");
            if (!before.isEmpty() && !before.equals(Json.text(event.object(), "status", "nodeName"))) {
                String launcher = launchers.get(launcherKey(before, Json.uid(event.object())));
                if (launcher != null) {
                    queue.add(launcher); // migrated away: the source launcher may exit now
                }
            }
            return;
        }
        if (event.resource() == BuiltinResources.PODS) {
            // An unscheduled pod has no kubelet (syncPod ignores it): not queueing it keeps
            // this listener, which runs under the store's write lock, cheap for bulk creates.
            if (!Json.text(event.object(), "spec", "nodeName").isEmpty()) {
                queue.add(podKey(event.object()));
            }
        } else if (event.resource() == BuiltinResources.NODES && event.type() == WatchEvent.Type.ADDED) {
            queue.add("node:" + Json.name(event.object()));
        }
    }

    private void onDomainChanged(Domain domain) {
        if (domain.isAlive()) {
            domainAliveAt.put(launcherKey(domain.nodeName(), domain.vmiUid()), store.clock().instant());
        } else if (domain.state() == DomainState.NONE) {
            domainAliveAt.remove(launcherKey(domain.nodeName(), domain.vmiUid()));
        }
        String key = launchers.get(launcherKey(domain.nodeName(), domain.vmiUid()));
        if (key != null) {
            queue.add(key);
        }
    }

    static boolean isLauncher(JsonNode pod) {
        return KubeVirtLabels.APP_VIRT_LAUNCHER.equals(Json.text(pod, "metadata", "labels", KubeVirtLabels.APP))
                && !vmiUid(pod).isEmpty();
    }

    private static String vmiUid(JsonNode pod) {
        return Json.text(pod, "metadata", "labels", KubeVirtLabels.CREATED_BY);
    }

    private static String launcherKey(String node, String vmiUid) {
        return node + "/" + vmiUid;
    }

    /**
     * A domain that migrated away does not end this launcher yet: when it last ran before this pod started, it is
     * left from the VMI's earlier stay on this node (migrated away, now coming back: the incoming domain will
     * replace it); and a source launcher waits until the handler has moved the VMI to the target node.
     */
    private boolean migratedDomainHoldsOn(Domain domain, ObjectNode pod, String node) {
        if (domain.stopReason() != StopReason.MIGRATED) {
            return false;
        }
        Instant podRunning = runningSince.get(Json.uid(pod));
        Instant domainAlive = domainAliveAt.get(launcherKey(node, domain.vmiUid()));
        if (podRunning != null && (domainAlive == null || domainAlive.isBefore(podRunning))) {
            return true;
        }
        ResourceType type = vmiType;
        ObjectNode vmi = type == null ? null : store.get(type, domain.namespace(), domain.name());
        return vmi != null && Json.uid(vmi).equals(domain.vmiUid()) && node.equals(Json.text(vmi, "status", "nodeName"));
    }

    /** The launcher's domain on its node, or null (no hypervisor there, or no domain defined yet). */
    private Domain domainOf(ObjectNode pod) {
        return hypervisors.forNode(Json.text(pod, "spec", "nodeName"))
                .flatMap(h -> h.domain(vmiUid(pod)))
                .orElse(null);
    }

    private static String podKey(ObjectNode pod) {
        return "pod:" + Json.namespace(pod) + "/" + Json.name(pod);
    }

    private void sync(String key) {
        if (key.startsWith(KILL)) {
            String launcher = key.substring(KILL.length());
            int slash = launcher.indexOf('/');
            hypervisors.forNode(launcher.substring(0, slash)).ifPresent(h -> h.destroy(launcher.substring(slash + 1)));
        } else if (key.startsWith("node:")) {
            syncNode(key.substring(5));
        } else {
            String ref = key.substring(4);
            syncPod(ref.substring(0, ref.indexOf('/')), ref.substring(ref.indexOf('/') + 1), key);
        }
    }

    private void syncNode(String name) {
        Instant now = store.clock().instant();
        ignoreMissing(() -> store.update(BuiltinResources.NODES, null, name, node -> NodeStatus.withDefaults(node, now), false));
        renewLease(name, now);
    }

    private void renewLeases() {
        Instant now = store.clock().instant();
        for (ObjectNode node : store.list(BuiltinResources.NODES, null, o -> true)) {
            try {
                renewLease(Json.name(node), now);
            } catch (RuntimeException e) {
                // the next round renews it
            }
        }
    }

    private void renewLease(String node, Instant now) {
        ObjectNode existing = store.get(BuiltinResources.LEASES, "kube-node-lease", node);
        if (existing == null) {
            ObjectNode lease = Json.object();
            lease.putObject("metadata").put("name", node).put("namespace", "kube-node-lease");
            ObjectNode spec = lease.putObject("spec");
            spec.put("holderIdentity", node);
            spec.put("leaseDurationSeconds", LEASE_DURATION_SECONDS);
            spec.put("renewTime", Json.microTimestamp(now));
            try {
                store.create(BuiltinResources.LEASES, lease, false, false);
            } catch (ApiException e) {
                if (e.code() != 409) {
                    throw e;
                }
            }
            return;
        }
        ignoreMissing(() -> store.update(BuiltinResources.LEASES, "kube-node-lease", node, l -> {
            l.with("spec").put("renewTime", Json.microTimestamp(now));
            return l;
        }, false));
    }

    private void syncPod(String namespace, String name, String key) {
        ObjectNode pod = store.get(BuiltinResources.PODS, namespace, name);
        if (pod == null) {
            return;
        }
        String nodeName = Json.text(pod, "spec", "nodeName");
        ObjectNode node = nodeName.isEmpty() ? null : store.get(BuiltinResources.NODES, null, nodeName);
        if (node == null) {
            return; // not ours: no kubelet runs it
        }
        Instant now = store.clock().instant();
        boolean launcher = isLauncher(pod);
        if (launcher) {
            launchers.put(launcherKey(nodeName, vmiUid(pod)), key);
        }
        JsonNode meta = pod.path("metadata");
        if (meta.has("deletionTimestamp")) {
            terminate(pod, key, now, null);
            return;
        }
        Eviction eviction = evictions.get(Json.uid(pod));
        if (eviction != null) {
            String current = Json.text(pod, "status", "phase");
            if (!current.equals("Succeeded") && !current.equals("Failed")) {
                terminate(pod, key, now, eviction);
            }
            return;
        }
        String phase = Json.text(pod, "status", "phase");
        if (launcher && phase.equals("Running")) {
            Domain domain = domainOf(pod);
            if (domain != null && domain.isFinal() && !migratedDomainHoldsOn(domain, pod, nodeName)) {
                // virt-launcher exits once its domain is off; restartPolicy Never keeps the pod, finished.
                int exitCode = domain.state() == DomainState.CRASHED ? 1 : 0;
                ignoreMissing(() -> store.update(BuiltinResources.PODS, namespace, name, p -> {
                    if (p.path("metadata").has("deletionTimestamp") || !Json.text(p, "status", "phase").equals("Running")) {
                        return p;
                    }
                    return PodStatus.terminated(p, now, exitCode);
                }, false));
            }
            return;
        }
        if (phase.equals("Pending")) {
            Instant created = Json.parseTimestamp(Json.text(pod, "metadata", "creationTimestamp"));
            Duration delay = ClusterConfig.scaled(annotationDuration(pod, START_DELAY, defaultStartDelay), timeScale);
            Instant due = created == null ? now : created.plus(delay);
            if (now.isBefore(due)) {
                queue.addAfter(key, Duration.between(now, due).toMillis() + 5);
                return;
            }
            runningSince.put(Json.uid(pod), now);
            ignoreMissing(() -> store.update(BuiltinResources.PODS, namespace, name, p -> PodStatus.running(p, internalIp(node), now), false));
        }
    }

    /** The address the node reports, which its pods report as their hostIP. */
    private static String internalIp(ObjectNode node) {
        for (JsonNode address : node.path("status").path("addresses")) {
            if (address.path("type").asText().equals("InternalIP")) {
                return address.path("address").asText();
            }
        }
        return "10.0.0.1";
    }

    /**
     * SIGTERM goes out when the kubelet sees the deletionTimestamp; the process exits after its shutdown delay
     * (a launcher with a domain: when the domain is off) or is killed at the end of the grace period.
     */
    private void terminate(ObjectNode pod, String key, Instant now, Eviction eviction) {
        boolean firstSignal = !signalled.containsKey(Json.uid(pod));
        Instant sigterm = signalled.computeIfAbsent(Json.uid(pod), uid -> eviction != null ? eviction.sigterm() : now);
        Domain domain = isLauncher(pod) ? domainOf(pod) : null;
        if (firstSignal && domain != null) {
            hypervisorOf(pod).ifPresent(h -> h.requestGracefulShutdown(vmiUid(pod)));
        }
        // The grace period as it is now: a later delete may have shortened it.
        Instant deadline = sigterm.plus(ClusterConfig.scaled(Duration.ofSeconds(eviction != null ? eviction.graceSeconds()
                : pod.path("metadata").path("deletionGracePeriodSeconds").asLong(0)), timeScale));
        Instant exit;
        if (domain != null) {
            // virt-launcher exits when its domain is off; a domain change re-queues the pod.
            exit = domain.isAlive() ? deadline : sigterm;
        } else {
            exit = sigterm.plus(ClusterConfig.scaled(annotationDuration(pod, SHUTDOWN_DELAY, Duration.ZERO), timeScale));
        }
        boolean killed = exit.isAfter(deadline) || (domain != null && domain.isAlive());
        if (exit.isAfter(deadline)) {
            exit = deadline;
        }
        if (now.isBefore(exit)) {
            queue.addAfter(key, Duration.between(now, exit).toMillis() + 5);
            return;
        }
        if (killed && domain != null) {
            // The launcher dies with SIGKILL, and QEMU with it.
            hypervisorOf(pod).ifPresent(h -> h.destroy(vmiUid(pod)));
        }
        int exitCode = killed ? 137 : domain != null && domain.state() == DomainState.CRASHED ? 1 : 0;
        if (eviction != null) {
            // Evicted: Failed with the kubelet's reason and message however the process ended; the pod stays.
            ignoreMissing(() -> store.update(BuiltinResources.PODS, Json.namespace(pod), Json.name(pod), p -> {
                PodStatus.terminated(p, now, exitCode);
                p.with("status").put("phase", "Failed").put("reason", "Evicted").put("message", eviction.message());
                return p;
            }, false));
            return;
        }
        ignoreMissing(() -> store.update(BuiltinResources.PODS, Json.namespace(pod), Json.name(pod), p -> {
            PodStatus.terminated(p, now, exitCode);
            Json.metadata(p).put("deletionGracePeriodSeconds", 0);
            return p;
        }, false));
    }

    private java.util.Optional<SimulatedHypervisor> hypervisorOf(ObjectNode pod) {
        return java.util.Optional.ofNullable(SimulatedHypervisors.of(hypervisors, Json.text(pod, "spec", "nodeName")));
    }

    static Duration annotationDuration(ObjectNode object, String annotation, Duration fallback) {
        String text = Json.text(object, "metadata", "annotations", annotation);
        if (text.isEmpty()) {
            return fallback;
        }
        try {
            return GoDurations.parse(text);
        } catch (IllegalArgumentException e) {
            return fallback;
        }
    }

    private static void ignoreMissing(Runnable action) {
        try {
            action.run();
        } catch (ApiException e) {
            if (e.code() != 404) {
                throw e;
            }
        }
    }

    @Override
    public void close() {
        memoryPressure.close();
        leases.shutdownNow();
        queue.close();
    }

    /** Status helpers kept beside the kubelet that writes them. */
    static final class PodStatus {
        private PodStatus() {
        }

        static ObjectNode running(ObjectNode pod, String hostIp, Instant now) {
            ObjectNode status = pod.with("status");
            status.put("phase", "Running");
            status.put("startTime", Json.timestamp(now));
            status.put("hostIP", hostIp);
            status.putArray("hostIPs").addObject().put("ip", hostIp);
            status.put("podIP", "10.244." + (Math.abs(Json.uid(pod).hashCode()) % 250) + "." + (Math.abs(Json.name(pod).hashCode()) % 250 + 2));
            status.putArray("podIPs").addObject().put("ip", status.path("podIP").asText());
            PodConditions.set(pod, "PodScheduled", "True", "", "", now);
            PodConditions.set(pod, "Initialized", "True", "", "", now);
            PodConditions.set(pod, "ContainersReady", "True", "", "", now);
            PodConditions.set(pod, "Ready", "True", "", "", now);
            ArrayNode statuses = status.putArray("containerStatuses");
            for (JsonNode c : pod.path("spec").path("containers")) {
                ObjectNode s = statuses.addObject();
                s.put("name", c.path("name").asText());
                s.put("image", c.path("image").asText());
                s.put("imageID", "sim://" + c.path("image").asText());
                s.put("containerID", "sim://" + Json.uid(pod) + "/" + c.path("name").asText());
                s.put("ready", true);
                s.put("started", true);
                s.put("restartCount", 0);
                s.putObject("state").putObject("running").put("startedAt", Json.timestamp(now));
            }
            return pod;
        }

        /**
         * The pod's process has exited: containers terminated, the pod in its final phase (Succeeded for exit
         * code 0, else Failed) and no longer Ready.
         */
        static ObjectNode terminated(ObjectNode pod, Instant now, int exitCode) {
            ObjectNode status = pod.with("status");
            status.put("phase", exitCode == 0 ? "Succeeded" : "Failed");
            PodConditions.set(pod, "Ready", "False", "PodCompleted", "", now);
            PodConditions.set(pod, "ContainersReady", "False", "PodCompleted", "", now);
            for (JsonNode s : status.withArray("containerStatuses")) {
                ObjectNode state = ((ObjectNode) s).putObject("state");
                ObjectNode terminated = state.putObject("terminated");
                terminated.put("exitCode", exitCode);
                terminated.put("reason", exitCode == 0 ? "Completed" : "Error");
                terminated.put("finishedAt", Json.timestamp(now));
                ((ObjectNode) s).put("ready", false);
                ((ObjectNode) s).put("started", false);
            }
            return pod;
        }
    }

    /** Node defaults a kubelet reports when it registers. */
    static final class NodeStatus {
        private NodeStatus() {
        }

        static ObjectNode withDefaults(ObjectNode node, Instant now) {
            ObjectNode meta = Json.metadata(node);
            ObjectNode labels = meta.with("labels");
            String name = Json.name(node);
            labels.putIfAbsent("kubernetes.io/hostname", Json.NODES.textNode(name));
            labels.putIfAbsent("kubernetes.io/os", Json.NODES.textNode("linux"));
            labels.putIfAbsent("kubernetes.io/arch", Json.NODES.textNode("amd64"));
            ObjectNode status = node.with("status");
            if (!status.has("capacity")) {
                ObjectNode capacity = status.putObject("capacity");
                capacity.put("cpu", "16");
                capacity.put("memory", "65536Mi");
                capacity.put("pods", "110");
                capacity.put("ephemeral-storage", "100Gi");
            }
            if (!status.has("allocatable")) {
                status.set("allocatable", status.get("capacity").deepCopy());
            }
            if (!status.has("nodeInfo")) {
                ObjectNode info = status.putObject("nodeInfo");
                info.put("machineID", Json.uid(node).replace("-", ""));
                info.put("systemUUID", Json.uid(node));
                info.put("bootID", Json.uid(node));
                info.put("kernelVersion", "6.1.0-drainboard");
                info.put("osImage", "Drainboard simulated node");
                info.put("containerRuntimeVersion", "sim://1.0.0");
                info.put("kubeletVersion", "v1.32.0");
                info.put("kubeProxyVersion", "v1.32.0");
                info.put("operatingSystem", "linux");
                info.put("architecture", "amd64");
            }
            if (!status.has("addresses")) {
                ArrayNode addresses = status.putArray("addresses");
                addresses.addObject().put("type", "InternalIP").put("address", "10.0.0." + (Math.abs(name.hashCode()) % 250 + 2));
                addresses.addObject().put("type", "Hostname").put("address", name);
            }
            if (PodConditions.status(node, "Ready").isEmpty()) {
                for (String[] c : new String[][]{
                        {"MemoryPressure", "False", "KubeletHasSufficientMemory", "kubelet has sufficient memory available"},
                        {"DiskPressure", "False", "KubeletHasNoDiskPressure", "kubelet has no disk pressure"},
                        {"PIDPressure", "False", "KubeletHasSufficientPID", "kubelet has sufficient PID available"},
                        {"Ready", "True", "KubeletReady", "kubelet is posting ready status"}}) {
                    PodConditions.set(node, c[0], c[1], c[2], c[3], now);
                }
                for (JsonNode c : status.withArray("conditions")) {
                    ObjectNode condition = (ObjectNode) c;
                    condition.remove("lastProbeTime");
                    condition.put("lastHeartbeatTime", Json.timestamp(now));
                }
            }
            return node;
        }
    }
}
