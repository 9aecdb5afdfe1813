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
        for (BoundRule bound : boundRules(user, request.namespace(), errors)) {
            if (RbacRules.allows(request, bound.rule())) {
                return new Decision(true, "RBAC: allowed by " + bound.source());
            }
        }
        String reason = errors.isEmpty() ? "" : "RBAC: " + (errors.size() == 1 ? errors.getFirst()
                : "[" + String.join(", ", errors) + "]");
        return new Decision(false, reason);
    }

    /** Every rule bound to the user, cluster-wide and in the namespace ("" for cluster-wide only). */
    public List<JsonNode> rulesFor(UserInfo user, String namespace, List<String> errors) {
        return boundRules(user, namespace, errors).stream().map(BoundRule::rule).toList();
    }

    /** A rule and what bound it, worded as rbac.go's describers: {@code ClusterRoleBinding "x" of ClusterRole "y" to Group "z"}. */
    private record BoundRule(JsonNode rule, String source) {
    }

    private List<BoundRule> boundRules(UserInfo user, String namespace, List<String> errors) {
        List<BoundRule> rules = new ArrayList<>();
        for (ObjectNode binding : policy.clusterRoleBindings()) {
            JsonNode subject = boundSubject(binding, user, "");
            if (subject != null) {
                String source = "ClusterRoleBinding \"" + binding.path("metadata").path("name").asText() + "\"";
                addRules(rules, binding, "", errors, source, subject);
            }
        }
        if (!namespace.isEmpty()) {
            for (ObjectNode binding : policy.roleBindings(namespace)) {
                JsonNode subject = boundSubject(binding, user, namespace);
                if (subject != null) {
                    String source = "RoleBinding \"" + binding.path("metadata").path("name").asText() + "/" + namespace + "\"";
                    addRules(rules, binding, namespace, errors, source, subject);
                }
            }
        }
        return rules;
    }

    private static JsonNode boundSubject(ObjectNode binding, UserInfo user, String namespace) {
        for (JsonNode subject : binding.path("subjects")) {
            if (RbacRules.subjectMatches(subject, user, namespace)) {
                return subject;
            }
        }
        return null;
    }

    private static String describe(JsonNode subject, String bindingNamespace) {
        String kind = subject.path("kind").asText();
        String name = subject.path("name").asText();
        if (kind.equals("ServiceAccount")) {
            String namespace = subject.path("namespace").asText("");
            name = name + "/" + (namespace.isEmpty() ? bindingNamespace : namespace);
        }
        return kind + " \"" + name + "\"";
    }

    private void addRules(List<BoundRule> rules, ObjectNode binding, String namespace, List<String> errors,
                          String bindingSource, JsonNode subject) {
        JsonNode ref = binding.path("roleRef");
        String name = ref.path("name").asText("");
        boolean clusterRole = ref.path("kind").asText("").equals("ClusterRole");
        ObjectNode role = clusterRole ? policy.clusterRole(name) : policy.role(namespace, name);
        if (role == null) {
            errors.add((clusterRole ? "clusterrole" : "role") + ".rbac.authorization.k8s.io \"" + name + "\" not found");
            return;
        }
        String source = bindingSource + " of " + ref.path("kind").asText() + " \"" + name + "\" to "
                + describe(subject, namespace);
        role.path("rules").forEach(rule -> rules.add(new BoundRule(rule, source)));
    }
}
