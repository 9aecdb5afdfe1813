package dev.drainboard.cluster.apiserver.rbac;

/**
 * What a request asks to do, as kube-apiserver's request-info resolver reads it (apiserver
 * pkg/endpoints/request/requestinfo.go): a verb on a resource (with its subresource, namespace and name), or a verb on a
 * non-resource path.
 */
public record Attributes(boolean resourceRequest, String verb, String apiGroup, String resource, String subresource,
                         String namespace, String name, String path) {

    public static Attributes resource(String verb, String apiGroup, String resource, String subresource,
                                      String namespace, String name) {
        return new Attributes(true, verb, apiGroup, resource, subresource, namespace, name, "");
    }

    public static Attributes nonResource(String verb, String path) {
        return new Attributes(false, verb, "", "", "", "", "", path);
    }

    /** requestinfo.go: GET is get, list or watch; POST create; PUT update; PATCH patch; DELETE delete or deletecollection. */
    public static String verb(String method, boolean collection, boolean watch) {
        return switch (method) {
            case "GET", "HEAD" -> watch ? "watch" : collection ? "list" : "get";
            case "POST" -> "create";
            case "PUT" -> "update";
            case "PATCH" -> "patch";
            case "DELETE" -> collection ? "deletecollection" : "delete";
            default -> method.toLowerCase(java.util.Locale.ROOT);
        };
    }
}
