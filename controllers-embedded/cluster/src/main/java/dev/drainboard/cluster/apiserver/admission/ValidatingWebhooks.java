package dev.drainboard.cluster.apiserver.admission;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.drainboard.cluster.apiserver.ApiException;
import dev.drainboard.cluster.apiserver.BuiltinResources;
import dev.drainboard.cluster.apiserver.Json;
import dev.drainboard.cluster.apiserver.select.LabelSelector;
import dev.drainboard.cluster.apiserver.select.SelectorException;
import dev.drainboard.cluster.apiserver.store.ObjectStore;
import dev.drainboard.cluster.apiserver.store.WatchEvent;
import dev.drainboard.pki.TrustedClients;

import javax.net.ssl.SSLContext;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * Calls the validating admission webhooks registered in ValidatingWebhookConfigurations, as
 * kube-apiserver does: rule matching, AdmissionReview v1 (or v1beta1) over HTTPS, timeoutSeconds,
 * failurePolicy, sideEffects with dry-run, and denials turned into the familiar
 * {@code admission webhook "<name>" denied the request: <message>} errors.
 */
public final class ValidatingWebhooks {

    private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(5);

    private final ObjectStore store;
    private final String username;
    /** One HTTP client per CA bundle: TLS sessions and connections are reused across calls. */
    private final Map<String, HttpClient> clients = new ConcurrentHashMap<>();

