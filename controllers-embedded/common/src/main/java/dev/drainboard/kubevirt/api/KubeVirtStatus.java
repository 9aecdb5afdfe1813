package dev.drainboard.kubevirt.api;

/** {@code kubevirt.status}: the operator's phase (Deploying, Deployed, Deleting…); the rest is kept as it is. */
public class KubeVirtStatus extends ExtensibleObject {

    private String phase;

    public String getPhase() { return phase; }
    public void setPhase(String phase) { this.phase = phase; }
}
