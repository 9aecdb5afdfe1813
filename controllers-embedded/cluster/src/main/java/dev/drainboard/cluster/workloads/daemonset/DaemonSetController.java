package dev.drainboard.cluster.workloads.daemonset;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.drainboard.cluster.apiserver.ApiException;
import dev.drainboard.cluster.apiserver.BuiltinResources;
import dev.drainboard.cluster.apiserver.Json;
import dev.drainboard.cluster.apiserver.store.WatchEvent;
import dev.drainboard.cluster.workloads.Pods;
import dev.drainboard.cluster.workloads.TemplateHashes;
import dev.drainboard.cluster.workloads.WorkloadApi;
import dev.drainboard.cluster.workloads.WorkloadController;

import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * kube-controller-manager's DaemonSet controller ({@code pkg/controller/daemon}): one pod per node that should run
 * it, created — as current kube does — unbound, with a required node affinity on the node's name and the daemon
 * tolerations, for kube-scheduler to bind (so a cordoned node keeps its daemon pods); a pod deleted or evicted is
 * created again on its node once gone; failed pods are deleted (with a per-node backoff); rolling updates; and the
 * status {@code kubectl rollout status ds/NAME} reads. Each sync asks {@link DaemonSetDecision}.
 *
 * <p>ControllerRevisions are not stored as objects: a pod's {@code controller-revision-hash} is the hash of the
 * template ({@link TemplateHashes#revisionHash}); a pod also counts as updated when its
 * {@code pod-template-generation} label is the set's {@code deprecated.daemonset.template.generation}, as in kube.
 */
public final class DaemonSetController extends WorkloadController {

    private static final Duration INITIAL_BACKOFF = Duration.ofSeconds(1);
    private static final Duration MAX_BACKOFF = Duration.ofMinutes(15);

    /** flowcontrol.Backoff per "daemonset uid/node": the current delay and when it was last raised. */
    private record Backoff(Duration delay, Instant since) {
    }

    private final Map<String, Backoff> failedPodsBackoff = new ConcurrentHashMap<>();

    public DaemonSetController(WorkloadApi api) {
        super(api, "daemonset-controller", BuiltinResources.DAEMON_SETS, BuiltinResources.PODS);
    }

    @Override
    protected boolean selects(ObjectNode ds, ObjectNode pod) {
        return selectorMatches(ds, pod);
    }

    /** A node came, went, or changed what decides where daemon pods run: every DaemonSet looks again. */
    @Override
    protected void onOtherEvent(WatchEvent event) {
        if (event.resource() != BuiltinResources.NODES) {
            return;
        }
        ObjectNode previous = event.previous();
        boolean relevant = event.type() != WatchEvent.Type.MODIFIED || previous == null
                || !Objects.equals(previous.path("metadata").get("labels"), event.object().path("metadata").get("labels"))
                || !Objects.equals(previous.path("spec").get("taints"), event.object().path("spec").get("taints"));
        if (relevant) {
            enqueueAll(null);
        }
    }

    @Override
    protected void sync(String namespace, String name) {
        ObjectNode ds = store.get(BuiltinResources.DAEMON_SETS, namespace, name);
        if (ds == null) {
            return;
        }
        List<ObjectNode> pods = claim(ds, p -> true);
        if (Pods.isTerminating(ds)) {
            return;
        }
        List<ObjectNode> nodes = store.list(BuiltinResources.NODES, null, o -> true);
        String hash = TemplateHashes.revisionHash(ds.path("spec").path("template"));
        Map<String, List<ObjectNode>> byNode = DaemonSetDecision.byNode(pods);
        Instant now = store.clock().instant();

        DaemonSetDecision.Plan plan = DaemonSetDecision.manage(ds, nodes, byNode, hash, now, nodesInBackoff(ds, now));
        RuntimeException failure = apply(ds, hash, plan);
        plan.failedOn().forEach(node -> raiseBackoff(ds, node, now));
        if (plan.isEmpty() && failure == null
                && ds.path("spec").path("updateStrategy").path("type").asText("RollingUpdate").equals("RollingUpdate")) {
            failure = apply(ds, hash, DaemonSetDecision.rollingUpdate(ds, nodes, byNode, hash, now));
        }
        ObjectNode status = DaemonSetDecision.status(ds, nodes, byNode, hash, now, true);
        writeStatus(ds, status);
        long minReady = ds.path("spec").path("minReadySeconds").asLong(0);
        if (minReady > 0 && status.path("numberReady").asInt(0) != status.path("numberAvailable").asInt(0)) {
            queue.addAfter(namespace + "/" + name, minReady * 1000);
        }
        if (plan.backingOff()) {
            queue.addAfter(namespace + "/" + name, INITIAL_BACKOFF.toMillis());
        }
        if (failure != null) {
            throw failure;
        }
    }

    /** {@code syncNodes}: creates, then deletes; the first failure is returned after trying them all. */
    private RuntimeException apply(ObjectNode ds, String hash, DaemonSetDecision.Plan plan) {
        RuntimeException failure = null;
        plan.events().forEach(e -> {
            if (e.type().equals("Warning")) {
                events.warning(ds, e.reason(), e.message());
            } else {
                events.normal(ds, e.reason(), e.message());
            }
        });
        for (String node : plan.createOn()) {
            try {
                ObjectNode pod = api.create(BuiltinResources.PODS, Json.namespace(ds), DaemonSetDecision.podFor(ds, hash, node));
                events.normal(ds, "SuccessfulCreate", "Created pod: " + Json.name(pod));
            } catch (ApiException e) {
                events.warning(ds, "FailedCreate", "Error creating: " + e.getMessage());
                failure = failure == null ? e : failure;
            }
        }
        for (String pod : plan.delete()) {
            try {
                if (deletePod(Json.namespace(ds), pod)) {
                    events.normal(ds, "SuccessfulDelete", "Deleted pod: " + pod);
                }
            } catch (ApiException e) {
                events.warning(ds, "FailedDelete", "Error deleting: " + e.getMessage());
                failure = failure == null ? e : failure;
            }
        }
        return failure;
    }

    private Set<String> nodesInBackoff(JsonNode ds, Instant now) {
        Set<String> nodes = new HashSet<>();
        String prefix = Json.uid(ds) + "/";
        failedPodsBackoff.forEach((key, backoff) -> {
            if (key.startsWith(prefix) && now.isBefore(backoff.since().plus(backoff.delay()))) {
                nodes.add(key.substring(prefix.length()));
            }
        });
        return nodes;
    }

    /** {@code Backoff.Next}: 1 s, doubling to 15 min; forgotten after twice the maximum without a failure. */
    private void raiseBackoff(JsonNode ds, String node, Instant now) {
        failedPodsBackoff.compute(Json.uid(ds) + "/" + node, (key, old) -> {
            if (old == null || now.isAfter(old.since().plus(MAX_BACKOFF.multipliedBy(2)))) {
                return new Backoff(INITIAL_BACKOFF, now);
            }
            Duration next = old.delay().multipliedBy(2);
            return new Backoff(next.compareTo(MAX_BACKOFF) > 0 ? MAX_BACKOFF : next, now);
        });
    }

    @Override
    protected void forget(String uid) {
        failedPodsBackoff.keySet().removeIf(key -> key.startsWith(uid + "/"));
    }
}
