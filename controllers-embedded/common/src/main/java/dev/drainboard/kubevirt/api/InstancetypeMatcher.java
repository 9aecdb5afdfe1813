package dev.drainboard.kubevirt.api;

/**
 * {@code vm.spec.instancetype} and {@code vm.spec.preference}: which instance type or preference a VM takes.
 * An empty {@code kind} means the cluster-wide kind ({@code VirtualMachineClusterInstancetype},
 * {@code VirtualMachineClusterPreference}), as in KubeVirt.
 */
public class InstancetypeMatcher extends ExtensibleObject {

    private String name;
    private String kind;
    private String revisionName;

    public InstancetypeMatcher() {
    }

    public InstancetypeMatcher(String name, String kind) {
        this.name = name;
        this.kind = kind;
    }

    public String getName() { return name; }
    public void setName(String name) { this.name = name; }
    public String getKind() { return kind; }
    public void setKind(String kind) { this.kind = kind; }
    public String getRevisionName() { return revisionName; }
    public void setRevisionName(String revisionName) { this.revisionName = revisionName; }
}
