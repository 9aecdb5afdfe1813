package dev.drainboard.cluster.kubelet;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.drainboard.cluster.apiserver.ApiException;
import dev.drainboard.cluster.apiserver.BuiltinResources;
import dev.drainboard.cluster.apiserver.Json;
import dev.drainboard.cluster.apiserver.store.ObjectStore;

import java.time.Instant;

/** Core Events from a simulated kubelet ({@code source.component: kubelet}), as {@code kubectl describe} shows them. */
final class KubeletEvents {

    private KubeletEvents() {
    }

    /** Records an event about a pod or a node (node events go to {@code default}, as the kubelet files them). */
    static void record(ObjectStore store, JsonNode involved, String type, String reason, String message, Instant now) {
        String kind = Json.text(involved, "kind");
        String namespace = Json.namespace(involved).isEmpty() ? "default" : Json.namespace(involved);
        ObjectNode event = Json.object();
        ObjectNode meta = event.putObject("metadata");
        meta.put("generateName", Json.name(involved) + ".");
        meta.put("namespace", namespace);
        ObjectNode ref = event.putObject("involvedObject");
        ref.put("kind", kind.isEmpty() ? "Pod" : kind);
        ref.put("apiVersion", "v1");
        ref.put("name", Json.name(involved));
        if (!Json.namespace(involved).isEmpty()) {
            ref.put("namespace", Json.namespace(involved));
        }
        ref.put("uid", Json.uid(involved));
        event.put("type", type);
        event.put("reason", reason);
        event.put("message", message);
        event.putObject("source").put("component", "kubelet").put("host", node(involved));
        event.put("firstTimestamp", Json.timestamp(now));
        event.put("lastTimestamp", Json.timestamp(now));
        event.put("count", 1);
        event.put("reportingComponent", "kubelet");
        event.put("reportingInstance", node(involved));
        try {
            store.create(BuiltinResources.EVENTS, event, false, false);
        } catch (ApiException e) {
            // Events are best effort, as for the real kubelet.
        }
    }

    private static String node(JsonNode involved) {
        String node = Json.text(involved, "spec", "nodeName");
        return node.isEmpty() ? Json.name(involved) : node;
    }
}
