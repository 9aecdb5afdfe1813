package dev.drainboard.cluster.apiserver.admission;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.drainboard.admissionreview.AdmissionReview;
import dev.drainboard.cluster.apiserver.ApiException;
import dev.drainboard.cluster.apiserver.BuiltinResources;
import dev.drainboard.cluster.apiserver.Json;
import dev.drainboard.labels.LabelSelector;
import dev.drainboard.labels.SelectorException;
import dev.drainboard.cluster.apiserver.store.ObjectStore;
import dev.drainboard.cluster.apiserver.store.WatchEvent;
import dev.drainboard.pki.IssuedCertificate;
import dev.drainboard.pki.TrustedClients;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * Calls the validating admission webhooks registered in ValidatingWebhookConfigurations, as
 * kube-apiserver does: rule matching, {@code matchConditions} (CEL, {@link MatchConditions}), AdmissionReview v1 (or v1beta1) over HTTPS, timeoutSeconds,
 * failurePolicy, sideEffects with dry-run, and denials turned into the familiar
 * {@code admission webhook "<name>" denied the request: <message>} errors.
 */
public final class ValidatingWebhooks {

    private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(5);

    private final ObjectStore store;
    private final String username;
    /** One HTTP client per CA bundle: TLS sessions and connections are reused across calls. */
    private final Map<String, HttpClient> clients = new ConcurrentHashMap<>();
    /** Presented to every webhook that asks, as kube-apiserver's webhook kubeconfig with a {@code "*"} user does. */
    private volatile IssuedCertificate clientCertificate;

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

    /**
     * The client certificate to present to webhooks that require one (Kubernetes docs, "Dynamic Admission Control",
     * "Authenticate apiservers": kube-apiserver's AdmissionConfiguration names a kubeconfig whose user holds it).
     */
    public void presentClientCertificate(IssuedCertificate certificate) {
        this.clientCertificate = certificate;
        clients.clear();
    }

    private void prepare(ObjectNode configuration) {
        for (JsonNode webhook : configuration.path("webhooks")) {
            JsonNode clientConfig = webhook.path("clientConfig");
            try {
                URI target = WebhookRules.target(clientConfig, store);
                if (!"https".equals(target.getScheme())) {
                    continue; // never a plaintext connection, not even to warm up
                }
                HttpClient client = clients.computeIfAbsent(clientConfig.path("caBundle").asText(""), this::newClient);
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
                if (WebhookRules.matches(webhook, attributes) && namespaceMatches(webhook, attributes)
                        && conditionsMatch(webhook, attributes)) {
                    call(webhook, attributes);
                }
            }
        }
    }

    /**
     * The webhook's {@code matchConditions} (CEL): false skips it; an evaluation error refuses the request as
     * kube-apiserver's dispatcher does ({@code apierrors.NewForbidden}) under Fail, skips the webhook under Ignore.
     */
    private boolean conditionsMatch(JsonNode webhook, AdmissionAttributes attributes) {
        if (!webhook.path("matchConditions").isArray() || webhook.path("matchConditions").isEmpty()) {
            return true;
        }
        var request = MatchConditions.request(attributes, UUID.randomUUID().toString(), username,
                List.of("system:masters", "system:authenticated"));
        return switch (MatchConditions.match(webhook, attributes, request)) {
            case MatchConditions.Result.Matches m -> true;
            case MatchConditions.Result.Skip s -> false;
            case MatchConditions.Result.Error e -> throw ApiException.forbidden(attributes.resource(),
                    attributes.name() == null ? "" : attributes.name(), e.message());
        };
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
        ObjectNode review = AdmissionReview.request(request(reviewVersion, UUID.randomUUID().toString(), attributes));
        AdmissionReview.Response response;
        try {
            response = post(webhook, review);
        } catch (WebhookCallException e) {
            if (failOpen) {
                return;
            }
            throw ApiException.internal("failed calling webhook \"" + name + "\": " + e.getMessage());
        }
        if (response.allowed()) {
            return;
        }
        throw denial(name, response);
    }

    /** What kube-apiserver asks a webhook about these attributes, as {@code username} of system:masters. */
    private AdmissionReview.Request request(String version, String uid, AdmissionAttributes a) {
        return new AdmissionReview.Request("admission.k8s.io/" + version, uid,
                new AdmissionReview.GroupVersionName(a.kindGroup(), a.kindVersion(), a.kind()),
                new AdmissionReview.GroupVersionName(a.resource().group(), a.resource().version(), a.resource().plural()),
                a.subresource(), a.name(), a.namespace(), a.operation(), username,
                List.of("system:masters", "system:authenticated"), a.object(), a.oldObject(), a.dryRun());
    }

    /** kube-apiserver's rules for a rejection: code at least 400, message prefixed with who denied it. */
    static ApiException denial(String webhookName, AdmissionReview.Response response) {
        int code = response.code();
        if (code < 400) {
            code = 400;
        }
        String deniedBy = "admission webhook \"" + webhookName + "\" denied the request";
        String message = response.message();
        String reason = response.reason();
        String text = !message.isEmpty() ? deniedBy + ": " + message
                : !reason.isEmpty() ? deniedBy + ": " + reason
                : deniedBy + " without explanation";
        ObjectNode details = response.details() instanceof ObjectNode d ? d.deepCopy() : null;
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

    private AdmissionReview.Response post(JsonNode webhook, ObjectNode review) throws WebhookCallException {
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
            client = clients.computeIfAbsent(caBundle, this::newClient);
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
            AdmissionReview.Response answer;
            try {
                answer = AdmissionReview.parseResponse(Json.MAPPER.readTree(response.body()));
            } catch (AdmissionReview.MalformedReviewException e) {
                throw new WebhookCallException("received invalid webhook response: " + e.getMessage());
            }
            // kube-apiserver refuses an answer to some other review, so a confused webhook cannot allow by accident.
            String sentUid = review.path("request").path("uid").asText();
            if (!sentUid.equals(answer.uid())) {
                throw new WebhookCallException("received invalid webhook response: expected response.uid=\"" + sentUid
                        + "\", got \"" + answer.uid() + "\"");
            }
            return answer;
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

    private HttpClient newClient(String caBundleBase64) {
        HttpClient.Builder builder = HttpClient.newBuilder()
                .connectTimeout(CONNECT_TIMEOUT)
                .version(HttpClient.Version.HTTP_1_1);
        String pem = caBundleBase64.isEmpty() ? ""
                : new String(java.util.Base64.getDecoder().decode(caBundleBase64.trim()), java.nio.charset.StandardCharsets.UTF_8);
        IssuedCertificate certificate = clientCertificate;
        if (certificate != null) {
            builder.sslContext(TrustedClients.trusting(pem, certificate));
        } else if (!pem.isEmpty()) {
            builder.sslContext(TrustedClients.trusting(pem));
        }
        return builder.build();
    }

    static final class WebhookCallException extends Exception {
        WebhookCallException(String message) {
            super(message);
        }
    }
}
