package dev.drainboard.cluster.scheduler;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.drainboard.cluster.apiserver.BuiltinResources;
import dev.drainboard.cluster.apiserver.Json;
import dev.drainboard.cluster.apiserver.store.ObjectStore;
import dev.drainboard.cluster.apiserver.store.WatchEvent;
import dev.drainboard.scheduling.NodeState;
import dev.drainboard.scheduling.PodResources;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * The scheduler's view of nodes and pods, kept up to date from the store's changes instead of re-read for every
 * pass (kube-scheduler keeps such a cache too): each pod's requests are parsed once per version, and a node's
 * {@link NodeState} is rebuilt only when a pod on it or the node itself changed.
 *
 * <p>{@link #offer} runs under the store's write lock and only queues the change; everything else runs on the
 * scheduler's one thread. The first {@link #refresh} reads the store whole; changes queued before it are applied
 * after it only when newer than what it read.
 */
final class SchedulerCache {

    private record PodEntry(ObjectNode pod, long resourceVersion, String nodeName,
                            PodResources requests, PodResources nonZeroRequests) {
    }

    private final ObjectStore store;
    private final ConcurrentLinkedQueue<WatchEvent> changes = new ConcurrentLinkedQueue<>();
    private final Map<String, PodEntry> pods = new HashMap<>();
    private final Map<String, Map<String, JsonNode>> podsByNode = new HashMap<>();
    private final Set<String> pending = new HashSet<>();
    private final Map<String, ObjectNode> nodes = new LinkedHashMap<>();
    private final Map<String, NodeState> nodeStates = new LinkedHashMap<>();
    private final Set<String> dirtyNodes = new HashSet<>();
    private boolean loaded;

    SchedulerCache(ObjectStore store) {
        this.store = store;
    }

    /** Under the store's write lock: remembers a pod or node change for the next refresh. */
    void offer(WatchEvent event) {
        if (event.resource() == BuiltinResources.PODS || event.resource() == BuiltinResources.NODES) {
            changes.add(event);
        }
    }

    /** Applies what changed since the last call (reads the store whole the first time). */
    void refresh() {
        if (!loaded) {
            loaded = true;
            for (ObjectNode node : store.list(BuiltinResources.NODES, null, o -> true)) {
                putNode(node, Json.resourceVersion(node));
            }
            for (ObjectNode pod : store.list(BuiltinResources.PODS, null, o -> true)) {
                putPod(pod, Json.resourceVersion(pod));
            }
        }
        WatchEvent e;
        while ((e = changes.poll()) != null) {
            if (e.resource() == BuiltinResources.NODES) {
                String name = Json.name(e.object());
                ObjectNode known = nodes.get(name);
                if (known != null && Json.resourceVersion(known) >= e.resourceVersion()) {
                    continue;
                }
                if (e.type() == WatchEvent.Type.DELETED) {
                    if (known != null) {
                        nodes.remove(name);
                        nodeStates.remove(name);
                        dirtyNodes.remove(name);
                    }
                } else {
                    putNode(e.object(), e.resourceVersion());
                }
            } else {
                String uid = Json.uid(e.object());
                PodEntry known = pods.get(uid);
                if (known != null && known.resourceVersion() >= e.resourceVersion()) {
                    continue;
                }
                if (e.type() == WatchEvent.Type.DELETED) {
                    removePod(uid);
                } else {
                    putPod(e.object(), e.resourceVersion());
                }
            }
        }
        for (String name : dirtyNodes) {
            ObjectNode node = nodes.get(name);
            if (node != null) {
                nodeStates.put(name, NodeState.of(node, List.copyOf(podsByNode.getOrDefault(name, Map.of()).values()),
                        this::requestsOf, this::nonZeroRequestsOf));
            }
        }
        dirtyNodes.clear();
    }

    private void putNode(ObjectNode node, long rv) {
        String name = Json.name(node);
        if (!nodes.containsKey(name)) {
            nodeStates.put(name, null); // keeps the nodes' order: the order they were first seen
        }
        nodes.put(name, node);
        dirtyNodes.add(name);
    }

    private void putPod(ObjectNode pod, long rv) {
        String uid = Json.uid(pod);
        removePod(uid);
        String node = Json.text(pod, "spec", "nodeName");
        boolean holdsNode = !node.isEmpty() && !Scheduler.isTerminal(pod);
        PodEntry entry = new PodEntry(pod, rv, holdsNode ? node : null,
                PodResources.requestsOf(pod), PodResources.nonZeroRequestsOf(pod));
        pods.put(uid, entry);
        if (holdsNode) {
            podsByNode.computeIfAbsent(node, n -> new LinkedHashMap<>()).put(uid, pod);
            dirtyNodes.add(node);
        }
        if (Scheduler.needsNode(pod)) {
            pending.add(uid);
        }
    }

    private void removePod(String uid) {
        PodEntry old = pods.remove(uid);
        if (old == null) {
            return;
        }
        pending.remove(uid);
        if (old.nodeName() != null) {
            Map<String, JsonNode> onNode = podsByNode.get(old.nodeName());
            if (onNode != null) {
                onNode.remove(uid);
                if (onNode.isEmpty()) {
                    podsByNode.remove(old.nodeName());
                }
            }
            dirtyNodes.add(old.nodeName());
        }
    }

    /** The pods that need a node, as last seen. */
    List<ObjectNode> pendingPods() {
        List<ObjectNode> list = new ArrayList<>(pending.size());
        for (String uid : pending) {
            list.add(pods.get(uid).pod());
        }
        return list;
    }

    /** Every node with the pods on it, in a list of its own that the caller may change. */
    List<NodeState> nodeStates() {
        List<NodeState> list = new ArrayList<>(nodeStates.size());
        for (NodeState s : nodeStates.values()) {
            if (s != null) {
                list.add(s);
            }
        }
        return list;
    }

    PodResources requestsOf(JsonNode pod) {
        PodEntry e = pods.get(Json.uid(pod));
        return e != null && e.pod() == pod ? e.requests() : PodResources.requestsOf(pod);
    }

    PodResources nonZeroRequestsOf(JsonNode pod) {
        PodEntry e = pods.get(Json.uid(pod));
        return e != null && e.pod() == pod ? e.nonZeroRequests() : PodResources.nonZeroRequestsOf(pod);
    }
}
