package dev.drainboard.kubevirt.api;

import io.fabric8.kubernetes.api.model.LabelSelector;

/** {@code vmpool.spec}; {@code scaleInStrategy}, {@code updateStrategy} and the rest are kept as they are. */
public class VirtualMachinePoolSpec extends ExtensibleObject {

    /** Wanted VMs; KubeVirt reads null as 1. */
    private Integer replicas;
    private LabelSelector selector;
    private VirtualMachineTemplateSpec virtualMachineTemplate;
    private Boolean paused;

    public Integer getReplicas() { return replicas; }
    public void setReplicas(Integer replicas) { this.replicas = replicas; }
    public LabelSelector getSelector() { return selector; }
    public void setSelector(LabelSelector selector) { this.selector = selector; }
    public VirtualMachineTemplateSpec getVirtualMachineTemplate() { return virtualMachineTemplate; }
    public void setVirtualMachineTemplate(VirtualMachineTemplateSpec template) { this.virtualMachineTemplate = template; }
    public Boolean getPaused() { return paused; }
    public void setPaused(Boolean paused) { this.paused = paused; }

    /** {@code spec.virtualMachineTemplate}: the VMs' metadata (labels, annotations) and spec. */
    public static class VirtualMachineTemplateSpec extends ExtensibleObject {
        private TemplateMetadata metadata;
        private VirtualMachineSpec spec;

        public TemplateMetadata getMetadata() { return metadata; }
        public void setMetadata(TemplateMetadata metadata) { this.metadata = metadata; }
        public VirtualMachineSpec getSpec() { return spec; }
        public void setSpec(VirtualMachineSpec spec) { this.spec = spec; }
    }
}
