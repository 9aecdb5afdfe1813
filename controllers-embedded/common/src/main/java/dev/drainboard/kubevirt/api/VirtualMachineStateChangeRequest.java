package dev.drainboard.kubevirt.api;

import java.util.Map;

/**
 * One entry of {@code vm.status.stateChangeRequests}: virt-api's start/stop/restart subresources queue these and the
 * VM controller acts on the first and removes it when done ({@code pkg/virt-controller/watch/vm/vm.go}).
 */
public class VirtualMachineStateChangeRequest extends ExtensibleObject {

    public static final String START = "Start";
    public static final String STOP = "Stop";

    private String action;
    private String uid;
    private Map<String, String> data;

    public VirtualMachineStateChangeRequest() {
    }

    public VirtualMachineStateChangeRequest(String action, String uid) {
        this.action = action;
        this.uid = uid;
    }

    public String getAction() { return action; }
    public void setAction(String action) { this.action = action; }
    /** The VMI a Stop is meant for: a Stop for an older VMI is stale. */
    public String getUid() { return uid; }
    public void setUid(String uid) { this.uid = uid; }
    public Map<String, String> getData() { return data; }
    public void setData(Map<String, String> data) { this.data = data; }
}
