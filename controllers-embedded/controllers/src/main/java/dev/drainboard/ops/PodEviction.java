package dev.drainboard.ops;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.HttpResponse;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.Objects;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;

/**
 * POSTs {@code policy/v1} Evictions, never deletes: the eviction path is where KubeVirt's webhook turns an eviction
 * into a live migration and where PodDisruptionBudgets hold pods. The client's own 429 retries would hide the
 * answers, so this reads each response itself and hands it back verbatim.
 */
public final class PodEviction {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final KubernetesClient client;

    public PodEviction(KubernetesClient client) {
        this.client = Objects.requireNonNull(client);
    }

    /** Evicts one pod and waits for the answer. */
    public EvictionResponse evict(String namespace, String pod, OptionalLong gracePeriodSeconds, boolean dryRun) {
        return evictAsync(namespace, pod, null, gracePeriodSeconds, dryRun).join();
    }

    /**
     * @param uid when set, only this incarnation of the pod is evicted (a precondition: a pod recreated under
     *            the same name answers 409 instead of being evicted by mistake)
     */
    public CompletableFuture<EvictionResponse> evictAsync(String namespace, String pod, String uid,
                                                           OptionalLong gracePeriodSeconds, boolean dryRun) {
        ObjectNode body = JSON.createObjectNode();
        body.put("apiVersion", "policy/v1").put("kind", "Eviction");
        body.putObject("metadata").put("name", pod).put("namespace", namespace);
        if (gracePeriodSeconds.isPresent() || dryRun || uid != null) {
            ObjectNode options = body.putObject("deleteOptions");
            gracePeriodSeconds.ifPresent(seconds -> options.put("gracePeriodSeconds", seconds));
            if (dryRun) {
                options.putArray("dryRun").add("All");
            }
            if (uid != null) {
                options.putObject("preconditions").put("uid", uid);
            }
        }
        String master = client.getMasterUrl().toString();
        String url = (master.endsWith("/") ? master : master + "/") + "api/v1/namespaces/" + encode(namespace)
                + "/pods/" + encode(pod) + "/eviction" + (dryRun ? "?dryRun=All" : "");
        HttpRequest request;
        try {
            request = client.getHttpClient().newHttpRequestBuilder()
                    .uri(url)
                    .post("application/json", body.toString())
                    .build();
        } catch (RuntimeException e) {
            return CompletableFuture.completedFuture(new EvictionResponse(0, "", OpsException.rootMessage(e)));
        }
        return client.getHttpClient().sendAsync(request, String.class)
                .thenApply(PodEviction::read)
                .exceptionally(e -> new EvictionResponse(0, "", "cannot reach the cluster: " + OpsException.rootMessage(e)));
    }

    private static EvictionResponse read(HttpResponse<String> response) {
        String reason = "";
        String message = "";
        try {
            JsonNode status = JSON.readTree(response.body() == null ? "" : response.body());
            if (status != null) {
                reason = status.path("reason").asText("");
                message = status.path("message").asText("");
            }
        } catch (Exception e) {
            message = response.body() == null ? "" : response.body().strip();
        }
        return new EvictionResponse(response.code(), reason, message);
    }

    private static String encode(String segment) {
        return URLEncoder.encode(segment, StandardCharsets.UTF_8).replace("+", "%20");
    }
}
