package dev.drainboard.cluster.apiserver.rbac;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.ArrayList;
import java.util.List;

/**
 * kube-apiserver's RBAC authorizer (plugin/pkg/auth/authorizer/rbac/rbac.go and pkg/registry/rbac/validation/rule.go
 * {@code VisitRulesFor}): a request is allowed when a rule of a role bound to the user allows it — ClusterRoleBindings
 * everywhere, RoleBindings only in their namespace. Nothing is denied explicitly; a binding to a missing role is an
 * error that becomes the denial's reason, as there.
 */
public final class RbacAuthorizer {

    private final RbacPolicy policy;

    public RbacAuthorizer(RbacPolicy policy) {
        this.policy = policy;
    }

    /** The decision, and when denied the reason kube appends to the Forbidden message ("" for none). */
    public record Decision(boolean allowed, String reason) {
    }

    public Decision authorize(UserInfo user, Attributes request) {
        List<String> errors = new ArrayList<>();
        for (JsonNode rule : rulesFor(user, request.namespace(), errors)) {
            if (RbacRules.allows(request, rule)) {
                return new Decision(true, "");
            }
        }
        String reason = errors.isEmpty() ? "" : "RBAC: " + (errors.size() == 1 ? errors.getFirst()
                : "[" + String.join(", ", errors) + "]");
        return new Decision(false, reason);
    }

    /** Every rule bound to the user, cluster-wide and in the namespace ("" for cluster-wide only). */
    public List<JsonNode> rulesFor(UserInfo user, String namespace, List<String> errors) {
        List<JsonNode> rules = new ArrayList<>();
        for (ObjectNode binding : policy.clusterRoleBindings()) {
            if (bound(binding, user, "")) {
                addRules(rules, binding, "", errors);
            }
        }
        if (!namespace.isEmpty()) {
            for (ObjectNode binding : policy.roleBindings(namespace)) {
                if (bound(binding, user, namespace)) {
                    addRules(rules, binding, namespace, errors);
                }
            }
        }
        return rules;
    }

    private static boolean bound(ObjectNode binding, UserInfo user, String namespace) {
        for (JsonNode subject : binding.path("subjects")) {
            if (RbacRules.subjectMatches(subject, user, namespace)) {
                return true;
            }
        }
        return false;
    }

    private void addRules(List<JsonNode> rules, ObjectNode binding, String namespace, List<String> errors) {
        JsonNode ref = binding.path("roleRef");
        String name = ref.path("name").asText("");
        boolean clusterRole = ref.path("kind").asText("").equals("ClusterRole");
        ObjectNode role = clusterRole ? policy.clusterRole(name) : policy.role(namespace, name);
        if (role == null) {
            errors.add((clusterRole ? "clusterrole" : "role") + ".rbac.authorization.k8s.io \"" + name + "\" not found");
            return;
        }
        role.path("rules").forEach(rules::add);
    }
}
