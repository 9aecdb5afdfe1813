package dev.drainboard.cluster.apiserver;

import java.util.List;

/**
 * A request path resolved to a resource: /api/v1/namespaces/ns/pods/name/status and friends.
 * {@code namespace} is "" for cluster-scoped resources and for lists across all namespaces;
 * {@code name} and {@code subresource} are "" when absent.
 */
record ResourcePath(ResourceType type, String namespace, String name, String subresource) {

    boolean isCollection() {
        return name.isEmpty();
    }

    /** Parses the segments after /api/v1 or /apis/{group}/{version}; null when nothing matches. */
    static ResourcePath parse(ResourceRegistry registry, String group, String version, List<String> segments) {
        if (segments.isEmpty()) {
            return null;
        }
        boolean namespaceSubresource = group.isEmpty() && segments.size() == 3
                && (segments.get(2).equals("status") || segments.get(2).equals("finalize"));
        if (segments.getFirst().equals("namespaces") && segments.size() >= 3 && !namespaceSubresource) {
            ResourceType type = registry.find(group, version, segments.get(2)).orElse(null);
            if (type == null || !type.namespaced() || segments.size() > 5) {
                return null;
            }
            return new ResourcePath(type, segments.get(1), segments.size() > 3 ? segments.get(3) : "", segments.size() > 4 ? segments.get(4) : "");
        }
        ResourceType type = registry.find(group, version, segments.getFirst()).orElse(null);
        if (type == null || segments.size() > 3) {
            return null;
        }
        if (type.namespaced() && segments.size() > 1) {
            return null;
        }
        return new ResourcePath(type, "", segments.size() > 1 ? segments.get(1) : "", segments.size() > 2 ? segments.get(2) : "");
    }
}
