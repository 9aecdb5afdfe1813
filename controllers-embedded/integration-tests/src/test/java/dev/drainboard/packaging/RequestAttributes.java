package dev.drainboard.packaging;

import java.net.URI;
import java.util.Arrays;
import java.util.List;

/**
 * What Kubernetes' authorizer sees of an HTTP request: verb, API group, resource, subresource, namespace and
 * name; or a non-resource path (discovery, /version), which every authenticated user may read.
 */
record RequestAttributes(String verb, String group, String resource, String subresource, String namespace, String name,
                         boolean nonResource) {

    static RequestAttributes of(String method, URI uri) {
        List<String> parts = Arrays.stream(uri.getPath().split("/")).filter(s -> !s.isEmpty()).toList();
        int i;
        String group;
        if (parts.size() >= 2 && parts.get(0).equals("api")) {
            group = "";
            i = 2;
        } else if (parts.size() >= 3 && parts.get(0).equals("apis")) {
            group = parts.get(1);
            i = 3;
        } else {
            return new RequestAttributes(method.toLowerCase(), null, null, null, null, null, true);
        }
        if (parts.size() <= i) {
            return new RequestAttributes(method.toLowerCase(), null, null, null, null, null, true); // group discovery
        }
        String namespace = null;
        if (parts.get(i).equals("namespaces") && parts.size() > i + 2) {
            namespace = parts.get(i + 1);
            i += 2;
        }
        String resource = parts.get(i);
        String name = parts.size() > i + 1 ? parts.get(i + 1) : null;
        String subresource = parts.size() > i + 2 ? parts.get(i + 2) : null;
        if (resource.equals("namespaces") && name != null) {
            namespace = name;
        }
        boolean watch = uri.getQuery() != null && Arrays.asList(uri.getQuery().split("&")).stream()
                .anyMatch(q -> q.equals("watch=true") || q.equals("watch=1"));
        boolean read = method.equalsIgnoreCase("GET") || method.equalsIgnoreCase("HEAD");
        if (read && name == null && uri.getRawQuery() != null) {
            // A list or watch of one object by field selector carries its name, as kube-apiserver's request info
            // reads it (k8s.io/apiserver pkg/endpoints/request/requestinfo.go), so resourceNames rules apply.
            for (String q : uri.getRawQuery().split("&")) {
                String decoded = java.net.URLDecoder.decode(q, java.nio.charset.StandardCharsets.UTF_8);
                if (decoded.startsWith("fieldSelector=metadata.name=") && !decoded.contains(",")) {
                    name = decoded.substring("fieldSelector=metadata.name=".length());
                }
            }
        }
        String verb = switch (method.toUpperCase()) {
            case "GET", "HEAD" -> watch ? "watch" : name == null ? "list" : "get";
            case "POST" -> "create";
            case "PUT" -> "update";
            case "PATCH" -> "patch";
            case "DELETE" -> name == null ? "deletecollection" : "delete";
            default -> method.toLowerCase();
        };
        return new RequestAttributes(verb, group, resource, subresource, namespace, name, false);
    }

    @Override
    public String toString() {
        if (nonResource) {
            return verb + " (non-resource)";
        }
        return verb + " " + (group.isEmpty() ? "core" : group) + "/" + resource + (subresource == null ? "" : "/" + subresource)
                + (namespace == null ? "" : " in " + namespace) + (name == null ? "" : " named " + name);
    }
}
