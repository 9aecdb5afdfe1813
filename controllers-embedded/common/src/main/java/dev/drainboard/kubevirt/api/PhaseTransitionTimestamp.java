package dev.drainboard.kubevirt.api;

/** When an object entered a phase ({@code status.phaseTransitionTimestamps[]}). */
public class PhaseTransitionTimestamp extends ExtensibleObject {

    private String phase;
    private String phaseTransitionTimestamp;

    public PhaseTransitionTimestamp() {
    }

    public PhaseTransitionTimestamp(String phase, String phaseTransitionTimestamp) {
        this.phase = phase;
        this.phaseTransitionTimestamp = phaseTransitionTimestamp;
    }

    public String getPhase() { return phase; }
    public void setPhase(String phase) { this.phase = phase; }
    public String getPhaseTransitionTimestamp() { return phaseTransitionTimestamp; }
    public void setPhaseTransitionTimestamp(String phaseTransitionTimestamp) { this.phaseTransitionTimestamp = phaseTransitionTimestamp; }
}
