package dev.drainboard.cluster.scheduler;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.drainboard.cluster.ClusterComponent;
import dev.drainboard.cluster.ComponentQueue;
import dev.drainboard.cluster.apiserver.ApiException;
import dev.drainboard.cluster.apiserver.BuiltinResources;
import dev.drainboard.cluster.apiserver.Json;
import dev.drainboard.cluster.apiserver.PodConditions;
import dev.drainboard.cluster.apiserver.store.ObjectStore;
import dev.drainboard.cluster.apiserver.store.WatchEvent;
import dev.drainboard.scheduling.NodeState;
import dev.drainboard.scheduling.PodResources;
import dev.drainboard.scheduling.SchedulingDecision;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Instant;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The embedded cluster's kube-scheduler: binds pending pods with {@link SchedulingDecision}. One pass schedules
 * every pending pod against the nodes and pods of its {@link SchedulerCache} (updated as it binds); a pass runs when a pod needs a
 * node, or when something changes that may make room (a node changes, a pod goes away or finishes), so a pod
 * that fits nowhere is retried exactly when it might fit.
 */
public final class Scheduler implements ClusterComponent {

    public static final String DEFAULT_SCHEDULER = "default-scheduler";
    private static final Logger LOG = LoggerFactory.getLogger(Scheduler.class);
    private static final String PASS = "pass";

    private final ObjectStore store;
    private final ComponentQueue queue;
    private final SchedulerCache cache;

    public Scheduler(ObjectStore store) {
        this.store = store;
        this.queue = new ComponentQueue("scheduler", key -> schedulePending());
        this.cache = new SchedulerCache(store);
    }

    @Override
    public void start() {
        store.addListener(this::onEvent);
        queue.add(PASS);
    }

    /** Runs under the store's write lock: only decides whether a pass is worth it. */
    private void onEvent(WatchEvent event) {
        cache.offer(event);
        if (event.resource() == BuiltinResources.NODES) {
            queue.add(PASS);
        } else if (event.resource() == BuiltinResources.PODS && mayChangeScheduling(event)) {
            queue.add(PASS);
        }
    }

    private static boolean mayChangeScheduling(WatchEvent event) {
        ObjectNode pod = event.object();
        return switch (event.type()) {
            case DELETED -> true;
            case ADDED -> needsNode(pod);
            // A status-only change of a pending pod is (mostly) our own condition write: no new pass for it.
            case MODIFIED -> (needsNode(pod) && !Objects.equals(pod.get("spec"), event.previous().get("spec")))
                    || (isTerminal(pod) && !isTerminal(event.previous()));
        };
    }

    /** Not bound, for this scheduler, not being deleted, not finished. */
    static boolean needsNode(JsonNode pod) {
        JsonNode spec = pod.path("spec");
        String scheduler = spec.path("schedulerName").asText("");
        return spec.path("nodeName").asText("").isEmpty()
                && (scheduler.isEmpty() || scheduler.equals(DEFAULT_SCHEDULER))
                && !pod.path("metadata").has("deletionTimestamp")
                && !isTerminal(pod);
    }

    static boolean isTerminal(JsonNode pod) {
        String phase = pod.path("status").path("phase").asText();
        return phase.equals("Succeeded") || phase.equals("Failed");
    }

    private void schedulePending() {
        cache.refresh();
        List<ObjectNode> pending = cache.pendingPods();
        if (pending.isEmpty()) {
            return;
        }
        // Higher priority first, then oldest first, as kube-scheduler's active queue orders them.
        pending.sort(Comparator.<ObjectNode>comparingInt(p -> -p.path("spec").path("priority").asInt(0))
                .thenComparing(p -> Json.text(p, "metadata", "creationTimestamp")));
        List<NodeState> nodes = cache.nodeStates();
        Map<String, Integer> nodeIndex = new HashMap<>();
        for (int i = 0; i < nodes.size(); i++) {
            nodeIndex.put(nodes.get(i).name(), i);
        }
        for (ObjectNode pod : pending) {
            PodResources requests = cache.requestsOf(pod);
            PodResources nonZeroRequests = cache.nonZeroRequestsOf(pod);
            SchedulingDecision.Outcome outcome;
            try {
                outcome = SchedulingDecision.decide(pod, nodes, requests, nonZeroRequests);
            } catch (RuntimeException e) {
                LOG.warn("cannot schedule pod {}/{}: {}", Json.namespace(pod), Json.name(pod), e.toString());
                continue;
            }
            switch (outcome) {
                case SchedulingDecision.Bind bind -> {
                    ObjectNode bound = bind(pod, bind.nodeName());
                    Integer at = nodeIndex.get(bind.nodeName());
                    // Counted on its node for the rest of this pass; the cache learns of it from the store.
                    if (bound != null && at != null) {
                        nodes.set(at, nodes.get(at).with(bound, requests, nonZeroRequests));
                    }
                }
                case SchedulingDecision.Unschedulable u -> markUnschedulable(pod, u.message());
            }
        }
    }

    /** Binds as the binding subresource does: nodeName and PodScheduled=True, unless someone was quicker. */
    private ObjectNode bind(ObjectNode pod, String nodeName) {
        Instant now = store.clock().instant();
        try {
            ObjectNode result = store.update(BuiltinResources.PODS, Json.namespace(pod), Json.name(pod), p -> {
                if (!Json.uid(p).equals(Json.uid(pod)) || !needsNode(p)) {
                    return p;
                }
                p.with("spec").put("nodeName", nodeName);
                PodConditions.set(p, "PodScheduled", "True", "", "", now);
                return p;
            }, false);
            return nodeName.equals(Json.text(result, "spec", "nodeName")) && Json.uid(result).equals(Json.uid(pod)) ? result : null;
        } catch (ApiException e) {
            if (e.code() == 404) {
                return null;
            }
            throw e;
        }
    }

    private void markUnschedulable(ObjectNode pod, String message) {
        Instant now = store.clock().instant();
        try {
            store.update(BuiltinResources.PODS, Json.namespace(pod), Json.name(pod), p -> {
                if (!Json.uid(p).equals(Json.uid(pod)) || !needsNode(p)) {
                    return p;
                }
                p.with("status").put("phase", "Pending");
                PodConditions.set(p, "PodScheduled", "False", "Unschedulable", message, now);
                return p;
            }, false);
        } catch (ApiException e) {
            if (e.code() != 404) {
                throw e;
            }
        }
    }

    @Override
    public void close() {
        queue.close();
    }
}
