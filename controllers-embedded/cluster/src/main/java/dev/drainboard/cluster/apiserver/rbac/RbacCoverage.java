package dev.drainboard.cluster.apiserver.rbac;

import com.fasterxml.jackson.databind.JsonNode;
import dev.drainboard.architecture.Pure;

import java.util.ArrayList;
import java.util.List;

/**
 * Whether the rules a user holds cover the rules they grant (k8s.io/component-helpers auth/rbac/validation
 * {@code Covers}, used by kube-apiserver's RBAC storage to refuse privilege escalation): each granted rule is broken
 * down into single rights (one API group, resource, verb, and resource name if it names any; or one non-resource
 * URL and verb), and each right must be allowed by one held rule. A {@code *} granted is a right of its own that
 * only a held {@code *} covers.
 */
@Pure
public final class RbacCoverage {

    private RbacCoverage() {
    }

    /** One right: apiGroup/resource/verb/name (name empty: any), or a non-resource URL and a verb. */
    public record Right(String apiGroup, String resource, String verb, String resourceName, String nonResourceUrl) {
        /** As kube's {@code CompactString} prints a rule of one right. */
        public String compact() {
            if (nonResourceUrl != null) {
                return "{NonResourceURLs:[\"" + nonResourceUrl + "\"], Verbs:[\"" + verb + "\"]}";
            }
            return "{APIGroups:[\"" + apiGroup + "\"], Resources:[\"" + resource + "\"], "
                    + (resourceName.isEmpty() ? "" : "ResourceNames:[\"" + resourceName + "\"], ") + "Verbs:[\"" + verb + "\"]}";
        }
    }

    /** The rights of {@code granted} that no rule of {@code held} covers, in order; empty when all are covered. */
    public static List<Right> notHeld(List<JsonNode> held, List<JsonNode> granted) {
        List<Right> missing = new ArrayList<>();
        for (JsonNode rule : granted) {
            for (Right right : rights(rule)) {
                if (held.stream().noneMatch(h -> covers(h, right))) {
                    missing.add(right);
                }
            }
        }
        return missing;
    }

    static List<Right> rights(JsonNode rule) {
        List<Right> rights = new ArrayList<>();
        for (JsonNode verb : rule.path("verbs")) {
            for (JsonNode url : rule.path("nonResourceURLs")) {
                rights.add(new Right("", "", verb.asText(), "", url.asText()));
            }
            for (JsonNode group : rule.path("apiGroups")) {
                for (JsonNode resource : rule.path("resources")) {
                    if (rule.path("resourceNames").isEmpty()) {
                        rights.add(new Right(group.asText(), resource.asText(), verb.asText(), "", null));
                    } else {
                        for (JsonNode name : rule.path("resourceNames")) {
                            rights.add(new Right(group.asText(), resource.asText(), verb.asText(), name.asText(), null));
                        }
                    }
                }
            }
        }
        return rights;
    }

    static boolean covers(JsonNode held, Right right) {
        if (!has(held.path("verbs"), right.verb())) {
            return false;
        }
        if (right.nonResourceUrl() != null) {
            for (JsonNode url : held.path("nonResourceURLs")) {
                String u = url.asText();
                if (u.equals("*") || u.equals(right.nonResourceUrl())
                        || (u.endsWith("*") && right.nonResourceUrl().startsWith(u.substring(0, u.length() - 1)))) {
                    return true;
                }
            }
            return false;
        }
        if (!has(held.path("apiGroups"), right.apiGroup())) {
            return false;
        }
        boolean resource = false;
        for (JsonNode r : held.path("resources")) {
            String text = r.asText();
            String sub = right.resource().contains("/") ? right.resource().substring(right.resource().indexOf('/')) : null;
            if (text.equals("*") || text.equals(right.resource()) || (sub != null && text.equals("*" + sub))
                    || (text.endsWith("/*") && right.resource().startsWith(text.substring(0, text.length() - 1)))) {
                resource = true;
                break;
            }
        }
        if (!resource) {
            return false;
        }
        JsonNode names = held.path("resourceNames");
        if (names.isEmpty()) {
            return true;
        }
        return !right.resourceName().isEmpty() && has(names, right.resourceName()) && !names.isEmpty();
    }

    private static boolean has(JsonNode values, String value) {
        for (JsonNode v : values) {
            if (v.asText().equals("*") || v.asText().equals(value)) {
                return true;
            }
        }
        return false;
    }
}
