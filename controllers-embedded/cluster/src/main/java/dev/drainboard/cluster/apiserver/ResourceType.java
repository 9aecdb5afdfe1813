package dev.drainboard.cluster.apiserver;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.List;
import java.util.Set;

/**
 * One resource the API server serves: what discovery advertises, where it lives in the URL space,
 * and which subresources it has. Built-in resources are declared in {@link BuiltinResources};
 * custom resources come from CustomResourceDefinitions at run time.
 *
 * @param group              API group, "" for the core group
 * @param version            the version served (stored objects are kept in this version)
 * @param plural             resource name in URLs, e.g. "pods"
 * @param singular           singular name, e.g. "pod"
 * @param kind               object kind, e.g. "Pod"
 * @param namespaced         whether objects live in namespaces
 * @param shortNames         kubectl short names
 * @param categories         discovery categories (e.g. "all")
 * @param subresources       served subresources, e.g. "status", "scale", "eviction", "binding"
 * @param scale              where the scale subresource reads and writes, or null
 * @param printerColumns     CRD additionalPrinterColumns (as declared), or null for built-in printing
 * @param schema             the openAPIV3Schema of a custom resource, or null
 */
public record ResourceType(
        String group,
        String version,
        String plural,
        String singular,
        String kind,
        boolean namespaced,
        List<String> shortNames,
        List<String> categories,
        Set<String> subresources,
        ScaleSpec scale,
        JsonNode printerColumns,
        JsonNode schema) {

    /** The JSON paths of a scale subresource, as a CRD declares them. */
    public record ScaleSpec(String specReplicasPath, String statusReplicasPath, String labelSelectorPath) {
    }

    public String apiVersion() {
        return group.isEmpty() ? version : group + "/" + version;
    }

    /** Group and resource, the storage identity: "pods", "deployments.apps". */
    public String groupResource() {
        return group.isEmpty() ? plural : plural + "." + group;
    }

    public String listKind() {
        return kind + "List";
    }

    public boolean isCustom() {
        return schema != null || printerColumns != null;
    }

    public boolean hasSubresource(String name) {
        return subresources.contains(name);
    }

    public static final Set<String> ALL_VERBS_SET = Set.of(
            "create", "delete", "deletecollection", "get", "list", "patch", "update", "watch");

    public static final List<String> ALL_VERBS = List.of(
            "create", "delete", "deletecollection", "get", "list", "patch", "update", "watch");
}
