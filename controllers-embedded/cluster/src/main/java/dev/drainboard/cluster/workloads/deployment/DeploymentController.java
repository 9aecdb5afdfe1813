package dev.drainboard.cluster.workloads.deployment;

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

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * kube-controller-manager's Deployment controller ({@code pkg/controller/deployment}): owns ReplicaSets named
 * {@code <deployment>-<pod-template-hash>}, rolls from old to new ones (RollingUpdate with maxSurge and
 * maxUnavailable, or Recreate), scales them proportionally, keeps revisionHistoryLimit old ones, and keeps the
 * status and its Available and Progressing conditions current. Each sync asks {@link DeploymentDecision}; this loop
 * applies its writes.
 */
public final class DeploymentController extends WorkloadController {

    public DeploymentController(WorkloadApi api) {
        super(api, "deployment-controller", BuiltinResources.DEPLOYMENTS, BuiltinResources.REPLICA_SETS);
    }

    @Override
    protected boolean selects(ObjectNode deployment, ObjectNode rs) {
        return selectorMatches(deployment, rs);
    }

    /** A pod of one of its ReplicaSets went away: a Recreate rollout may go on now. */
    @Override
    protected void onOtherEvent(WatchEvent event) {
        if (event.resource() != BuiltinResources.PODS || event.type() != WatchEvent.Type.DELETED
                || !Pods.controlledByKind(event.object(), "ReplicaSet")) {
            return;
        }
        JsonNode ref = Pods.controllerRef(event.object());
        ObjectNode rs = store.get(BuiltinResources.REPLICA_SETS, Json.namespace(event.object()), ref.path("name").asText());
        String deployment = rs == null ? null : ownerKeyOf(rs);
        if (deployment != null) {
            queue.add(deployment);
        }
    }

    @Override
    protected void sync(String namespace, String name) {
        ObjectNode deployment = store.get(BuiltinResources.DEPLOYMENTS, namespace, name);
        if (deployment == null) {
            return;
        }
        List<ObjectNode> replicaSets = claim(deployment, rs -> true);
        Map<String, List<? extends JsonNode>> pods = isRecreate(deployment) ? podsByReplicaSet(deployment, replicaSets) : Map.of();
        Instant now = store.clock().instant();
        DeploymentDecision.Result result = DeploymentDecision.sync(deployment, replicaSets, pods, now);
        for (DeploymentDecision.Action action : result.actions()) {
            switch (action) {
                case DeploymentDecision.CreateReplicaSet create -> createReplicaSet(deployment, create.replicaSet());
                case DeploymentDecision.UpdateReplicaSet update -> updateReplicaSet(namespace, update);
                case DeploymentDecision.DeleteReplicaSet delete -> deleteReplicaSet(namespace, delete);
                case DeploymentDecision.Event e -> {
                    if (e.type().equals("Warning")) {
                        events.warning(deployment, e.reason(), e.message());
                    } else {
                        events.normal(deployment, e.reason(), e.message());
                    }
                }
            }
        }
        if (result.revision() != null || result.status() != null) {
            writeDeployment(deployment, result.revision(), result.status());
        }
        if (result.requeueAfter() != null) {
            queue.addAfter(namespace + "/" + name, result.requeueAfter().toMillis());
        }
    }

    private static boolean isRecreate(JsonNode deployment) {
        return deployment.path("spec").path("strategy").path("type").asText("").equals("Recreate");
    }

    /** The pods of each of its ReplicaSets, by ReplicaSet uid ({@code getPodMapForDeployment}). */
    private Map<String, List<? extends JsonNode>> podsByReplicaSet(ObjectNode deployment, List<ObjectNode> replicaSets) {
        Map<String, List<JsonNode>> byUid = new HashMap<>();
        for (ObjectNode rs : replicaSets) {
            byUid.put(Json.uid(rs), new ArrayList<>());
        }
        for (ObjectNode pod : store.list(BuiltinResources.PODS, Json.namespace(deployment), p -> selectorMatches(deployment, p))) {
            List<JsonNode> list = byUid.get(Pods.controllerUid(pod));
            if (list != null) {
                list.add(pod);
            }
        }
        return new HashMap<>(byUid);
    }

