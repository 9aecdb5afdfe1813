package dev.drainboard.cluster.virtapi;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.drainboard.architecture.Pure;
import dev.drainboard.cluster.apiserver.ApiException;

import java.util.List;

/**
 * A refusal by one of virt-api's webhooks, as its admission response carries it (pkg/util/webhooks/webhooks.go:
 * {@code ToAdmissionResponse} joins at most ten causes' messages with ", " and says how many more there were, 422
 * Invalid; {@code ToAdmissionResponseError} is a bare 400 message) and as kube-apiserver then answers it
 * (k8s.io/apiserver/pkg/admission/plugin/webhook/errors/statuserror.go: {@code admission webhook "<name>" denied the
 * request: <message>}, the code, reason and causes kept; no name or kind in the details).
 */
@Pure
public record Denial(String webhook, int code, String reason, String message, List<Cause> causes) {

    private static final int MAX_CAUSES = 10;

    /** {@code ToAdmissionResponse(causes)}. */
    public static Denial invalid(String webhook, List<Cause> causes) {
        List<Cause> shown = causes.size() > MAX_CAUSES ? causes.subList(0, MAX_CAUSES) : causes;
        String message = String.join(", ", shown.stream().map(Cause::message).toList());
        if (causes.size() > MAX_CAUSES) {
            message = message + ", and " + (causes.size() - MAX_CAUSES) + " more validation errors";
        }
        return new Denial(webhook, 422, "Invalid", message, List.copyOf(shown));
    }

    /** {@code ToAdmissionResponseError(err)}: code 400, no reason, no causes. */
    public static Denial error(String webhook, String message) {
        return new Denial(webhook, 400, "", message, List.of());
    }

    /** What kube-apiserver answers the client. */
    public ApiException toApiException() {
        ObjectNode details = null;
        if (!causes.isEmpty()) {
            details = JsonNodeFactory.instance.objectNode();
            ArrayNode list = details.putArray("causes");
            for (Cause c : causes) {
                ObjectNode cause = list.addObject();
                cause.put("reason", c.type());
                cause.put("message", c.message());
                if (c.field() != null && !c.field().isEmpty()) {
                    cause.put("field", c.field());
                }
            }
        }
        String deniedBy = "admission webhook \"" + webhook + "\" denied the request";
        String text = message.isEmpty() ? deniedBy + " without explanation" : deniedBy + ": " + message;
        return new ApiException(code, reason, text, details);
    }
}
