package dev.drainboard.kubevirt.api;

import java.util.Map;

/**
 * An entry of {@code spec.networks}: a name (the interface's) and a source, {@code pod} (the pod network, an empty
 * object) or {@code multus}; other sources are kept as they are.
 */
public class Network extends ExtensibleObject {

    private String name;
    private Map<String, Object> pod;
    private Map<String, Object> multus;

    public String getName() { return name; }
    public void setName(String name) { this.name = name; }
    public Map<String, Object> getPod() { return pod; }
    public void setPod(Map<String, Object> pod) { this.pod = pod; }
    public Map<String, Object> getMultus() { return multus; }
    public void setMultus(Map<String, Object> multus) { this.multus = multus; }
}
