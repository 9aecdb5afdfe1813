package dev.drainboard.cluster.apiserver;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The part of RBAC's bootstrap policy a cluster's users rely on (plugin/pkg/auth/authorizer/rbac/bootstrappolicy/
 * policy.go): cluster-admin for system:masters; discovery, the self reviews and the public health and version paths for
 * every authenticated user, the latter also for anonymous ones. They are not stored: a stored ClusterRole or
 * ClusterRoleBinding of the same name takes their place.
 */
final class BootstrapPolicy {

    static final Map<String, ObjectNode> CLUSTER_ROLES = new LinkedHashMap<>();
    static final Map<String, ObjectNode> CLUSTER_ROLE_BINDINGS = new LinkedHashMap<>();

    static {
        ObjectNode admin = role("cluster-admin");
        resourceRule(admin, List.of("*"), List.of("*"), List.of("*"));
        nonResourceRule(admin, List.of("*"), List.of("*"));
        binding("cluster-admin", List.of("system:masters"));

        ObjectNode discovery = role("system:discovery");
        nonResourceRule(discovery, List.of("get"), List.of("/api", "/api/*", "/apis", "/apis/*", "/healthz", "/livez",
                "/openapi", "/openapi/*", "/readyz", "/version", "/version/"));
        binding("system:discovery", List.of("system:authenticated"));

        ObjectNode basic = role("system:basic-user");
        resourceRule(basic, List.of("create"), List.of("authorization.k8s.io"),
                List.of("selfsubjectaccessreviews", "selfsubjectrulesreviews"));
        resourceRule(basic, List.of("create"), List.of("authentication.k8s.io"), List.of("selfsubjectreviews"));
        binding("system:basic-user", List.of("system:authenticated"));

        ObjectNode publicInfo = role("system:public-info-viewer");
        nonResourceRule(publicInfo, List.of("get"), List.of("/healthz", "/livez", "/readyz", "/version", "/version/"));
        binding("system:public-info-viewer", List.of("system:authenticated", "system:unauthenticated"));
    }

    private BootstrapPolicy() {
    }

    private static ObjectNode role(String name) {
        ObjectNode role = Json.object().put("apiVersion", "rbac.authorization.k8s.io/v1").put("kind", "ClusterRole");
        role.putObject("metadata").put("name", name).putObject("labels").put("kubernetes.io/bootstrapping", "rbac-defaults");
        role.putArray("rules");
        CLUSTER_ROLES.put(name, role);
        return role;
    }

    private static void binding(String name, List<String> groups) {
        ObjectNode binding = Json.object().put("apiVersion", "rbac.authorization.k8s.io/v1").put("kind", "ClusterRoleBinding");
        binding.putObject("metadata").put("name", name).putObject("labels").put("kubernetes.io/bootstrapping", "rbac-defaults");
        binding.putObject("roleRef").put("apiGroup", "rbac.authorization.k8s.io").put("kind", "ClusterRole").put("name", name);
        ArrayNode subjects = binding.putArray("subjects");
        groups.forEach(g -> subjects.addObject().put("apiGroup", "rbac.authorization.k8s.io").put("kind", "Group").put("name", g));
        CLUSTER_ROLE_BINDINGS.put(name, binding);
    }

    static void resourceRule(ObjectNode role, List<String> verbs, List<String> groups, List<String> resources) {
        ObjectNode rule = ((ArrayNode) role.get("rules")).addObject();
        verbs.forEach(rule.putArray("verbs")::add);
        groups.forEach(rule.putArray("apiGroups")::add);
        resources.forEach(rule.putArray("resources")::add);
    }

    static void nonResourceRule(ObjectNode role, List<String> verbs, List<String> urls) {
        ObjectNode rule = ((ArrayNode) role.get("rules")).addObject();
        verbs.forEach(rule.putArray("verbs")::add);
        urls.forEach(rule.putArray("nonResourceURLs")::add);
    }
}
