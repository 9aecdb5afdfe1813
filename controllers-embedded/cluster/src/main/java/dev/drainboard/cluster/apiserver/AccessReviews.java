package dev.drainboard.cluster.apiserver;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.time.Clock;
import java.util.List;
import java.util.Map;

/**
 * The reviews a client sends about itself, answered for the embedded cluster's one user ({@link AdminUser}), who may do
 * everything:
 * <ul>
 *   <li>{@code authorization.k8s.io/v1 selfsubjectaccessreviews} ("may I do this?", {@code kubectl auth can-i}):
 *       every well-formed review is allowed;</li>
 *   <li>{@code authorization.k8s.io/v1 selfsubjectrulesreviews} ({@code kubectl auth can-i --list}): the rules RBAC's
 *       bootstrap bindings give a member of system:masters and system:authenticated (cluster-admin, system:basic-user,
 *       system:discovery, system:public-info-viewer; plugin/pkg/auth/authorizer/rbac/bootstrappolicy/policy.go);</li>
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
    static final String ALLOWED_REASON = "the embedded cluster's token holder may do everything";

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

    static ObjectNode review(String resource, ApiRequest request, Clock clock) {
        return switch (resource) {
            case ACCESS_REVIEWS -> accessReview(request);
            case RULES_REVIEWS -> rulesReview(request);
            case SELF_REVIEWS -> selfReview(clock);
            default -> throw ApiException.pathNotFound();
        };
    }

    /** The review as sent, with its status; 422 when it asks about neither a resource nor a non-resource URL. */
    private static ObjectNode accessReview(ApiRequest request) {
        ObjectNode review = RequestBodies.object(request);
        JsonNode spec = review.path("spec");
        boolean resource = spec.path("resourceAttributes").isObject();
        boolean nonResource = spec.path("nonResourceAttributes").isObject();
        if (resource == nonResource) {
            throw new ApiException(422, "Invalid", "SelfSubjectAccessReview.authorization.k8s.io \"\" is invalid: "
                    + "spec.resourceAttributes: Invalid value: \"null\": exactly one of nonResourceAttributes or "
                    + "resourceAttributes must be specified", null);
        }
        review.put("apiVersion", AUTHORIZATION + "/v1").put("kind", "SelfSubjectAccessReview");
        if (!review.path("metadata").isObject()) {
            review.putObject("metadata");
        }
        ObjectNode status = review.putObject("status");
        status.put("allowed", true).put("reason", ALLOWED_REASON);
        return review;
    }

    /**
     * pkg/registry/authorization/selfsubjectrulesreview: the rules for the review's namespace (400 without one), as
     * the RBAC authorizer resolves them for the token holder.
     */
    private static ObjectNode rulesReview(ApiRequest request) {
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
        // cluster-admin, bound to system:masters
        resourceRule(resourceRules, List.of("*"), List.of("*"), List.of("*"));
        // system:basic-user, bound to system:authenticated
        resourceRule(resourceRules, List.of("create"), List.of(AUTHORIZATION), List.of(ACCESS_REVIEWS, RULES_REVIEWS));
        resourceRule(resourceRules, List.of("create"), List.of(AUTHENTICATION), List.of(SELF_REVIEWS));
        ArrayNode nonResourceRules = status.putArray("nonResourceRules");
        nonResourceRule(nonResourceRules, List.of("*"), List.of("*"));
        // system:discovery and system:public-info-viewer, bound to system:authenticated
        nonResourceRule(nonResourceRules, List.of("get"), List.of("/api", "/api/*", "/apis", "/apis/*", "/healthz",
                "/livez", "/openapi", "/openapi/*", "/readyz", "/version", "/version/"));
        nonResourceRule(nonResourceRules, List.of("get"), List.of("/healthz", "/livez", "/readyz", "/version", "/version/"));
        status.put("incomplete", false);
        return answer;
    }

    /** pkg/registry/authentication/selfsubjectreview: who the request's user is. */
    private static ObjectNode selfReview(Clock clock) {
        ObjectNode answer = Json.object().put("kind", "SelfSubjectReview").put("apiVersion", AUTHENTICATION + "/v1");
        answer.putObject("metadata").put("creationTimestamp", Json.timestamp(clock.instant()));
        ObjectNode user = answer.putObject("status").putObject("userInfo");
        user.put("username", AdminUser.NAME);
        AdminUser.GROUPS.forEach(user.putArray("groups")::add);
        return answer;
    }

    private static void resourceRule(ArrayNode rules, List<String> verbs, List<String> groups, List<String> resources) {
        ObjectNode rule = rules.addObject();
        verbs.forEach(rule.putArray("verbs")::add);
        groups.forEach(rule.putArray("apiGroups")::add);
        resources.forEach(rule.putArray("resources")::add);
    }

    private static void nonResourceRule(ArrayNode rules, List<String> verbs, List<String> urls) {
        ObjectNode rule = rules.addObject();
        verbs.forEach(rule.putArray("verbs")::add);
        urls.forEach(rule.putArray("nonResourceURLs")::add);
    }
}
