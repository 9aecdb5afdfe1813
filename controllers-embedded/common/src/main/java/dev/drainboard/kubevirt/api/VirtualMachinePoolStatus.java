package dev.drainboard.kubevirt.api;

import java.util.List;

/** {@code vmpool.status} (a status subresource; {@code replicas} and {@code labelSelector} back the scale subresource). */
public class VirtualMachinePoolStatus extends ExtensibleObject {

    private Integer replicas;
    private Integer readyReplicas;
    private String labelSelector;
    private List<Condition> conditions;

    public Integer getReplicas() { return replicas; }
    public void setReplicas(Integer replicas) { this.replicas = replicas; }
    public Integer getReadyReplicas() { return readyReplicas; }
    public void setReadyReplicas(Integer readyReplicas) { this.readyReplicas = readyReplicas; }
    public String getLabelSelector() { return labelSelector; }
    public void setLabelSelector(String labelSelector) { this.labelSelector = labelSelector; }
    public List<Condition> getConditions() { return conditions; }
    public void setConditions(List<Condition> conditions) { this.conditions = conditions; }
}