    /** Builds the clients of newly registered webhooks ahead of their first call. */
    private final ExecutorService preparing = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "webhook-clients");
        t.setDaemon(true);
        return t;
    });

    public ValidatingWebhooks(ObjectStore store, String username) {
        this.store = store;
        this.username = username;
        // A client's TLS set-up (trust store, SSLContext) costs a few hundred milliseconds on a cold JVM: pay it when
        // the webhook is registered, not on the first eviction of a drain.
        store.addListener(event -> {
            if (event.resource() == BuiltinResources.VALIDATING_WEBHOOK_CONFIGURATIONS && event.type() != WatchEvent.Type.DELETED) {
                ObjectNode configuration = event.object();
                preparing.execute(() -> prepare(configuration));
            }
        });
    }

    private void prepare(ObjectNode configuration) {
        for (JsonNode webhook : configuration.path("webhooks")) {
            JsonNode clientConfig = webhook.path("clientConfig");
            try {
                URI target = WebhookRules.target(clientConfig, store);
                if (!"https".equals(target.getScheme())) {
                    continue; // never a plaintext connection, not even to warm up
                }
                HttpClient client = clients.computeIfAbsent(clientConfig.path("caBundle").asText(""), ValidatingWebhooks::newClient);
                // One request that admits nothing (any answer will do) opens a TLS connection and warms both ends'
                // TLS code, so the first real call does not pay for it.
                client.sendAsync(HttpRequest.newBuilder(target).timeout(Duration.ofSeconds(2))
                        .method("OPTIONS", HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.discarding());
            } catch (RuntimeException e) {
                // A bad CA bundle or URL: the first call will say so, in the API's words.
            }
        }
    }

    /** Throws the API error a webhook's denial or failure produces; returns when every webhook allows. */
    public void admit(AdmissionAttributes attributes) {
        for (ObjectNode configuration : store.list(BuiltinResources.VALIDATING_WEBHOOK_CONFIGURATIONS, "", o -> true)) {
            for (JsonNode webhook : configuration.path("webhooks")) {
                if (WebhookRules.matches(webhook, attributes) && namespaceMatches(webhook, attributes)) {
                    call(webhook, attributes);
                }
            }
        }
    }

    private boolean namespaceMatches(JsonNode webhook, AdmissionAttributes attributes) {
        JsonNode selector = webhook.get("namespaceSelector");
        if (selector == null || selector.isEmpty() || !attributes.resource().namespaced()) {
            return true;
        }
        ObjectNode namespace = store.get(BuiltinResources.NAMESPACES, null, attributes.namespace());
        try {
            return LabelSelector.fromJson(selector).matchesObject(namespace == null ? Json.object() : namespace);
        } catch (SelectorException e) {
            return true;
        }
    }

    private void call(JsonNode webhook, AdmissionAttributes attributes) {
        String name = webhook.path("name").asText();
        String sideEffects = webhook.path("sideEffects").asText("Unknown");
        if (attributes.dryRun() && !(sideEffects.equals("None") || sideEffects.equals("NoneOnDryRun"))) {
            throw new ApiException(400, "BadRequest",
                    "admission webhook \"" + name + "\" does not support dry run", null);
        }
        boolean failOpen = "Ignore".equals(webhook.path("failurePolicy").asText("Fail"));
        String reviewVersion = reviewVersion(webhook);
        ObjectNode review = AdmissionReviews.request(reviewVersion, UUID.randomUUID().toString(), attributes, username);
        JsonNode response;
        try {
            response = post(webhook, review);
        } catch (WebhookCallException e) {
            if (failOpen) {
                return;
            }
            throw ApiException.internal("failed calling webhook \"" + name + "\": " + e.getMessage());
        }
        JsonNode result = response.path("response");
        if (result.path("allowed").asBoolean(false)) {
            return;
        }
        throw denial(name, result.path("status"));
    }

    /** kube-apiserver's rules for a rejection: code at least 400, message prefixed with who denied it. */
    static ApiException denial(String webhookName, JsonNode status) {
        int code = status.path("code").asInt(0);
        if (code < 400) {
            code = 400;
        }
        String deniedBy = "admission webhook \"" + webhookName + "\" denied the request";
        String message = status.path("message").asText("");
        String reason = status.path("reason").asText("");
        String text = !message.isEmpty() ? deniedBy + ": " + message
                : !reason.isEmpty() ? deniedBy + ": " + reason
                : deniedBy + " without explanation";
        ObjectNode details = status.has("details") ? (ObjectNode) status.get("details").deepCopy() : null;
        return new ApiException(code, reason.isEmpty() ? reasonFor(code) : reason, text, details);
    }

    private static String reasonFor(int code) {
        return switch (code) {
            case 401 -> "Unauthorized";
            case 403 -> "Forbidden";
            case 404 -> "NotFound";
            case 409 -> "Conflict";
            case 422 -> "Invalid";
            case 429 -> "TooManyRequests";
            default -> code >= 500 ? "InternalError" : "BadRequest";
        };
    }

    private static String reviewVersion(JsonNode webhook) {
        for (JsonNode v : webhook.path("admissionReviewVersions")) {
            if (v.asText().equals("v1") || v.asText().equals("v1beta1")) {
                return v.asText();
            }
        }
        return "v1";
    }

    private JsonNode post(JsonNode webhook, ObjectNode review) throws WebhookCallException {
        JsonNode clientConfig = webhook.path("clientConfig");
        URI uri = WebhookRules.target(clientConfig, store);
        if (!"https".equals(uri.getScheme())) {
            // kube-apiserver refuses to store such a configuration; one that got here anyway is never called in clear
            throw new WebhookCallException("failed to call webhook: Post \"" + uri + "\": 'https' is the only allowed URL scheme");
        }
        int timeoutSeconds = webhook.path("timeoutSeconds").asInt(10);
        String caBundle = clientConfig.path("caBundle").asText("");
        HttpClient client;
        try {
            client = clients.computeIfAbsent(caBundle, ValidatingWebhooks::newClient);
        } catch (RuntimeException e) {
            // client-go's TLS set-up refusing the CA bundle (transport.TLSConfigFor, rootCertPool)
            throw new WebhookCallException("could not get REST client: unable to load root certificates: unable to parse bytes as PEM block");
        }
        HttpRequest request = HttpRequest.newBuilder(uri)
                .timeout(Duration.ofSeconds(Math.max(1, timeoutSeconds)))
                .header("Content-Type", "application/json")
                .header("Accept", "application/json")
                .POST(HttpRequest.BodyPublishers.ofByteArray(Json.bytes(review)))
                .build();
        try {
            HttpResponse<byte[]> response = client.send(request, HttpResponse.BodyHandlers.ofByteArray());
            if (response.statusCode() != 200) {
                throw new WebhookCallException("failed to call webhook: the server responded with status " + response.statusCode());
            }
            JsonNode body = Json.MAPPER.readTree(response.body());
            if (body == null || !body.path("response").isObject()) {
                throw new WebhookCallException("received invalid webhook response: no response field");
            }
            // kube-apiserver refuses an answer to some other review, so a confused webhook cannot allow by accident.
            String sentUid = review.path("request").path("uid").asText();
            String answeredUid = body.path("response").path("uid").asText("");
            if (!sentUid.equals(answeredUid)) {
                throw new WebhookCallException("received invalid webhook response: expected response.uid=\"" + sentUid
                        + "\", got \"" + answeredUid + "\"");
            }
            return body;
        } catch (java.net.http.HttpTimeoutException e) {
            throw new WebhookCallException("failed to call webhook: Post \"" + uri + "\": context deadline exceeded");
        } catch (IOException e) {
            throw new WebhookCallException("failed to call webhook: Post \"" + uri + "\": " + describe(e));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new WebhookCallException("failed to call webhook: interrupted");
        }
    }

    private static String describe(IOException e) {
        Throwable root = e;
        while (root.getCause() != null) {
            root = root.getCause();
        }
        if (root instanceof java.net.ConnectException) {
            return "connect: connection refused";
        }
        return root.getMessage() == null ? root.getClass().getSimpleName() : root.getMessage();
    }

    private static HttpClient newClient(String caBundleBase64) {
        HttpClient.Builder builder = HttpClient.newBuilder()
                .connectTimeout(CONNECT_TIMEOUT)
                .version(HttpClient.Version.HTTP_1_1);
        if (!caBundleBase64.isEmpty()) {
            String pem = new String(java.util.Base64.getDecoder().decode(caBundleBase64.trim()), java.nio.charset.StandardCharsets.UTF_8);
            SSLContext context = TrustedClients.trusting(pem);
            builder.sslContext(context);
        }
        return builder.build();
    }

    static final class WebhookCallException extends Exception {
        WebhookCallException(String message) {
            super(message);
        }
    }
}
