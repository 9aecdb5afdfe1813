package dev.drainboard.kubevirt.api;

import com.fasterxml.jackson.annotation.JsonAnyGetter;
import com.fasterxml.jackson.annotation.JsonAnySetter;
import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Base of every KubeVirt model part: the fields a class does not model are kept, in order, and written back,
 * so reading an object from a real cluster and writing it again loses nothing (fabric8's model style).
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public abstract class ExtensibleObject {

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

    /** An object modelled by no field at all (e.g. a status Drainboard only passes through). */
    public static class Tree extends ExtensibleObject {
    }
}
