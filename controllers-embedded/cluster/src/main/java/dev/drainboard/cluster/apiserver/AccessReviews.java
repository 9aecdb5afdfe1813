package dev.drainboard.cluster.apiserver;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.drainboard.cluster.apiserver.rbac.Attributes;
import dev.drainboard.cluster.apiserver.rbac.RbacAuthorizer;
import dev.drainboard.cluster.apiserver.rbac.UserInfo;

import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The reviews a client sends about itself, answered for the request's user by RBAC ({@link Authorization}):
 * <ul>
 *   <li>{@code authorization.k8s.io/v1 selfsubjectaccessreviews} ("may I do this?", {@code kubectl auth can-i}):
 *       RBAC's decision;</li>
 *   <li>{@code authorization.k8s.io/v1 selfsubjectrulesreviews} ({@code kubectl auth can-i --list}): the rules bound
 *       to the user, stored and bootstrap ({@link BootstrapPolicy});</li>
 *   <li>{@code authentication.k8s.io/v1 selfsubjectreviews} ({@code kubectl auth whoami}): the user's name and groups.</li>
 * </ul>
 * They are create-only and never stored, as in kube-apiserver; discovery lists them ({@link Discovery}).
 */
final class AccessReviews {

    static final String AUTHORIZATION = "authorization.k8s.io";
    static final String AUTHENTICATION = "authentication.k8s.io";
    static final String ACCESS_REVIEWS = "selfsubjectaccessreviews";
    static final String RULES_REVIEWS = "selfsubjectrulesreviews";
    static final String SELF_REVIEWS = "selfsubjectreviews";

    /** Group/version → the review resources served there, with their kinds, as discovery shows them. */
    static final Map<String, List<Map.Entry<String, String>>> SERVED = Map.of(
            AUTHORIZATION + "/v1", List.of(Map.entry(ACCESS_REVIEWS, "SelfSubjectAccessReview"),
                    Map.entry(RULES_REVIEWS, "SelfSubjectRulesReview")),
            AUTHENTICATION + "/v1", List.of(Map.entry(SELF_REVIEWS, "SelfSubjectReview")));

    private AccessReviews() {
    }

    /** {@code /apis/{group}/v1/{review}}, the segments after {@code apis}. */
    static boolean handles(List<String> segments) {
        if (segments.size() != 4) {
            return false;
        }
        List<Map.Entry<String, String>> served = SERVED.get(segments.get(1) + "/" + segments.get(2));
        return served != null && served.stream().anyMatch(e -> e.getKey().equals(segments.get(3)));
    }

    static ObjectNode review(String resource, ApiRequest request, Clock clock, Authorization authorization) {
        return switch (resource) {
            case ACCESS_REVIEWS -> accessReview(request, authorization);
            case RULES_REVIEWS -> rulesReview(request, authorization);
            case SELF_REVIEWS -> selfReview(clock);
            default -> throw ApiException.pathNotFound();
        };
    }

    /**
     * The review as sent, with RBAC's answer for the caller (pkg/registry/authorization/selfsubjectaccessreview); 422
     * when it asks about neither a resource nor a non-resource URL.
     */
    private static ObjectNode accessReview(ApiRequest request, Authorization authorization) {
        ObjectNode review = RequestBodies.object(request);
        JsonNode spec = review.path("spec");
        boolean resource = spec.path("resourceAttributes").isObject();
        boolean nonResource = spec.path("nonResourceAttributes").isObject();
        if (resource == nonResource) {
            throw new ApiException(422, "Invalid", "SelfSubjectAccessReview.authorization.k8s.io \"\" is invalid: "
                    + "spec.resourceAttributes: Invalid value: \"null\": exactly one of nonResourceAttributes or "
                    + "resourceAttributes must be specified", null);
        }
        Attributes attributes;
        if (resource) {
            JsonNode a = spec.path("resourceAttributes");
            attributes = Attributes.resource(a.path("verb").asText(""), a.path("group").asText(""),
                    a.path("resource").asText(""), a.path("subresource").asText(""), a.path("namespace").asText(""),
                    a.path("name").asText(""));
        } else {
            JsonNode a = spec.path("nonResourceAttributes");
            attributes = Attributes.nonResource(a.path("verb").asText(""), a.path("path").asText(""));
        }
        RbacAuthorizer.Decision decision = authorization.authorizer().authorize(Authorization.user(), attributes);
        review.put("apiVersion", AUTHORIZATION + "/v1").put("kind", "SelfSubjectAccessReview");
        if (!review.path("metadata").isObject()) {
            review.putObject("metadata");
        }
        ObjectNode status = review.putObject("status");
        status.put("allowed", decision.allowed());
        if (!decision.reason().isEmpty()) {
            status.put("reason", decision.reason());
        }
        return review;
    }

    /**
     * pkg/registry/authorization/selfsubjectrulesreview: the rules RBAC gives the caller in the review's namespace
     * (cluster-wide ones included; 400 without a namespace).
     */
    private static ObjectNode rulesReview(ApiRequest request, Authorization authorization) {
        ObjectNode review = RequestBodies.object(request);
        String namespace = review.path("spec").path("namespace").asText("");
        if (namespace.isEmpty()) {
            throw ApiException.badRequest("no namespace on request");
        }
        ObjectNode answer = Json.object().put("kind", "SelfSubjectRulesReview").put("apiVersion", AUTHORIZATION + "/v1");
        answer.putObject("metadata").putNull("creationTimestamp");
        answer.putObject("spec").put("namespace", namespace);
        ObjectNode status = answer.putObject("status");
        ArrayNode resourceRules = status.putArray("resourceRules");
        ArrayNode nonResourceRules = status.putArray("nonResourceRules");
        List<String> errors = new ArrayList<>();
        for (JsonNode rule : authorization.authorizer().rulesFor(Authorization.user(), namespace, errors)) {
            if (rule.path("nonResourceURLs").isEmpty()) {
                ObjectNode r = resourceRules.addObject();
                r.set("verbs", rule.path("verbs"));
                r.set("apiGroups", rule.path("apiGroups"));
                r.set("resources", rule.path("resources"));
                if (!rule.path("resourceNames").isEmpty()) {
                    r.set("resourceNames", rule.path("resourceNames"));
                }
            } else {
                ObjectNode r = nonResourceRules.addObject();
                r.set("verbs", rule.path("verbs"));
                r.set("nonResourceURLs", rule.path("nonResourceURLs"));
            }
        }
        status.put("incomplete", !errors.isEmpty());
        if (!errors.isEmpty()) {
            status.put("evaluationError", errors.size() == 1 ? errors.getFirst() : "[" + String.join(", ", errors) + "]");
        }
        return answer;
    }

    /** pkg/registry/authentication/selfsubjectreview: who the request's user is. */
    private static ObjectNode selfReview(Clock clock) {
        UserInfo caller = Authorization.user();
        ObjectNode answer = Json.object().put("kind", "SelfSubjectReview").put("apiVersion", AUTHENTICATION + "/v1");
        answer.putObject("metadata").put("creationTimestamp", Json.timestamp(clock.instant()));
        ObjectNode user = answer.putObject("status").putObject("userInfo");
        user.put("username", caller.name());
        caller.groups().forEach(user.putArray("groups")::add);
        return answer;
    }
}
