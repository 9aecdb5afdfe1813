package dev.drainboard.kubevirt.api;

import java.util.Map;

/** {@code vmim.spec}; immutable once created. {@code sendTo}/{@code receive} (decentralized) are kept as they are. */
public class VirtualMachineInstanceMigrationSpec extends ExtensibleObject {

    private String vmiName;
    private Map<String, String> addedNodeSelector;
    private String priority;

    public VirtualMachineInstanceMigrationSpec() {
    }

    public VirtualMachineInstanceMigrationSpec(String vmiName) {
        this.vmiName = vmiName;
    }

    public String getVmiName() { return vmiName; }
    public void setVmiName(String vmiName) { this.vmiName = vmiName; }
    public Map<String, String> getAddedNodeSelector() { return addedNodeSelector; }
    public void setAddedNodeSelector(Map<String, String> addedNodeSelector) { this.addedNodeSelector = addedNodeSelector; }
    public String getPriority() { return priority; }
    public void setPriority(String priority) { this.priority = priority; }
}
