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
import dev.drainboard.cluster.apiserver.store.ObjectStore;
import dev.drainboard.cluster.apiserver.store.WatchEvent;

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
 * SIGTERM, exits after its shutdown delay (at most the grace period) and the pod is removed.
 *
 * <p>Knobs, as annotations on the pod: {@code sim.drainboard.dev/start-delay} and
 * {@code sim.drainboard.dev/shutdown-delay} (Go-style durations such as {@code 500ms}, {@code 2s}).
 */
public final class SimulatedKubelets implements ClusterComponent {

    public static final String START_DELAY = "sim.drainboard.dev/start-delay";
    public static final String SHUTDOWN_DELAY = "sim.drainboard.dev/shutdown-delay";
    static final Duration LEASE_RENEW = Duration.ofSeconds(10);
    static final int LEASE_DURATION_SECONDS = 40;

    private final ObjectStore store;
    private final ComponentQueue queue;
    /**
     * When each terminating pod (by uid) got its SIGTERM: the moment its kubelet first saw the
     * deletionTimestamp. Derived from the timestamp it could be up to a second early, as
     * metav1.Time keeps whole seconds only.
     */
    private final Map<String, Instant> signalled = new ConcurrentHashMap<>();
    private final ScheduledExecutorService leases = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "kubelet-leases");
        t.setDaemon(true);
        return t;
    });

    public SimulatedKubelets(ObjectStore store) {
        this.store = store;
        this.queue = new ComponentQueue("simulated-kubelets", this::sync);
    }

    @Override
    public void start() {
        store.addListener(this::onEvent);
        store.list(BuiltinResources.NODES, null, o -> true).forEach(n -> queue.add("node:" + Json.name(n)));
        store.list(BuiltinResources.PODS, null, o -> true).forEach(p -> queue.add(podKey(p)));
        leases.scheduleAtFixedRate(this::renewLeases, LEASE_RENEW.toMillis(), LEASE_RENEW.toMillis(), TimeUnit.MILLISECONDS);
    }

    private void onEvent(WatchEvent event) {
        if (event.type() == WatchEvent.Type.DELETED) {
            if (event.resource() == BuiltinResources.PODS) {
                signalled.remove(Json.uid(event.object()));
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

    private static String podKey(ObjectNode pod) {
        return "pod:" + Json.namespace(pod) + "/" + Json.name(pod);
    }

    private void sync(String key) {
        if (key.startsWith("node:")) {
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
        JsonNode meta = pod.path("metadata");
        if (meta.has("deletionTimestamp")) {
            terminate(pod, key, now);
            return;
        }
        if (Json.text(pod, "status", "phase").equals("Pending")) {
            Instant created = Json.parseTimestamp(Json.text(pod, "metadata", "creationTimestamp"));
            Duration delay = annotationDuration(pod, START_DELAY, Duration.ZERO);
            Instant due = created == null ? now : created.plus(delay);
            if (now.isBefore(due)) {
                queue.addAfter(key, Duration.between(now, due).toMillis() + 5);
                return;
            }
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

    /** SIGTERM goes out when the kubelet sees the deletionTimestamp; the process exits after its shutdown delay. */
    private void terminate(ObjectNode pod, String key, Instant now) {
        Instant sigterm = signalled.computeIfAbsent(Json.uid(pod), uid -> now);
        // The grace period as it is now: a later delete may have shortened it.
        Instant deadline = sigterm.plusSeconds(pod.path("metadata").path("deletionGracePeriodSeconds").asLong(0));
        Duration shutdown = annotationDuration(pod, SHUTDOWN_DELAY, Duration.ZERO);
        Instant exit = sigterm.plus(shutdown);
        if (exit.isAfter(deadline)) {
            exit = deadline; // killed at the end of the grace period
        }
        if (now.isBefore(exit)) {
            queue.addAfter(key, Duration.between(now, exit).toMillis() + 5);
            return;
        }
        ignoreMissing(() -> store.update(BuiltinResources.PODS, Json.namespace(pod), Json.name(pod), p -> {
            PodStatus.terminated(p, now);
            Json.metadata(p).put("deletionGracePeriodSeconds", 0);
            return p;
        }, false));
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

        static void terminated(ObjectNode pod, Instant now) {
            ObjectNode status = pod.with("status");
            PodConditions.set(pod, "Ready", "False", "PodCompleted", "", now);
            PodConditions.set(pod, "ContainersReady", "False", "PodCompleted", "", now);
            for (JsonNode s : status.withArray("containerStatuses")) {
                ObjectNode state = ((ObjectNode) s).putObject("state");
                ObjectNode terminated = state.putObject("terminated");
                terminated.put("exitCode", 0);
                terminated.put("reason", "Completed");
                terminated.put("finishedAt", Json.timestamp(now));
                ((ObjectNode) s).put("ready", false);
                ((ObjectNode) s).put("started", false);
            }
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