    private void createReplicaSet(ObjectNode deployment, ObjectNode rs) {
        try {
            api.create(BuiltinResources.REPLICA_SETS, Json.namespace(deployment), rs);
        } catch (ApiException e) {
            if (e.code() == 409) {
                ObjectNode existing = store.get(BuiltinResources.REPLICA_SETS, Json.namespace(deployment), Json.name(rs));
                if (existing != null && Pods.controllerUid(existing).equals(Json.uid(deployment))
                        && TemplateHashes.equalIgnoringHash(existing.path("spec").path("template"), deployment.path("spec").path("template"))) {
                    throw new IllegalStateException("replica set " + Json.name(rs) + " exists already; looking again");
                }
                // A hash collision: another template had this name. Count it, so the next hash differs.
                store.update(BuiltinResources.DEPLOYMENTS, Json.namespace(deployment), Json.name(deployment), d -> {
                    ObjectNode status = d.with("status");
                    status.put("collisionCount", status.path("collisionCount").asInt(0) + 1);
                    return d;
                }, false);
                throw new IllegalStateException("hash collision for replica set " + Json.name(rs));
            }
            String message = "Failed to create new replica set \"" + Json.name(rs) + "\": " + e.getMessage();
            if (DeploymentDecision.hasProgressDeadline(deployment)) {
                Instant now = store.clock().instant();
                store.update(BuiltinResources.DEPLOYMENTS, Json.namespace(deployment), Json.name(deployment), d -> {
                    ObjectNode c = Json.object();
                    c.put("type", "Progressing");
                    c.put("status", "False");
                    c.put("lastUpdateTime", Json.timestamp(now));
                    c.put("lastTransitionTime", Json.timestamp(now));
                    c.put("reason", "ReplicaSetCreateError");
                    c.put("message", message);
                    DeploymentDecision.setCondition(d.with("status"), c);
                    return d;
                }, false);
            }
            events.warning(deployment, "ReplicaSetCreateError", message);
            throw e;
        }
    }

    private void updateReplicaSet(String namespace, DeploymentDecision.UpdateReplicaSet update) {
        try {
            store.update(BuiltinResources.REPLICA_SETS, namespace, update.name(), rs -> {
                if (!Json.uid(rs).equals(update.uid())) {
                    return rs;
                }
                ObjectNode spec = rs.with("spec");
                spec.put("replicas", update.replicas());
                if (update.minReadySeconds() == 0) {
                    spec.remove("minReadySeconds");
                } else {
                    spec.put("minReadySeconds", update.minReadySeconds());
                }
                ObjectNode annotations = Json.metadata(rs).with("annotations");
                update.annotations().forEach(annotations::put);
                return rs;
            }, false);
        } catch (ApiException e) {
            if (e.code() != 404) {
                throw e;
            }
        }
    }

    private void deleteReplicaSet(String namespace, DeploymentDecision.DeleteReplicaSet delete) {
        try {
            api.delete(BuiltinResources.REPLICA_SETS, namespace, delete.name());
        } catch (ApiException e) {
            if (e.code() != 404) {
                throw e;
            }
        }
    }

    /** The revision annotation and the status, as the controller's UpdateStatus writes both. */
    private void writeDeployment(ObjectNode deployment, String revision, ObjectNode status) {
        try {
            store.update(BuiltinResources.DEPLOYMENTS, Json.namespace(deployment), Json.name(deployment), d -> {
                if (!Json.uid(d).equals(Json.uid(deployment))) {
                    return d;
                }
                if (revision != null) {
                    Json.metadata(d).with("annotations").put(DeploymentDecision.REVISION, revision);
                }
                if (status != null) {
                    d.set("status", status);
                }
                return d;
            }, false);
        } catch (ApiException e) {
            if (e.code() != 404) {
                throw e;
            }
        }
    }
}
