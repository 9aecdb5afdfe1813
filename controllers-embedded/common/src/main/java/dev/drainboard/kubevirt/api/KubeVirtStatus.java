package dev.drainboard.kubevirt.api;

/**
 * {@code kubevirt.status}: the operator's phase (Deploying, Deployed, Deleting…) and the KubeVirt version it runs
 * ({@code observedKubeVirtVersion}, e.g. {@code v1.6.2}); the rest is kept as it is.
 */
public class KubeVirtStatus extends ExtensibleObject {

    private String phase;
    private String observedKubeVirtVersion;

    public String getObservedKubeVirtVersion() { return observedKubeVirtVersion; }
    public void setObservedKubeVirtVersion(String observedKubeVirtVersion) { this.observedKubeVirtVersion = observedKubeVirtVersion; }

    public String getPhase() { return phase; }
    public void setPhase(String phase) { this.phase = phase; }
}
