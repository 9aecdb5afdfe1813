package dev.drainboard.cluster.apiserver;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.drainboard.cluster.apiserver.ObjectValidator.Violation;

import java.util.ArrayList;
import java.util.List;

/**
 * The essentials of rbac.authorization.k8s.io/v1 validation (pkg/apis/rbac/validation/validation.go): every rule has
 * verbs and either API groups with resources or (cluster-wide only) non-resource URLs; a binding's roleRef names a
 * ClusterRole (or, for a RoleBinding, a Role) of rbac.authorization.k8s.io; its subjects are Users, Groups or
 * ServiceAccounts with names (a ClusterRoleBinding's ServiceAccounts with namespaces).
 */
final class RbacValidation {

    private static final String GROUP = "rbac.authorization.k8s.io";

    private RbacValidation() {
    }

    static void register(ObjectValidators validators) {
        validators.add(BuiltinResources.ROLES.groupResource(), o -> rules(o, true));
        validators.add(BuiltinResources.CLUSTER_ROLES.groupResource(), o -> rules(o, false));
        validators.add(BuiltinResources.ROLE_BINDINGS.groupResource(), o -> binding(o, true));
        validators.add(BuiltinResources.CLUSTER_ROLE_BINDINGS.groupResource(), o -> binding(o, false));
    }

    private static List<Violation> rules(ObjectNode role, boolean namespaced) {
        List<Violation> violations = new ArrayList<>();
        JsonNode rules = role.path("rules");
        for (int i = 0; i < rules.size(); i++) {
            JsonNode rule = rules.get(i);
            String at = "rules[" + i + "].";
            if (rule.path("verbs").isEmpty()) {
                violations.add(new Violation(at + "verbs", "Required value: verbs must contain at least one value"));
            }
            JsonNode urls = rule.path("nonResourceURLs");
            if (!urls.isEmpty()) {
                if (namespaced) {
                    violations.add(new Violation(at + "nonResourceURLs", "Invalid value: " + goStrings(urls)
                            + ": namespaced rules cannot apply to non-resource URLs"));
                }
                if (!rule.path("apiGroups").isEmpty() || !rule.path("resources").isEmpty()) {
                    violations.add(new Violation(at + "nonResourceURLs", "Invalid value: " + goStrings(urls)
                            + ": rules cannot apply to both regular resources and non-resource URLs"));
                }
                continue;
            }
            if (rule.path("apiGroups").isEmpty()) {
                violations.add(new Violation(at + "apiGroups", "Required value: resource rules must supply at least one api group"));
            }
            if (rule.path("resources").isEmpty()) {
                violations.add(new Violation(at + "resources", "Required value: resource rules must supply at least one resource"));
            }
        }
        return violations;
    }

    private static List<Violation> binding(ObjectNode binding, boolean namespaced) {
        List<Violation> violations = new ArrayList<>();
        JsonNode ref = binding.path("roleRef");
        String apiGroup = ref.path("apiGroup").asText("");
        if (!apiGroup.equals(GROUP)) {
            violations.add(new Violation("roleRef.apiGroup", "Unsupported value: \"" + apiGroup
                    + "\": supported values: \"" + GROUP + "\""));
        }
        String kind = ref.path("kind").asText("");
        if (namespaced && !kind.equals("Role") && !kind.equals("ClusterRole")) {
            violations.add(new Violation("roleRef.kind", "Unsupported value: \"" + kind + "\": supported values: \"Role\", \"ClusterRole\""));
        } else if (!namespaced && !kind.equals("ClusterRole")) {
            violations.add(new Violation("roleRef.kind", "Unsupported value: \"" + kind + "\": supported values: \"ClusterRole\""));
        }
        if (ref.path("name").asText("").isEmpty()) {
            violations.add(new Violation("roleRef.name", "Required value"));
        }
        JsonNode subjects = binding.path("subjects");
        for (int i = 0; i < subjects.size(); i++) {
            JsonNode subject = subjects.get(i);
            String at = "subjects[" + i + "].";
            if (subject.path("name").asText("").isEmpty()) {
                violations.add(new Violation(at + "name", "Required value"));
            }
            String subjectKind = subject.path("kind").asText("");
            switch (subjectKind) {
                case "ServiceAccount" -> {
                    if (!namespaced && subject.path("namespace").asText("").isEmpty()) {
                        violations.add(new Violation(at + "namespace", "Required value"));
                    }
                }
                case "User", "Group" -> {
                }
                default -> violations.add(new Violation(at + "kind", "Unsupported value: \"" + subjectKind
                        + "\": supported values: \"ServiceAccount\", \"User\", \"Group\""));
            }
        }
        return violations;
    }

    private static String goStrings(JsonNode values) {
        List<String> quoted = new ArrayList<>();
        values.forEach(v -> quoted.add("\"" + v.asText() + "\""));
        return "[]string{" + String.join(", ", quoted) + "}";
    }
}
