package dev.drainboard.admissionreview;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.drainboard.architecture.Pure;

import java.io.IOException;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * The AdmissionReview (admission.k8s.io v1 and v1beta1, which share the shape) as JSON, both ways: the request the
 * API server sends a validating webhook and the response the webhook gives back. The embedded API server writes
 * requests and reads responses; Drainboard's eviction webhook reads requests and writes responses. The shape is
 * k8s.io/api/admission/v1's AdmissionReview.
 */
@Pure
public final class AdmissionReview {

    private static final ObjectMapper JSON = new ObjectMapper();
    /** The apiVersions kube-apiserver sends and accepts back. */
    public static final Set<String> VERSIONS = Set.of("admission.k8s.io/v1", "admission.k8s.io/v1beta1");

    private AdmissionReview() {
    }

    /** {@code group}, {@code version} and {@code kind} or {@code resource}, as request.kind and request.resource give them. */
    public record GroupVersionName(String group, String version, String name) {
    }

    /**
     * A review's request.
     *
     * @param kind        the object's kind ({@code name} is the kind), null when the request names none
     * @param resource    the resource ({@code name} is the plural), null when the request names none
     * @param subResource e.g. {@code eviction}; empty for none
     * @param object      the object as sent (the Eviction of an eviction), null when there is none
     */
    public record Request(String apiVersion, String uid, GroupVersionName kind, GroupVersionName resource, String subResource,
                          String name, String namespace, String operation, String username, List<String> groups,
                          JsonNode object, JsonNode oldObject, boolean dryRun) {
        public Request {
            Objects.requireNonNull(apiVersion, "apiVersion");
            Objects.requireNonNull(uid, "uid");
            subResource = Objects.requireNonNullElse(subResource, "");
            name = Objects.requireNonNullElse(name, "");
            namespace = Objects.requireNonNullElse(namespace, "");
            groups = groups == null ? List.of() : List.copyOf(groups);
        }
    }

    /**
     * A review's response: allowed, or refused with a status ({@code code}, {@code message}, {@code reason},
     * {@code details}; the text fields empty and the code 0 when the webhook gave none).
     */
    public record Response(String apiVersion, String uid, boolean allowed, int code, String message, String reason,
                           JsonNode details) {
        public Response {
            message = Objects.requireNonNullElse(message, "");
            reason = Objects.requireNonNullElse(reason, "");
        }

        public static Response allow(String apiVersion, String uid) {
            return new Response(apiVersion, uid, true, 0, "", "", null);
        }

        public static Response deny(String apiVersion, String uid, int code, String message) {
            return new Response(apiVersion, uid, false, code, message, "", null);
        }
    }

    /** A body that is no AdmissionReview of the expected sort; the message says why. */
    public static final class MalformedReviewException extends Exception {
        public MalformedReviewException(String message) {
            super(message);
        }
    }

    /** The request as kube-apiserver sends it, with the options kind its operation implies. */
    public static ObjectNode request(Request r) {
        ObjectNode review = JSON.createObjectNode();
        review.put("apiVersion", r.apiVersion());
        review.put("kind", "AdmissionReview");
        ObjectNode request = review.putObject("request");
        request.put("uid", r.uid());
        ObjectNode kind = request.putObject("kind");
        kind.put("group", r.kind().group()).put("version", r.kind().version()).put("kind", r.kind().name());
        ObjectNode resource = request.putObject("resource");
        resource.put("group", r.resource().group()).put("version", r.resource().version()).put("resource", r.resource().name());
        if (!r.subResource().isEmpty()) {
            request.put("subResource", r.subResource());
        }
        request.set("requestKind", kind.deepCopy());
        request.set("requestResource", resource.deepCopy());
        if (!r.subResource().isEmpty()) {
            request.put("requestSubResource", r.subResource());
        }
        if (!r.name().isEmpty()) {
            request.put("name", r.name());
        }
        if (!r.namespace().isEmpty()) {
            request.put("namespace", r.namespace());
        }
        request.put("operation", r.operation());
        ObjectNode user = request.putObject("userInfo");
        user.put("username", r.username());
        r.groups().forEach(user.putArray("groups")::add);
        request.set("object", r.object());
        request.set("oldObject", r.oldObject());
        request.put("dryRun", r.dryRun());
        ObjectNode options = request.putObject("options");
        options.put("apiVersion", "meta.k8s.io/v1");
        options.put("kind", switch (r.operation()) {
            case "CREATE" -> "CreateOptions";
            case "DELETE" -> "DeleteOptions";
            default -> "UpdateOptions";
        });
        return review;
    }

    /**
     * Reads a request: an AdmissionReview object of a known version with a request that has a uid. Fields that are
     * absent or not text read as empty.
     */
    public static Request parseRequest(byte[] body) throws MalformedReviewException {
        JsonNode root = review(body);
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
        JsonNode kind = request.path("kind");
        JsonNode resource = request.path("resource");
        JsonNode user = request.path("userInfo");
        List<String> groups = user.path("groups").valueStream().map(JsonNode::asText).toList();
        return new Request(apiVersion, uid,
                kind.isObject() ? new GroupVersionName(text(kind, "group"), text(kind, "version"), text(kind, "kind")) : null,
                resource.isObject() ? new GroupVersionName(text(resource, "group"), text(resource, "version"), text(resource, "resource")) : null,
                text(request, "subResource"), text(request, "name"), text(request, "namespace"), text(request, "operation"),
                text(user, "username"), groups, present(request.get("object")), present(request.get("oldObject")),
                request.path("dryRun").asBoolean(false));
    }

    /** The response to a request, in the request's version and with its uid, as the API server demands. */
    public static byte[] response(Response r) {
        ObjectNode root = JSON.createObjectNode();
        root.put("apiVersion", r.apiVersion());
        root.put("kind", "AdmissionReview");
        ObjectNode response = root.putObject("response");
        response.put("uid", r.uid());
        response.put("allowed", r.allowed());
        if (!r.allowed()) {
            ObjectNode status = response.putObject("status");
            status.putObject("metadata");
            status.put("message", r.message());
            if (!r.reason().isEmpty()) {
                status.put("reason", r.reason());
            }
            status.put("code", r.code());
            if (r.details() != null) {
                status.set("details", r.details());
            }
        }
        try {
            return JSON.writeValueAsBytes(root);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Reads a response: a JSON object with a {@code response} object; what it leaves out reads as empty. */
    public static Response parseResponse(JsonNode root) throws MalformedReviewException {
        JsonNode response = root == null ? null : root.get("response");
        if (response == null || !response.isObject()) {
            throw new MalformedReviewException("no response field");
        }
        JsonNode status = response.path("status");
        return new Response(root.path("apiVersion").asText(""), response.path("uid").asText(""),
                response.path("allowed").asBoolean(false), status.path("code").asInt(0), status.path("message").asText(""),
                status.path("reason").asText(""), present(status.get("details")));
    }

    private static JsonNode review(byte[] body) throws MalformedReviewException {
        JsonNode root;
        try {
            root = JSON.readTree(body);
        } catch (IOException e) {
            throw new MalformedReviewException("body is not JSON: " + (e instanceof JsonProcessingException j ? j.getOriginalMessage() : e.getMessage()));
        }
        if (root == null || !root.isObject()) {
            throw new MalformedReviewException("body is not a JSON object");
        }
        return root;
    }

    private static JsonNode present(JsonNode node) {
        return node == null || node.isNull() || node.isMissingNode() ? null : node;
    }

    private static String text(JsonNode node, String field) {
        JsonNode value = node.get(field);
        return value != null && value.isTextual() ? value.asText() : "";
    }
}
