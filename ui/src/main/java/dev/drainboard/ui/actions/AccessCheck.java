package dev.drainboard.ui.actions;

import java.util.Objects;

/**
 * One question for the API server's authorizer: may the current user do {@code verb} on this resource? The fields
 * are a SelfSubjectAccessReview's resource attributes; an empty namespace means every namespace (or a
 * cluster-scoped resource).
 */
public record AccessCheck(String verb, String group, String resource, String subresource, String namespace) {

    public AccessCheck {
        Objects.requireNonNull(verb, "verb");
        Objects.requireNonNull(resource, "resource");
        group = group == null ? "" : group;
        subresource = subresource == null ? "" : subresource;
        namespace = namespace == null ? "" : namespace;
    }

    public static AccessCheck patchNodes() {
        return new AccessCheck("patch", "", "nodes", "", "");
    }

    /** {@code create pods/eviction} in a namespace, or in every namespace when it is empty (a drain). */
    public static AccessCheck evictPods(String namespace) {
        return new AccessCheck("create", "", "pods", "eviction", namespace);
    }

    public static AccessCheck listPods() {
        return new AccessCheck("list", "", "pods", "", "");
    }

    /** A cancelled evacuation is a JSON patch of the VMI (its CRD has no status subresource). */
    public static AccessCheck patchVmis(String namespace) {
        return new AccessCheck("patch", "kubevirt.io", "virtualmachineinstances", "", namespace);
    }

    public static AccessCheck createMigrations(String namespace) {
        return new AccessCheck("create", "kubevirt.io", "virtualmachineinstancemigrations", "", namespace);
    }

    public static AccessCheck deleteMigrations(String namespace) {
        return new AccessCheck("delete", "kubevirt.io", "virtualmachineinstancemigrations", "", namespace);
    }

    /** As an operator reads it: {@code create pods/eviction in namespace demo}. */
    public String describe() {
        String what = resource + (subresource.isEmpty() ? "" : "/" + subresource);
        if (!group.isEmpty()) {
            what += "." + group;
        }
        return verb + " " + what + (namespace.isEmpty() ? "" : " in namespace " + namespace);
    }
}
