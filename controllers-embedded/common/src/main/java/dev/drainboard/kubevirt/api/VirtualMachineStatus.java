package dev.drainboard.kubevirt.api;

import java.util.List;

/** {@code vm.status} (a status subresource). Volume snapshot statuses and the rest are kept. */
public class VirtualMachineStatus extends ExtensibleObject {

    private String printableStatus;
    private Boolean ready;
    private Boolean created;
    private String runStrategy;
    private List<Condition> conditions;
    private Long observedGeneration;
    private Long desiredGeneration;
    private List<VirtualMachineStateChangeRequest> stateChangeRequests;

    public String getPrintableStatus() { return printableStatus; }
    public void setPrintableStatus(String printableStatus) { this.printableStatus = printableStatus; }
    public Boolean getReady() { return ready; }
    public void setReady(Boolean ready) { this.ready = ready; }
    public Boolean getCreated() { return created; }
    public void setCreated(Boolean created) { this.created = created; }
    public String getRunStrategy() { return runStrategy; }
    public void setRunStrategy(String runStrategy) { this.runStrategy = runStrategy; }
    public List<Condition> getConditions() { return conditions; }
    public void setConditions(List<Condition> conditions) { this.conditions = conditions; }
    public Long getObservedGeneration() { return observedGeneration; }
    public void setObservedGeneration(Long observedGeneration) { this.observedGeneration = observedGeneration; }
    public Long getDesiredGeneration() { return desiredGeneration; }
    public void setDesiredGeneration(Long desiredGeneration) { this.desiredGeneration = desiredGeneration; }
    public List<VirtualMachineStateChangeRequest> getStateChangeRequests() { return stateChangeRequests; }
    public void setStateChangeRequests(List<VirtualMachineStateChangeRequest> stateChangeRequests) { this.stateChangeRequests = stateChangeRequests; }
}
