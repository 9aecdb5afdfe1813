package dev.drainboard.kubevirt.api;

import com.fasterxml.jackson.annotation.JsonAnyGetter;
import com.fasterxml.jackson.annotation.JsonAnySetter;
import com.fasterxml.jackson.annotation.JsonIgnore;
import io.fabric8.kubernetes.client.CustomResource;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * An object of any of KubeVirt's API groups that keeps top-level fields besides apiVersion, kind, metadata, spec and
 * status, so an object read from a cluster of another KubeVirt version is written back whole.
 */
public abstract class KubeVirtObject<S, T> extends CustomResource<S, T> {

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

    /** {@code namespace/name} (just the name for a cluster-scoped kind), the key informers and work queues use. */
    @JsonIgnore
    public String key() {
        String namespace = getMetadata() == null ? null : getMetadata().getNamespace();
        String name = getMetadata() == null ? null : getMetadata().getName();
        return namespace == null || namespace.isEmpty() ? name : namespace + "/" + name;
    }
}
