package dev.drainboard.ui.connect;

/** Whether Drainboard runs KubeVirt's drain control plane for this cluster or only watches. */
public enum Mode {
    /** The embedded controllers run here (with leader election). */
    CONTROL("Control"),
    /** Controllers off and actions off: this console changes nothing. */
    OBSERVE("Observe");

    private final String label;

    Mode(String label) {
        this.label = label;
    }

    public String label() {
        return label;
    }
}
