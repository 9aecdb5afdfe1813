package dev.drainboard.kubevirt.api;

import com.fasterxml.jackson.annotation.JsonInclude;

/** A status condition of a VMI, VM, VMIM or VMIRS (all four have the same shape). */
public class Condition extends ExtensibleObject {

    private String type;
    private String status;
    private String reason;
    private String message;
    // KubeVirt always writes both times, null when unset; so do we, to give back what we read.
    @JsonInclude(JsonInclude.Include.ALWAYS)
    private String lastTransitionTime;
    @JsonInclude(JsonInclude.Include.ALWAYS)
    private String lastProbeTime;

    public Condition() {
    }

    public Condition(String type, String status, String reason, String message) {
        this.type = type;
        this.status = status;
        this.reason = reason;
        this.message = message;
    }

    public String getType() { return type; }
    public void setType(String type) { this.type = type; }
    public String getStatus() { return status; }
    public void setStatus(String status) { this.status = status; }
    public String getReason() { return reason; }
    public void setReason(String reason) { this.reason = reason; }
    public String getMessage() { return message; }
    public void setMessage(String message) { this.message = message; }
    public String getLastTransitionTime() { return lastTransitionTime; }
    public void setLastTransitionTime(String lastTransitionTime) { this.lastTransitionTime = lastTransitionTime; }
    public String getLastProbeTime() { return lastProbeTime; }
    public void setLastProbeTime(String lastProbeTime) { this.lastProbeTime = lastProbeTime; }
}
