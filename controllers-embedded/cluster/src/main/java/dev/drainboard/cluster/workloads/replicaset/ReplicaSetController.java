package dev.drainboard.cluster.workloads.replicaset;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.drainboard.cluster.apiserver.ApiException;
import dev.drainboard.cluster.apiserver.BuiltinResources;
import dev.drainboard.cluster.apiserver.Json;
import dev.drainboard.cluster.workloads.Pods;
import dev.drainboard.cluster.workloads.WorkloadApi;
import dev.drainboard.cluster.workloads.WorkloadController;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * kube-controller-manager's ReplicaSet controller ({@code pkg/controller/replicaset/replica_set.go}): keeps
 * {@code spec.replicas} active pods from the template — created through the API ({@code generateName "<rs>-"}, the
 * template's labels, a controller reference), surplus ones deleted in kube's order — adopts orphans its selector
 * picks and releases pods it no longer selects, and keeps the status current. A pod being deleted (an eviction
 * during a drain) stops counting at once, so its replacement is created while it terminates.
 */
public final class ReplicaSetController extends WorkloadController {

    public ReplicaSetController(WorkloadApi api) {
        super(api, "replicaset-controller", BuiltinResources.REPLICA_SETS, BuiltinResources.PODS);
    }

    @Override
    protected boolean selects(ObjectNode rs, ObjectNode pod) {
        return selectorMatches(rs, pod);
    }

    @Override
    protected void sync(String namespace, String name) {
        ObjectNode rs = store.get(BuiltinResources.REPLICA_SETS, namespace, name);
        if (rs == null) {
            return;
        }
        List<ObjectNode> active = claim(rs, Pods::isActive);
        Instant now = store.clock().instant();
        ReplicaSetDecision.Failure failure = null;
        if (!Pods.isTerminating(rs)) {
            ReplicaSetDecision.Plan plan = ReplicaSetDecision.manage(rs, active, relatedPods(rs, active), now);
            failure = plan.create() > 0 ? create(rs, plan.create()) : delete(rs, plan.delete());
        }
        writeStatus(rs, ReplicaSetDecision.status(rs, active, failure, now));
        Instant next = ReplicaSetDecision.nextAvailability(rs, active, now);
        if (next != null) {
            // Resync once a ready pod has been ready for minReadySeconds, when it counts as available.
            queue.addAfter(namespace + "/" + name, Math.max(10, Duration.between(now, next).toMillis() + 1000));
        }
        if (failure != null) {
            throw new IllegalStateException(failure.message());
        }
    }

    /** The active pods of every ReplicaSet controlled by the same owner (a Deployment's old and new sets). */
    private List<ObjectNode> relatedPods(ObjectNode rs, List<ObjectNode> own) {
        String controller = Pods.controllerUid(rs);
        if (controller.isEmpty()) {
            return List.of();
        }
        List<ObjectNode> related = new ArrayList<>(own);
        for (ObjectNode sibling : store.list(BuiltinResources.REPLICA_SETS, Json.namespace(rs),
                o -> controller.equals(Pods.controllerUid(o)) && !Json.uid(o).equals(Json.uid(rs)))) {
            for (String key : dependents.controlledBy(Json.uid(sibling))) {
                ObjectNode pod = store.get(BuiltinResources.PODS, Json.namespace(rs), key.substring(key.indexOf('/') + 1));
                if (pod != null && Pods.isActive(pod)) {
                    related.add(pod);
                }
            }
        }
        return related;
    }

    /** {@code slowStartBatch}: 1, 2, 4 … creations, stopping after the first batch with a failure. */
    private ReplicaSetDecision.Failure create(ObjectNode rs, int count) {
        int remaining = count;
        for (int batch = Math.min(remaining, 1); batch > 0; batch = Math.min(2 * batch, remaining)) {
            ApiException error = null;
            for (int i = 0; i < batch; i++) {
                try {
                    ObjectNode pod = api.create(BuiltinResources.PODS, Json.namespace(rs), Pods.fromTemplate(rs.path("spec").path("template"), rs));
                    events.normal(rs, "SuccessfulCreate", "Created pod: " + Json.name(pod));
                } catch (ApiException e) {
                    events.warning(rs, "FailedCreate", "Error creating: " + e.getMessage());
                    if (!namespaceTerminating(e) && error == null) {
                        error = e;
                    }
                }
            }
            if (error != null) {
                return new ReplicaSetDecision.Failure("FailedCreate", error.getMessage());
            }
            remaining -= batch;
        }
        return null;
    }

    private ReplicaSetDecision.Failure delete(ObjectNode rs, List<ObjectNode> pods) {
        ApiException error = null;
        for (JsonNode pod : pods) {
            try {
                if (deletePod(Json.namespace(pod), Json.name(pod))) {
                    events.normal(rs, "SuccessfulDelete", "Deleted pod: " + Json.name(pod));
                }
            } catch (ApiException e) {
                events.warning(rs, "FailedDelete", "Error deleting: " + e.getMessage());
                error = error == null ? e : error;
            }
        }
        return error == null ? null : new ReplicaSetDecision.Failure("FailedDelete", error.getMessage());
    }

    /** A create refused because the namespace is going away is no failure (kube's NamespaceTerminatingCause). */
    private static boolean namespaceTerminating(ApiException e) {
        return e.code() == 403 && String.valueOf(e.getMessage()).contains("because it is being terminated");
    }
}
