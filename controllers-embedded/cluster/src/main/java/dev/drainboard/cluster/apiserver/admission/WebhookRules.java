package dev.drainboard.cluster.apiserver.admission;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.drainboard.cluster.apiserver.BuiltinResources;
import dev.drainboard.cluster.apiserver.Json;
import dev.drainboard.labels.LabelSelector;
import dev.drainboard.labels.SelectorException;
import dev.drainboard.cluster.apiserver.store.ObjectStore;

import java.net.URI;

/** Which requests a webhook's rules select, and where its clientConfig points. */
final class WebhookRules {

    private WebhookRules() {
    }

    static boolean matches(JsonNode webhook, AdmissionAttributes a) {
        if (!objectSelectorMatches(webhook.get("objectSelector"), a)) {
            return false;
        }
        for (JsonNode rule : webhook.path("rules")) {
            if (listed(rule.path("operations"), a.operation())
                    && listed(rule.path("apiGroups"), a.resource().group())
                    && listed(rule.path("apiVersions"), a.resource().version())
                    && resourceListed(rule.path("resources"), a)
                    && scopeMatches(rule.path("scope").asText("*"), a)) {
                return true;
            }
        }
        return false;
    }

    private static boolean listed(JsonNode values, String value) {
        for (JsonNode v : values) {
            if (v.asText().equals("*") || v.asText().equals(value)) {
                return true;
            }
        }
        return false;
    }

    /** "pods", "pods/eviction", "pods/*", "*" and "*&#47;eviction", as the API documents them. */
    private static boolean resourceListed(JsonNode resources, AdmissionAttributes a) {
        String plural = a.resource().plural();
        String sub = a.subresource();
        for (JsonNode r : resources) {
            String text = r.asText();
            String[] parts = text.split("/", 2);
            String resourcePart = parts[0];
            String subPart = parts.length > 1 ? parts[1] : "";
            boolean resourceOk = resourcePart.equals("*") || resourcePart.equals(plural);
            boolean subOk = parts.length == 1 ? sub.isEmpty() && !resourcePart.equals("*") || (resourcePart.equals("*") && sub.isEmpty())
                    : subPart.equals("*") || subPart.equals(sub);
            if (resourceOk && subOk) {
                return true;
            }
        }
        return false;
    }

    private static boolean scopeMatches(String scope, AdmissionAttributes a) {
        return switch (scope) {
            case "Cluster" -> !a.resource().namespaced();
            case "Namespaced" -> a.resource().namespaced();
            default -> true;
        };
    }

    private static boolean objectSelectorMatches(JsonNode selector, AdmissionAttributes a) {
        if (selector == null || selector.isEmpty()) {
            return true;
        }
        try {
            LabelSelector s = LabelSelector.fromJson(selector);
            return (a.object() != null && s.matchesObject(a.object())) || (a.oldObject() != null && s.matchesObject(a.oldObject()));
        } catch (SelectorException e) {
            return false;
        }
    }

    /** The webhook's URL, or its service reference resolved to this machine's loopback. */
    static URI target(JsonNode clientConfig, ObjectStore store) {
        if (clientConfig.hasNonNull("url")) {
            return URI.create(clientConfig.get("url").asText());
        }
        JsonNode service = clientConfig.path("service");
        int port = service.path("port").asInt(443);
        ObjectNode svc = store.get(BuiltinResources.SERVICES, service.path("namespace").asText(), service.path("name").asText());
        if (svc != null) {
            for (JsonNode p : svc.path("spec").path("ports")) {
                if (p.path("port").asInt() == port && p.path("targetPort").isInt()) {
                    port = p.path("targetPort").asInt();
                }
            }
        }
        String path = service.path("path").asText("/");
        return URI.create("https://127.0.0.1:" + port + (path.startsWith("/") ? path : "/" + path));
    }

    static String describe(JsonNode webhook) {
        return Json.text(webhook, "name");
    }
}
