package dev.drainboard.cluster.apiserver;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.drainboard.validation.FieldError;

/**
 * An API error, answered as a Kubernetes {@code Status}. The factory methods produce the reasons and
 * messages kube-apiserver uses, because kubectl prints them verbatim and clients branch on the reason.
 */
public final class ApiException extends RuntimeException {

    private final int code;
    private final String reason;
    private final ObjectNode details;
    private final ObjectNode listMeta;

    public ApiException(int code, String reason, String message, ObjectNode details) {
        this(code, reason, message, details, null);
    }

    private ApiException(int code, String reason, String message, ObjectNode details, ObjectNode listMeta) {
        super(message);
        this.code = code;
        this.reason = reason;
        this.details = details;
        this.listMeta = listMeta;
    }

    public int code() {
        return code;
    }

    public String reason() {
        return reason;
    }

    public ObjectNode details() {
        return details;
    }

    public ObjectNode toStatus() {
        ObjectNode status = JsonNodeFactory.instance.objectNode();
        status.put("kind", "Status");
        status.put("apiVersion", "v1");
        status.set("metadata", listMeta == null ? JsonNodeFactory.instance.objectNode() : listMeta.deepCopy());
        status.put("status", "Failure");
        status.put("message", getMessage());
        if (!reason.isEmpty()) {
            status.put("reason", reason); // omitempty: a webhook's denial may have none
        }
        if (details != null) {
            status.set("details", details);
        }
        status.put("code", code);
        return status;
    }

    private static ObjectNode details(ResourceType type, String name) {
        ObjectNode d = JsonNodeFactory.instance.objectNode();
        if (name != null) {
            d.put("name", name);
        }
        if (type != null) {
            if (!type.group().isEmpty()) {
                d.put("group", type.group());
            }
            d.put("kind", type.plural());
        }
        return d;
    }

    /** "pods" for core, "deployments.apps" otherwise: how kube-apiserver names a resource in messages. */
    private static String qualified(ResourceType type) {
        return type.groupResource();
    }

    public static ApiException notFound(ResourceType type, String name) {
        return new ApiException(404, "NotFound", qualified(type) + " \"" + name + "\" not found", details(type, name));
    }

    public static ApiException alreadyExists(ResourceType type, String name) {
        return new ApiException(409, "AlreadyExists", qualified(type) + " \"" + name + "\" already exists", details(type, name));
    }

    public static ApiException conflict(ResourceType type, String name, String why) {
        return new ApiException(409, "Conflict",
                "Operation cannot be fulfilled on " + qualified(type) + " \"" + name + "\": " + why, details(type, name));
    }

    public static ApiException staleObject(ResourceType type, String name) {
        return conflict(type, name, "the object has been modified; please apply your changes to the latest version and try again");
    }

    public static ApiException badRequest(String message) {
        return new ApiException(400, "BadRequest", message, null);
    }

    public static ApiException invalid(ResourceType type, String name, String field, String causeMessage) {
        ObjectNode d = details(type, name);
        d.put("kind", type.kind());
        ArrayNode causes = d.putArray("causes");
        ObjectNode cause = causes.addObject();
        cause.put("reason", "FieldValueInvalid");
        cause.put("message", causeMessage);
        cause.put("field", field);
        String shown = name == null || name.isEmpty() ? "" : " \"" + name + "\"";
        return new ApiException(422, "Invalid",
                type.kind() + shown + " is invalid: " + field + ": " + causeMessage, d);
    }

    /**
     * 422 Invalid with one cause per violation, worded as kube-apiserver words it:
     * {@code Kind.group "name" is invalid: field: msg} or {@code ... is invalid: [f1: m1, f2: m2]}.
     */
    public static ApiException invalid(ResourceType type, String name, java.util.List<ObjectValidator.Violation> violations) {
        return invalidFields(type, name, violations.stream().map(v -> FieldError.worded(v.field(), v.message())).toList());
    }

    /**
     * apimachinery's {@code errors.NewInvalid} (api/errors/errors.go): 422 Invalid, details with the kind, its group and
     * one cause per error (duplicates kept, as kube-apiserver keeps them), and the message
     * {@code Kind.group "name" is invalid: <the errors' aggregate>}, where the aggregate drops repeated texts and
     * brackets several.
     */
    public static ApiException invalidFields(ResourceType type, String name, java.util.List<FieldError> errors) {
        ObjectNode d = JsonNodeFactory.instance.objectNode();
        d.put("name", name == null ? "" : name);
        if (!type.group().isEmpty()) {
            d.put("group", type.group());
        }
        d.put("kind", type.kind());
        ArrayNode causes = d.putArray("causes");
        java.util.Set<String> texts = new java.util.LinkedHashSet<>();
        for (FieldError error : errors) {
            ObjectNode cause = causes.addObject();
            cause.put("reason", error.type().causeType());
            cause.put("message", error.body());
            cause.put("field", error.field());
            texts.add(error.text());
        }
        String kind = type.group().isEmpty() ? type.kind() : type.kind() + "." + type.group();
        String message = kind + " " + FieldError.quote(name == null ? "" : name) + " is invalid";
        if (!texts.isEmpty()) {
            message += ": " + (texts.size() == 1 ? texts.iterator().next() : "[" + String.join(", ", texts) + "]");
        }
        return new ApiException(422, "Invalid", message, d);
    }

    public static ApiException forbidden(ResourceType type, String name, String why) {
        return new ApiException(403, "Forbidden",
                qualified(type) + " \"" + name + "\" is forbidden: " + why, details(type, name));
    }

    public static ApiException methodNotAllowed(String message) {
        return new ApiException(405, "MethodNotAllowed", message, null);
    }

    public static ApiException unsupportedMediaType(String contentType) {
        return new ApiException(415, "UnsupportedMediaType", "the body of the request was in an unknown format - accepted media types include: application/json, application/yaml, application/vnd.kubernetes.protobuf"
                + (contentType == null ? "" : " (got " + contentType + ")"), null);
    }

    public static ApiException gone(String message) {
        return new ApiException(410, "Expired", message, null);
    }

    /**
     * 410 Expired for a list page whose continue token names a compacted resourceVersion, carrying in its metadata the
     * token that continues at the current one (etcd3 store's handleCompactedErrorForPaging).
     */
    public static ApiException expiredContinue(String message, String continueToken) {
        ObjectNode meta = JsonNodeFactory.instance.objectNode().put("continue", continueToken);
        return new ApiException(410, "Expired", message, null, meta);
    }

    /**
     * 504 Timeout for a resourceVersion the server has not reached (storage.NewTooLargeResourceVersionError): the
     * cause ResourceVersionTooLarge and a retry after one second.
     */
    public static ApiException tooLargeResourceVersion(long requested, long current) {
        ObjectNode d = JsonNodeFactory.instance.objectNode();
        d.putArray("causes").addObject().put("reason", "ResourceVersionTooLarge").put("message", "Too large resource version");
        d.put("retryAfterSeconds", 1);
        return new ApiException(504, "Timeout", "Timeout: Too large resource version: " + requested + ", current: " + current, d);
    }

    public static ApiException tooManyRequests(String message, ObjectNode details) {
        return new ApiException(429, "TooManyRequests", message, details);
    }

    public static ApiException internal(String message) {
        return new ApiException(500, "InternalError", "Internal error occurred: " + message, null);
    }

    public static ApiException pathNotFound() {
        return new ApiException(404, "NotFound", "the server could not find the requested resource", null);
    }
}
