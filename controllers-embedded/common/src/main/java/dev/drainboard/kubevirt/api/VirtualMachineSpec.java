package dev.drainboard.kubevirt.api;

/** {@code vm.spec}. DataVolume templates are kept as they are. */
public class VirtualMachineSpec extends ExtensibleObject {

    private String runStrategy;
    /** Deprecated in KubeVirt in favour of {@link #runStrategy}: true means Always, false means Halted. */
    private Boolean running;
    private VirtualMachineInstanceTemplateSpec template;
    private InstancetypeMatcher instancetype;
    private InstancetypeMatcher preference;

    public String getRunStrategy() { return runStrategy; }
    public void setRunStrategy(String runStrategy) { this.runStrategy = runStrategy; }
    public Boolean getRunning() { return running; }
    public void setRunning(Boolean running) { this.running = running; }
    public VirtualMachineInstanceTemplateSpec getTemplate() { return template; }
    public void setTemplate(VirtualMachineInstanceTemplateSpec template) { this.template = template; }
    public InstancetypeMatcher getInstancetype() { return instancetype; }
    public void setInstancetype(InstancetypeMatcher instancetype) { this.instancetype = instancetype; }
    public InstancetypeMatcher getPreference() { return preference; }
    public void setPreference(InstancetypeMatcher preference) { this.preference = preference; }
}
