package dev.drainboard.cluster.workloads;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.drainboard.cluster.apiserver.ApiException;
import dev.drainboard.cluster.apiserver.ApiRequest;
import dev.drainboard.cluster.apiserver.ApiServer;
import dev.drainboard.cluster.apiserver.Json;
import dev.drainboard.cluster.apiserver.ResourceType;
import dev.drainboard.cluster.apiserver.ResponseChannel;
import dev.drainboard.cluster.apiserver.store.ObjectStore;

import java.util.Map;

/**
 * How the workload controllers write what kube-controller-manager writes through kube-apiserver: creates and deletes
 * go through the API server's request handling in-process, so a pod a controller makes gets the API's defaults,
 * admission webhooks, the terminating-namespace refusal and graceful deletion, exactly as one from kubectl would.
 * Reads, and the controllers' own status and owner-reference writes, use the store directly, as the other parts of
 * the embedded cluster do.
 */
public final class WorkloadApi {

    private final ApiServer api;

    public WorkloadApi(ApiServer api) {
        this.api = api;
    }

    public ObjectStore store() {
        return api.store();
    }

    /** POST to the type's collection; throws the API's refusal as an {@link ApiException}. */
    public ObjectNode create(ResourceType type, String namespace, ObjectNode object) {
        return call("POST", collection(type, namespace), Json.bytes(object));
    }

    /** DELETE with the default (background) propagation; a pod on a node terminates gracefully. */
    public ObjectNode delete(ResourceType type, String namespace, String name) {
        return call("DELETE", collection(type, namespace) + "/" + name, new byte[0]);
    }

    private static String collection(ResourceType type, String namespace) {
        String prefix = type.group().isEmpty() ? "/api/" + type.version() : "/apis/" + type.group() + "/" + type.version();
        return prefix + (type.namespaced() ? "/namespaces/" + namespace : "") + "/" + type.plural();
    }

    private ObjectNode call(String method, String path, byte[] body) {
        Response response = new Response();
        api.handle(new ApiRequest(method, path, Map.of(), "application/json", "application/json", body), response);
        JsonNode answer = response.body == null ? Json.object() : parse(response.body);
        if (response.code >= 300) {
            ObjectNode details = answer.get("details") instanceof ObjectNode d ? d : null;
            throw new ApiException(response.code, answer.path("reason").asText(""), answer.path("message").asText(""), details);
        }
        return answer instanceof ObjectNode object ? object : Json.object();
    }

    private static JsonNode parse(byte[] body) {
        try {
            return Json.MAPPER.readTree(body);
        } catch (java.io.IOException e) {
            return Json.object();
        }
    }

    /** One complete answer; the handler answers create and delete in the calling thread. */
    private static final class Response implements ResponseChannel {
        private int code = 500;
        private byte[] body;

        @Override
        public void respond(int code, String contentType, byte[] body) {
            this.code = code;
            this.body = body;
        }

        @Override
        public void startStream(String contentType) {
            throw new UnsupportedOperationException("no watches in-process");
        }

        @Override
        public void sendFrame(byte[] frame) {
            throw new UnsupportedOperationException("no watches in-process");
        }

        @Override
        public void endStream() {
        }

        @Override
        public void onClose(Runnable action) {
        }
    }
}
