package dev.drainboard.kubevirt.api;

import com.fasterxml.jackson.annotation.JsonAnyGetter;
import com.fasterxml.jackson.annotation.JsonAnySetter;
import com.fasterxml.jackson.annotation.JsonIgnore;
import io.fabric8.kubernetes.client.CustomResource;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * An object of one of KubeVirt's newer API groups ({@code instancetype.kubevirt.io}, {@code migrations.kubevirt.io},
 * {@code pool.kubevirt.io}) that keeps top-level fields besides apiVersion, kind, metadata, spec and status.
 */
public abstract class KubeVirtExtensionResource<S, T> extends CustomResource<S, T> {

    /** {@code instancetype.kubevirt.io}: instance types and preferences. */
    public static final String INSTANCETYPE_GROUP = "instancetype.kubevirt.io";
    /** {@code migrations.kubevirt.io}: migration policies. */
    public static final String MIGRATIONS_GROUP = "migrations.kubevirt.io";
    /** {@code pool.kubevirt.io}: VM pools. */
    public static final String POOL_GROUP = "pool.kubevirt.io";

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

    /** {@code namespace/name} (just the name for a cluster-scoped kind), the key informers use. */
    @JsonIgnore
    public String key() {
        String namespace = getMetadata() == null ? null : getMetadata().getNamespace();
        String name = getMetadata() == null ? null : getMetadata().getName();
        return namespace == null || namespace.isEmpty() ? name : namespace + "/" + name;
    }
}
