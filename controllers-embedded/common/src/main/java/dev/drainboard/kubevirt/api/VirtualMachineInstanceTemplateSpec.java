package dev.drainboard.kubevirt.api;

/** {@code spec.template} of a VM or VMIRS: the metadata and spec each new VMI gets. */
public class VirtualMachineInstanceTemplateSpec extends ExtensibleObject {

    private TemplateMetadata metadata;
    private VirtualMachineInstanceSpec spec;

    public TemplateMetadata getMetadata() { return metadata; }
    public void setMetadata(TemplateMetadata metadata) { this.metadata = metadata; }
    public VirtualMachineInstanceSpec getSpec() { return spec; }
    public void setSpec(VirtualMachineInstanceSpec spec) { this.spec = spec; }
}
