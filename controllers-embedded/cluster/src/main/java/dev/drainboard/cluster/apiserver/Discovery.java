package dev.drainboard.cluster.apiserver;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.List;
import java.util.Map;

/** The legacy discovery documents: /api, /api/v1, /apis, /apis/{group}, /apis/{group}/{version}. */
final class Discovery {

    private final ResourceRegistry registry;

    Discovery(ResourceRegistry registry) {
        this.registry = registry;
    }

    ObjectNode version() {
        ObjectNode v = Json.object();
        v.put("major", "1");
        v.put("minor", "32");
        v.put("gitVersion", "v1.32.0-drainboard");
        v.put("gitCommit", "0000000000000000000000000000000000000000");
        v.put("gitTreeState", "clean");
        v.put("buildDate", "2026-11-01T00:00:00Z");
        v.put("goVersion", "go1.23.0");
        v.put("compiler", "gc");
        v.put("platform", "linux/amd64");
        return v;
    }

    ObjectNode coreVersions(String serverAddress) {
        ObjectNode doc = Json.object();
        doc.put("kind", "APIVersions");
        doc.putArray("versions").add("v1");
        ObjectNode cidr = doc.putArray("serverAddressByClientCIDRs").addObject();
        cidr.put("clientCIDR", "0.0.0.0/0");
        cidr.put("serverAddress", serverAddress);
        return doc;
    }

    ObjectNode groupList() {
        ObjectNode doc = Json.object();
        doc.put("kind", "APIGroupList");
        doc.put("apiVersion", "v1");
        ArrayNode groups = doc.putArray("groups");
        for (Map.Entry<String, List<String>> group : groups().entrySet()) {
            groups.add(group(group.getKey(), group.getValue()));
        }
        return doc;
    }

    /** The registry's groups and the review groups, by name. */
    private Map<String, List<String>> groups() {
        Map<String, List<String>> groups = new java.util.TreeMap<>(registry.groups());
        for (String groupVersion : AccessReviews.SERVED.keySet()) {
            String[] gv = groupVersion.split("/");
            groups.merge(gv[0], List.of(gv[1]), (a, b) -> a.contains(b.getFirst()) ? a
                    : java.util.stream.Stream.concat(a.stream(), b.stream()).toList());
        }
        return groups;
    }

    ObjectNode group(String name) {
        List<String> versions = groups().get(name);
        if (versions == null) {
            throw ApiException.pathNotFound();
        }
        ObjectNode doc = group(name, versions);
        doc.put("kind", "APIGroup");
        doc.put("apiVersion", "v1");
        return doc;
    }

    private static ObjectNode group(String name, List<String> versions) {
        ObjectNode group = Json.object();
        group.put("name", name);
        ArrayNode list = group.putArray("versions");
        for (String version : versions) {
            list.addObject().put("groupVersion", name + "/" + version).put("version", version);
        }
        group.putObject("preferredVersion").put("groupVersion", name + "/" + versions.getFirst()).put("version", versions.getFirst());
        return group;
    }

    ObjectNode resourceList(String group, String version) {
        List<ResourceType> types = registry.inGroupVersion(group, version);
        List<Map.Entry<String, String>> reviews = AccessReviews.SERVED.getOrDefault(group + "/" + version, List.of());
        if (types.isEmpty() && reviews.isEmpty()) {
            throw ApiException.pathNotFound();
        }
        ObjectNode doc = Json.object();
        doc.put("kind", "APIResourceList");
        doc.put("apiVersion", "v1");
        doc.put("groupVersion", group.isEmpty() ? version : group + "/" + version);
        ArrayNode resources = doc.putArray("resources");
        for (ResourceType t : types) {
            ObjectNode r = resources.addObject();
            r.put("name", t.plural());
            r.put("singularName", t.singular());
            r.put("namespaced", t.namespaced());
            r.put("kind", t.kind());
            ArrayNode verbs = r.putArray("verbs");
            verbsOf(t).forEach(verbs::add);
            if (!t.shortNames().isEmpty()) {
                ArrayNode shortNames = r.putArray("shortNames");
                t.shortNames().forEach(shortNames::add);
            }
            if (!t.categories().isEmpty()) {
                ArrayNode categories = r.putArray("categories");
                t.categories().forEach(categories::add);
            }
            for (String sub : t.subresources().stream().sorted().toList()) {
                resources.add(subresource(t, sub));
            }
        }
        for (Map.Entry<String, String> review : reviews) {
            // create-only and cluster-scoped, as kube-apiserver lists them
            ObjectNode r = resources.addObject();
            r.put("name", review.getKey());
            r.put("singularName", review.getValue().toLowerCase(java.util.Locale.ROOT));
            r.put("namespaced", false);
            r.put("kind", review.getValue());
            r.putArray("verbs").add("create");
        }
        return doc;
    }

    private static List<String> verbsOf(ResourceType t) {
        if (t == BuiltinResources.NAMESPACES) {
            return List.of("create", "delete", "get", "list", "patch", "update", "watch");
        }
        return ResourceType.ALL_VERBS;
    }

    private static ObjectNode subresource(ResourceType t, String sub) {
        ObjectNode r = Json.object();
        r.put("name", t.plural() + "/" + sub);
        r.put("singularName", "");
        r.put("namespaced", t.namespaced());
        ArrayNode verbs = r.putArray("verbs");
        switch (sub) {
            case "eviction" -> {
                r.put("group", "policy");
                r.put("version", "v1");
                r.put("kind", "Eviction");
                verbs.add("create");
            }
            case "token" -> {
                r.put("group", "authentication.k8s.io");
                r.put("version", "v1");
                r.put("kind", "TokenRequest");
                verbs.add("create");
            }
            case "binding" -> {
                r.put("kind", "Binding");
                verbs.add("create");
            }
            case "scale" -> {
                r.put("group", "autoscaling");
                r.put("version", "v1");
                r.put("kind", "Scale");
                verbs.add("get").add("patch").add("update");
            }
            case "finalize" -> {
                r.put("kind", t.kind());
                verbs.add("update");
            }
            default -> {
                r.put("kind", t.kind());
                verbs.add("get").add("patch").add("update");
            }
        }
        return r;
    }
}
