package dev.drainboard.kubevirt.api;

import io.fabric8.kubernetes.api.model.LabelSelector;

/** {@code vmirs.spec}. */
public class VirtualMachineInstanceReplicaSetSpec extends ExtensibleObject {

    /** Wanted VMIs; KubeVirt reads null as 1. */
    private Integer replicas;
    private LabelSelector selector;
    private VirtualMachineInstanceTemplateSpec template;
    private Boolean paused;

    public Integer getReplicas() { return replicas; }
    public void setReplicas(Integer replicas) { this.replicas = replicas; }
    public LabelSelector getSelector() { return selector; }
    public void setSelector(LabelSelector selector) { this.selector = selector; }
    public VirtualMachineInstanceTemplateSpec getTemplate() { return template; }
    public void setTemplate(VirtualMachineInstanceTemplateSpec template) { this.template = template; }
    public Boolean getPaused() { return paused; }
    public void setPaused(Boolean paused) { this.paused = paused; }
}
