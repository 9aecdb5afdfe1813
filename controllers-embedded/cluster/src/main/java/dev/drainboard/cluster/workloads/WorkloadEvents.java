package dev.drainboard.cluster.workloads;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.drainboard.cluster.apiserver.ApiException;
import dev.drainboard.cluster.apiserver.BuiltinResources;
import dev.drainboard.cluster.apiserver.Json;
import dev.drainboard.cluster.apiserver.store.ObjectStore;

import java.time.Instant;

/**
 * Core Events from a kube-controller-manager controller ({@code source.component: replicaset-controller} …), as
 * client-go's event recorder files them and {@code kubectl describe} shows them.
 */
public final class WorkloadEvents {

    private final ObjectStore store;
    private final String component;

    public WorkloadEvents(ObjectStore store, String component) {
        this.store = store;
        this.component = component;
    }

    public void normal(JsonNode involved, String reason, String message) {
        record(involved, "Normal", reason, message);
    }

    public void warning(JsonNode involved, String reason, String message) {
        record(involved, "Warning", reason, message);
    }

    private void record(JsonNode involved, String type, String reason, String message) {
        Instant now = store.clock().instant();
        ObjectNode event = Json.object();
        ObjectNode meta = event.putObject("metadata");
        meta.put("generateName", Json.name(involved) + ".");
        meta.put("namespace", Json.namespace(involved).isEmpty() ? "default" : Json.namespace(involved));
        ObjectNode ref = event.putObject("involvedObject");
        ref.put("kind", Json.text(involved, "kind"));
        ref.put("namespace", Json.namespace(involved));
        ref.put("name", Json.name(involved));
        ref.put("uid", Json.uid(involved));
        ref.put("apiVersion", Json.text(involved, "apiVersion"));
        ref.put("resourceVersion", Json.text(involved, "metadata", "resourceVersion"));
        event.put("type", type);
        event.put("reason", reason);
        event.put("message", message);
        event.putObject("source").put("component", component);
        event.put("firstTimestamp", Json.timestamp(now));
        event.put("lastTimestamp", Json.timestamp(now));
        event.put("count", 1);
        event.put("reportingComponent", component);
        event.put("reportingInstance", "");
        try {
            store.create(BuiltinResources.EVENTS, event, false, false);
        } catch (ApiException e) {
            // Events are best effort, as client-go's recorder makes them.
        }
    }
}
