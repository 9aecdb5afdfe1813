package dev.drainboard.admission;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.drainboard.kubevirt.DeschedulerAnnotations;

import java.io.IOException;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Reads AdmissionReview requests (admission.k8s.io v1 and v1beta1, which share the shape) for pod evictions and
 * writes the answer in the version asked, echoing the request's uid as the API server demands.
 */
public final class AdmissionReviews {

    private static final ObjectMapper JSON = new ObjectMapper();
    static final Set<String> VERSIONS = Set.of("admission.k8s.io/v1", "admission.k8s.io/v1beta1");

    private AdmissionReviews() {
    }

    /** A review that can be answered: its version, uid and the eviction it asks about. */
    public record Review(String apiVersion, String uid, EvictionRequest eviction) {
        public Review {
            Objects.requireNonNull(apiVersion, "apiVersion");
            Objects.requireNonNull(uid, "uid");
            Objects.requireNonNull(eviction, "eviction");
        }
    }

    /** A body that is no AdmissionReview about a pod eviction; answered with 400. */
    public static final class MalformedReviewException extends Exception {
        public MalformedReviewException(String message) {
            super(message);
        }
    }

    public static Review parse(byte[] body) throws MalformedReviewException {
        JsonNode root;
        try {
            root = JSON.readTree(body);
        } catch (IOException e) {
            throw new MalformedReviewException("body is not JSON: " + (e instanceof JsonProcessingException j ? j.getOriginalMessage() : e.getMessage()));
        }
        if (root == null || !root.isObject()) {
            throw new MalformedReviewException("body is not a JSON object");
        }
        String apiVersion = root.path("apiVersion").asText("");
        if (!VERSIONS.contains(apiVersion)) {
            throw new MalformedReviewException("unsupported apiVersion \"" + apiVersion + "\", want admission.k8s.io/v1 or v1beta1");
        }
        if (!"AdmissionReview".equals(root.path("kind").asText())) {
            throw new MalformedReviewException("kind is \"" + root.path("kind").asText() + "\", want AdmissionReview");
        }
        JsonNode request = root.get("request");
        if (request == null || !request.isObject()) {
            throw new MalformedReviewException("AdmissionReview has no request");
        }
        String uid = text(request, "uid");
        if (uid.isEmpty()) {
            throw new MalformedReviewException("request.uid is missing");
        }
        // The webhook is registered for pods/eviction only; anything else was sent to the wrong place.
        JsonNode kind = request.path("kind");
        if (kind.isObject() && !kind.path("kind").asText("Eviction").equals("Eviction")) {
            throw new MalformedReviewException("request.kind is \"" + kind.path("kind").asText() + "\", want Eviction");
        }
        JsonNode resource = request.path("resource");
        if (resource.isObject() && !resource.path("resource").asText("pods").equals("pods")) {
            throw new MalformedReviewException("request.resource is \"" + resource.path("resource").asText() + "\", want pods");
        }
        String name = text(request, "name");
        if (name.isEmpty()) {
            throw new MalformedReviewException("request.name is missing");
        }
        String namespace = text(request, "namespace");
        if (namespace.isEmpty()) {
            throw new MalformedReviewException("request.namespace is missing");
        }
        boolean dryRun = request.path("dryRun").asBoolean(false);
        Map<String, String> evictionAnnotations = new HashMap<>();
        request.path("object").path("metadata").path("annotations").properties()
                .forEach(a -> evictionAnnotations.put(a.getKey(), a.getValue().asText()));
        boolean byDescheduler = DeschedulerAnnotations.isDeschedulerEviction(evictionAnnotations);
        return new Review(apiVersion, uid, new EvictionRequest(namespace, name, dryRun, byDescheduler));
    }

    /** The answer to {@code review}: allowed, or refused with the decision's code and message. */
    public static byte[] answer(Review review, EvictionDecision decision) {
        ObjectNode root = JSON.createObjectNode();
        root.put("apiVersion", review.apiVersion());
        root.put("kind", "AdmissionReview");
        ObjectNode response = root.putObject("response");
        response.put("uid", review.uid());
        switch (decision) {
            case EvictionDecision.Allow a -> response.put("allowed", true);
            case EvictionDecision.Deny d -> {
                response.put("allowed", false);
                ObjectNode status = response.putObject("status");
                status.putObject("metadata");
                status.put("message", d.message());
                status.put("code", d.code());
            }
            case EvictionDecision.Mark m -> throw new IllegalArgumentException("a mark must be applied before answering");
        }
        try {
            return JSON.writeValueAsBytes(root);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String text(JsonNode node, String field) {
        JsonNode value = node.get(field);
        return value != null && value.isTextual() ? value.asText() : "";
    }
}
