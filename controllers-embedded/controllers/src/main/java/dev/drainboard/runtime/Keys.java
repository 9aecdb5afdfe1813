package dev.drainboard.runtime;

import io.fabric8.kubernetes.api.model.HasMetadata;

/** The usual queue key: {@code namespace/name}, or {@code name} for cluster-scoped objects. */
public final class Keys {

    private Keys() {
    }

    public static String of(HasMetadata object) {
        return of(object.getMetadata().getNamespace(), object.getMetadata().getName());
    }

    public static String of(String namespace, String name) {
        return namespace == null || namespace.isEmpty() ? name : namespace + "/" + name;
    }

    /** The namespace part of a key, or null for a cluster-scoped key. */
    public static String namespace(String key) {
        int slash = key.indexOf('/');
        return slash < 0 ? null : key.substring(0, slash);
    }

    public static String name(String key) {
        return key.substring(key.indexOf('/') + 1);
    }
}
