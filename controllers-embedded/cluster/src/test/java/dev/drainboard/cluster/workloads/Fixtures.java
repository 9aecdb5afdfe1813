package dev.drainboard.cluster.workloads;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.drainboard.cluster.apiserver.Json;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Instant;

/** Objects for the workload decisions' tables, from YAML. */
public final class Fixtures {

    public static final Instant NOW = Instant.parse("2025-06-01T12:00:00Z");

    private Fixtures() {
    }

    public static ObjectNode yaml(String text) {
        return (ObjectNode) tree(text);
    }

    /** Any YAML value; compare its {@code toString()} (JSON) with a result's, numbers of any width alike. */
    public static com.fasterxml.jackson.databind.JsonNode tree(String text) {
        try {
            return Json.YAML.readTree(text);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * A pod: {@code node} "" for unscheduled, {@code phase}, ready since {@code readyAgo} seconds (negative: not
     * ready), created {@code createdAgo} seconds ago, owned by {@code owner} (uid, "" for none).
     */
    public static ObjectNode pod(String name, String node, String phase, long readyAgo, long createdAgo, String owner) {
        ObjectNode pod = yaml("""
                apiVersion: v1
                kind: Pod
                metadata: {name: %s, namespace: ns, uid: uid-%s, labels: {app: web}}
                spec: {containers: [{name: main, image: app}]}
                status: {phase: %s}
                """.formatted(name, name, phase));
        Json.metadata(pod).put("creationTimestamp", Json.timestamp(NOW.minusSeconds(createdAgo)));
        if (!node.isEmpty()) {
            pod.with("spec").put("nodeName", node);
        }
        if (readyAgo >= 0) {
            ObjectNode c = pod.with("status").withArray("conditions").addObject();
            c.put("type", "Ready").put("status", "True").put("lastTransitionTime", Json.timestamp(NOW.minusSeconds(readyAgo)));
        }
        if (!owner.isEmpty()) {
            Json.metadata(pod).withArray("ownerReferences").addObject().put("apiVersion", "apps/v1").put("kind", "ReplicaSet")
                    .put("name", "owner").put("uid", owner).put("controller", true).put("blockOwnerDeletion", true);
        }
        return pod;
    }
}
