package dev.drainboard.cluster.apiserver;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.drainboard.cluster.apiserver.rbac.Attributes;
import dev.drainboard.cluster.apiserver.admission.AdmissionAttributes;
import dev.drainboard.cluster.apiserver.admission.BuiltInAdmission;
import dev.drainboard.cluster.apiserver.rbac.RbacAuthorizer;
import dev.drainboard.cluster.apiserver.rbac.RbacCoverage;
import dev.drainboard.cluster.apiserver.rbac.RbacPolicy;
import dev.drainboard.cluster.apiserver.rbac.ServiceAccountTokens;
import dev.drainboard.cluster.apiserver.rbac.UserInfo;
import dev.drainboard.cluster.apiserver.store.ObjectStore;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Who is asking and whether they may: the user of the request being handled (bound for the duration of
 * {@link ApiServer#handle}), the RBAC check of every request against the stored Roles, ClusterRoles and bindings plus
 * RBAC's bootstrap policy ({@link BootstrapPolicy}), kube-apiserver's Forbidden answer, and the TokenRequest API.
 */
public final class Authorization {

    static final ScopedValue<UserInfo> USER = ScopedValue.newInstance();

    private final ObjectStore store;
    private final RbacAuthorizer authorizer;
    private final ServiceAccountTokens tokens = new ServiceAccountTokens();

    Authorization(ObjectStore store) {
        this.store = store;
        this.policy = new StoredPolicy();
        this.authorizer = new RbacAuthorizer(policy);
    }

    /** The user of the request being handled; the cluster admin for in-process requests. */
    static UserInfo user() {
        return USER.isBound() ? USER.get() : AdminUser.USER;
    }

    private final StoredPolicy policy;

    /**
     * RBAC's refusal of privilege escalation (pkg/registry/rbac/role, clusterrole, rolebinding, clusterrolebinding
     * policybased storage): a Role or ClusterRole may grant only what its author holds, unless they may
     * {@code escalate} it; a binding may bind only a role whose rules its author holds, unless they may {@code bind}
     * it. system:masters (the cluster admin, and the cluster's own in-process work) may do both.
     */
    final BuiltInAdmission noEscalation = new BuiltInAdmission() {
        @Override
        public void validate(AdmissionAttributes a) {
            confirmNoEscalation(a);
        }

        @Override
        public void validateLoaded(AdmissionAttributes a) {
            // a scenario is the cluster admin's
        }
    };

    private void confirmNoEscalation(AdmissionAttributes a) {
        ResourceType type = a.resource();
        boolean role = type == BuiltinResources.ROLES || type == BuiltinResources.CLUSTER_ROLES;
        boolean binding = type == BuiltinResources.ROLE_BINDINGS || type == BuiltinResources.CLUSTER_ROLE_BINDINGS;
        if (!(role || binding) || !a.subresource().isEmpty()) {
            return;
        }
        UserInfo user = user();
        if (user.groups().contains(UserInfo.MASTERS)) {
            return;
        }
        String namespace = a.namespace() == null ? "" : a.namespace();
        List<JsonNode> granted;
        if (role) {
            if (a.oldObject() != null && a.oldObject().path("rules").equals(a.object().path("rules"))) {
                return; // only metadata changed
            }
            if (allowed(user, Attributes.resource("escalate", "rbac.authorization.k8s.io", type.plural(), "", namespace, a.name()))) {
                return;
            }
            granted = list(a.object().path("rules"));
        } else {
            JsonNode ref = a.object().path("roleRef");
            if (a.oldObject() != null && a.oldObject().path("roleRef").equals(ref)
                    && a.oldObject().path("subjects").equals(a.object().path("subjects"))) {
                return; // only metadata changed
            }
            boolean clusterRole = "ClusterRole".equals(ref.path("kind").asText());
            String roleName = ref.path("name").asText();
            if (allowed(user, Attributes.resource("bind", "rbac.authorization.k8s.io", clusterRole ? "clusterroles" : "roles", "",
                    namespace, roleName))) {
                return;
            }
            ObjectNode referenced = clusterRole ? policy.clusterRole(roleName) : policy.role(namespace, roleName);
            if (referenced == null) {
                throw ApiException.notFound(clusterRole ? BuiltinResources.CLUSTER_ROLES : BuiltinResources.ROLES, roleName);
            }
            granted = list(referenced.path("rules"));
        }
        List<RbacCoverage.Right> missing = RbacCoverage.notHeld(authorizer.rulesFor(user, namespace, new ArrayList<>()), granted);
        if (missing.isEmpty()) {
            return;
        }
        String groups = user.groups().stream().map(g -> "\"" + g + "\"").collect(java.util.stream.Collectors.joining(" ", "[", "]"));
        String qualified = type.plural() + ".rbac.authorization.k8s.io";
        throw new ApiException(403, "Forbidden", qualified + " \"" + a.name() + "\" is forbidden: user \"" + user.name()
                + "\" (groups=" + groups + ") is attempting to grant RBAC permissions not currently held:\n"
                + missing.stream().map(RbacCoverage.Right::compact).collect(java.util.stream.Collectors.joining("\n")),
                Json.object().put("name", a.name()).put("group", "rbac.authorization.k8s.io").put("kind", type.plural()));
    }

    private boolean allowed(UserInfo user, Attributes attributes) {
        return authorizer.authorize(user, attributes).allowed();
    }

    private static List<JsonNode> list(JsonNode array) {
        List<JsonNode> out = new ArrayList<>();
        array.forEach(out::add);
        return out;
    }

    RbacAuthorizer authorizer() {
        return authorizer;
    }

    /** The service account user a TokenRequest token stands for; null when unknown, expired or its account is gone. */
    public UserInfo authenticateServiceAccount(String token) {
        return tokens.authenticate(token, store.clock().instant(), (namespace, name) -> {
            ObjectNode account = store.get(BuiltinResources.SERVICE_ACCOUNTS, namespace, name);
            return account == null ? null : Json.uid(account);
        });
    }

    /** A resource request: the attributes as kube's request-info resolver reads them, then RBAC. */
    void authorize(ApiRequest request, ResourcePath path) {
        String verb = Attributes.verb(request.method(), path.isCollection(), request.flag("watch"));
        String namespace = path.namespace();
        String name = path.name();
        if (path.type() == BuiltinResources.NAMESPACES && !name.isEmpty()) {
            namespace = name; // requestinfo.go: a namespace is in itself
        }
        if (name.isEmpty() && (verb.equals("list") || verb.equals("watch"))) {
            // requestinfo.go: a list or watch of one object by field selector names it
            String selector = request.param("fieldSelector");
            if (selector != null && selector.startsWith("metadata.name=") && !selector.contains(",")) {
                name = selector.substring("metadata.name=".length());
            }
        }
        check(Attributes.resource(verb, path.type().group(), path.type().plural(), path.subresource(), namespace, name));
    }

    /**
     * A request to an aggregated API (virt-api's {@code subresources.kubevirt.io}): kube-apiserver's request-info
     * reads {@code …/namespaces/{ns}/{resource}/{name}/{subresource}} and authorizes it before proxying.
     */
    public void authorizeAggregated(String verb, String group, String resource, String subresource, String namespace, String name) {
        check(Attributes.resource(verb, group, resource, subresource, namespace, name));
    }

    void authorizeReview(String group, String resource) {
        check(Attributes.resource("create", group, resource, "", "", ""));
    }

    void authorizeNonResource(ApiRequest request) {
        check(Attributes.nonResource(request.method().toLowerCase(java.util.Locale.ROOT), request.path()));
    }

    private void check(Attributes attributes) {
        UserInfo user = user();
        RbacAuthorizer.Decision decision = authorizer.authorize(user, attributes);
        if (!decision.allowed()) {
            throw forbidden(user, attributes, decision.reason());
        }
    }

    /**
     * apiserver pkg/endpoints/handlers/responsewriters/errors.go {@code Forbidden} and {@code forbiddenMessage}, worded
     * through apimachinery's {@code NewForbidden}: {@code nodes "node01" is forbidden: User "…" cannot patch resource
     * "nodes" in API group "" at the cluster scope}.
     */
    static ApiException forbidden(UserInfo user, Attributes a, String reason) {
        String message;
        if (!a.resourceRequest()) {
            message = "User \"" + user.name() + "\" cannot " + a.verb() + " path \"" + a.path() + "\"";
        } else {
            String resource = a.subresource().isEmpty() ? a.resource() : a.resource() + "/" + a.subresource();
            message = "User \"" + user.name() + "\" cannot " + a.verb() + " resource \"" + resource + "\" in API group \""
                    + a.apiGroup() + "\"" + (a.namespace().isEmpty() ? " at the cluster scope"
                    : " in the namespace \"" + a.namespace() + "\"");
        }
        if (!reason.isEmpty()) {
            message += ": " + reason;
        }
        ObjectNode details = Json.object();
        String text;
        if (!a.resourceRequest()) {
            text = "forbidden: " + message;
        } else {
            String qualified = a.apiGroup().isEmpty() ? a.resource() : a.resource() + "." + a.apiGroup();
            text = a.name().isEmpty() ? qualified + " is forbidden: " + message
                    : qualified + " \"" + a.name() + "\" is forbidden: " + message;
            if (!a.name().isEmpty()) {
                details.put("name", a.name());
            }
            if (!a.apiGroup().isEmpty()) {
                details.put("group", a.apiGroup());
            }
            details.put("kind", a.resource());
        }
        return new ApiException(403, "Forbidden", text, details);
    }

    /**
     * {@code POST …/serviceaccounts/NAME/token} (pkg/registry/core/serviceaccount/storage/token.go): a token for the
     * service account, valid {@code spec.expirationSeconds} (default 3600, at least 600).
     */
    ObjectNode tokenRequest(ApiRequest request, ResourcePath path) {
        ObjectNode body = RequestBodies.object(request);
        ObjectNode account = store.get(BuiltinResources.SERVICE_ACCOUNTS, path.namespace(), path.name());
        if (account == null) {
            throw ApiException.notFound(BuiltinResources.SERVICE_ACCOUNTS, path.name());
        }
        JsonNode spec = body.path("spec");
        long seconds = spec.path("expirationSeconds").isNumber() ? spec.path("expirationSeconds").asLong() : 3600;
        // pkg/apis/authentication/validation/validation.go ValidateTokenRequest
        String invalid = seconds < 600 ? "may not specify a duration less than 10 minutes"
                : seconds > (1L << 32) ? "may not specify a duration larger than 2^32 seconds" : null;
        if (invalid != null) {
            throw new ApiException(422, "Invalid", "TokenRequest.authentication.k8s.io \"" + path.name()
                    + "\" is invalid: spec.expirationSeconds: Invalid value: " + seconds + ": " + invalid,
                    Json.object().put("name", path.name()).put("group", "authentication.k8s.io").put("kind", "TokenRequest"));
        }
        Instant now = store.clock().instant();
        Instant expiry = now.plusSeconds(seconds);
        String token = tokens.issue(path.namespace(), path.name(), Json.uid(account), now, expiry);
        ObjectNode answer = Json.object().put("kind", "TokenRequest").put("apiVersion", "authentication.k8s.io/v1");
        answer.putObject("metadata").put("name", path.name()).put("namespace", path.namespace())
                .put("creationTimestamp", Json.timestamp(now));
        ObjectNode answerSpec = answer.putObject("spec");
        ArrayNode audiences = answerSpec.putArray("audiences");
        if (spec.path("audiences").isArray() && !spec.path("audiences").isEmpty()) {
            spec.path("audiences").forEach(audiences::add);
        } else {
            audiences.add("https://kubernetes.default.svc.cluster.local");
        }
        answerSpec.put("expirationSeconds", seconds);
        answerSpec.set("boundObjectRef", spec.has("boundObjectRef") ? spec.get("boundObjectRef") : Json.NODES.nullNode());
        answer.putObject("status").put("token", token).put("expirationTimestamp", Json.timestamp(expiry));
        return answer;
    }

    /** The stored RBAC objects, over RBAC's bootstrap policy (a stored object of the same name wins). */
    private final class StoredPolicy implements RbacPolicy {
        @Override
        public List<ObjectNode> clusterRoleBindings() {
            Map<String, ObjectNode> byName = new java.util.LinkedHashMap<>(BootstrapPolicy.CLUSTER_ROLE_BINDINGS);
            store.list(BuiltinResources.CLUSTER_ROLE_BINDINGS, "", o -> true).forEach(b -> byName.put(Json.name(b), b));
            return new ArrayList<>(byName.values());
        }

        @Override
        public List<ObjectNode> roleBindings(String namespace) {
            return store.list(BuiltinResources.ROLE_BINDINGS, namespace, o -> true);
        }

        @Override
        public ObjectNode clusterRole(String name) {
            ObjectNode stored = store.get(BuiltinResources.CLUSTER_ROLES, null, name);
            return stored != null ? stored : BootstrapPolicy.CLUSTER_ROLES.get(name);
        }

        @Override
        public ObjectNode role(String namespace, String name) {
            return store.get(BuiltinResources.ROLES, namespace, name);
        }
    }
}
