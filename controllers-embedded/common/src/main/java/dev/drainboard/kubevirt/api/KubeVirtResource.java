package dev.drainboard.kubevirt.api;

import com.fasterxml.jackson.annotation.JsonAnyGetter;
import com.fasterxml.jackson.annotation.JsonAnySetter;
import com.fasterxml.jackson.annotation.JsonIgnore;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.client.CustomResource;

import java.util.LinkedHashMap;
import java.util.Map;

/** A namespaced kubevirt.io object that keeps top-level fields besides apiVersion, kind, metadata, spec and status. */
public abstract class KubeVirtResource<S, T> extends CustomResource<S, T> implements Namespaced {

    /** The API group of KubeVirt's resources. */
    public static final String GROUP = "kubevirt.io";
    /** The version Drainboard reads and writes them in. */
    public static final String VERSION = "v1";
    /** {@code apiVersion} of KubeVirt's objects, e.g. in owner references. */
    public static final String API_VERSION = GROUP + "/" + VERSION;

    @JsonIgnore
    private final Map<String, Object> additionalProperties = new LinkedHashMap<>();

    @JsonAnyGetter
    public Map<String, Object> getAdditionalProperties() {
        return additionalProperties;
    }

    @JsonAnySetter
    public void setAdditionalProperty(String name, Object value) {
        additionalProperties.put(name, value);
    }

    /** {@code namespace/name}, the key informers and work queues use. */
    @JsonIgnore
    public String key() {
        String namespace = getMetadata() == null ? null : getMetadata().getNamespace();
        String name = getMetadata() == null ? null : getMetadata().getName();
        return namespace == null || namespace.isEmpty() ? name : namespace + "/" + name;
    }
}
