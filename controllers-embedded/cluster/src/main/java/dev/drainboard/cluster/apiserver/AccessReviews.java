package dev.drainboard.cluster.apiserver;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.List;

/**
 * {@code authorization.k8s.io/v1 selfsubjectaccessreviews}: "may I do this?". The embedded cluster has one user, the
 * holder of its kubeconfig's token, who may do everything, so every well-formed review is allowed. Consoles ask
 * before offering an action; answering here lets them treat the embedded cluster like any other.
 */
final class AccessReviews {

    static final String GROUP = "authorization.k8s.io";
    static final String RESOURCE = "selfsubjectaccessreviews";
    static final String ALLOWED_REASON = "the embedded cluster's token holder may do everything";

    private AccessReviews() {
    }

    /** {@code /apis/authorization.k8s.io/v1/selfsubjectaccessreviews}, the segments after {@code apis}. */
    static boolean handles(List<String> segments) {
        return segments.size() == 4 && segments.get(1).equals(GROUP) && segments.get(2).equals("v1")
                && segments.get(3).equals(RESOURCE);
    }

    /** The review as sent, with its status; 422 when it asks about neither a resource nor a non-resource URL. */
    static ObjectNode review(ApiRequest request) {
        ObjectNode review = RequestBodies.object(request);
        JsonNode spec = review.path("spec");
        boolean resource = spec.path("resourceAttributes").isObject();
        boolean nonResource = spec.path("nonResourceAttributes").isObject();
        if (resource == nonResource) {
            throw new ApiException(422, "Invalid", "SelfSubjectAccessReview.authorization.k8s.io \"\" is invalid: "
                    + "spec.resourceAttributes: Invalid value: \"null\": exactly one of nonResourceAttributes or "
                    + "resourceAttributes must be specified", null);
        }
        review.put("apiVersion", GROUP + "/v1").put("kind", "SelfSubjectAccessReview");
        if (!review.path("metadata").isObject()) {
            review.putObject("metadata");
        }
        ObjectNode status = review.putObject("status");
        status.put("allowed", true).put("reason", ALLOWED_REASON);
        return review;
    }
}
