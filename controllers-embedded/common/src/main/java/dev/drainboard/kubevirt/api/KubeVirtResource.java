package dev.drainboard.kubevirt.api;

import io.fabric8.kubernetes.api.model.Namespaced;

/** A namespaced kubevirt.io object that keeps top-level fields besides apiVersion, kind, metadata, spec and status. */
public abstract class KubeVirtResource<S, T> extends KubeVirtObject<S, T> implements Namespaced {

    /** The API group of KubeVirt's resources. */
    public static final String GROUP = "kubevirt.io";
    /** The version Drainboard reads and writes them in. */
    public static final String VERSION = "v1";
    /** {@code apiVersion} of KubeVirt's objects, e.g. in owner references. */
    public static final String API_VERSION = GROUP + "/" + VERSION;
}
