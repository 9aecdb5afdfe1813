package dev.drainboard.cluster.apiserver.rbac;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * Whether one PolicyRule or one binding subject applies, as kube's RBAC authorizer decides it
 * (plugin/pkg/auth/authorizer/rbac/rbac.go {@code RuleAllows}, pkg/apis/rbac/v1/evaluation_helpers.go,
 * pkg/registry/rbac/validation/rule.go {@code appliesToUser}). Pure.
 */
public final class RbacRules {

    private RbacRules() {
    }

    public static boolean allows(Attributes request, JsonNode rule) {
        if (!contains(rule.path("verbs"), request.verb(), true)) {
            return false;
        }
        if (!request.resourceRequest()) {
            return nonResourceUrlMatches(rule.path("nonResourceURLs"), request.path());
        }
        return contains(rule.path("apiGroups"), request.apiGroup(), true)
                && resourceMatches(rule.path("resources"), request.resource(), request.subresource())
                && resourceNameMatches(rule.path("resourceNames"), request.name());
    }

    // "*" matches every resource; "*/sub" any resource's subresource sub; else resource or resource/sub exactly.
    private static boolean resourceMatches(JsonNode resources, String resource, String subresource) {
        String combined = subresource.isEmpty() ? resource : resource + "/" + subresource;
        for (JsonNode r : resources) {
            String text = r.asText();
            if (text.equals("*") || text.equals(combined)
                    || (!subresource.isEmpty() && text.equals("*/" + subresource))) {
                return true;
            }
        }
        return false;
    }

    /** No resourceNames: every name; else the request's name must be one of them (so never a list or a create). */
    private static boolean resourceNameMatches(JsonNode names, String name) {
        if (!names.isArray() || names.isEmpty()) {
            return true;
        }
        return contains(names, name, false);
    }

    /** "*" matches every path; "/x*" every path starting "/x"; else the path exactly. */
    private static boolean nonResourceUrlMatches(JsonNode urls, String path) {
        for (JsonNode u : urls) {
            String text = u.asText();
            if (text.equals("*") || text.equals(path)
                    || (text.endsWith("*") && path.startsWith(text.substring(0, text.length() - 1)))) {
                return true;
            }
        }
        return false;
    }

    private static boolean contains(JsonNode values, String value, boolean wildcard) {
        for (JsonNode v : values) {
            if (v.asText().equals(value) || (wildcard && v.asText().equals("*"))) {
                return true;
            }
        }
        return false;
    }

    /**
     * A binding's subject names the user: a User by name, a Group the user is in, a ServiceAccount (in the binding's
     * namespace when the subject has none) by its user name.
     */
    public static boolean subjectMatches(JsonNode subject, UserInfo user, String bindingNamespace) {
        String name = subject.path("name").asText("");
        return switch (subject.path("kind").asText("")) {
            case "User" -> user.name().equals(name);
            case "Group" -> user.groups().contains(name);
            case "ServiceAccount" -> {
                String namespace = subject.path("namespace").asText("");
                if (namespace.isEmpty()) {
                    namespace = bindingNamespace;
                }
                yield !namespace.isEmpty() && user.name().equals(UserInfo.serviceAccountName(namespace, name));
            }
            default -> false;
        };
    }
}
