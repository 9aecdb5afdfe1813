package dev.drainboard.ui.model;

/** How the live data stands with the API server. */
public enum ConnectionState {
    /** Informers are listing for the first time. */
    SYNCING("Syncing"),
    /** Every watch is open: what the views show is live. */
    LIVE("Live"),
    /** A watch dropped; the informers retry with back-off and the views show the last known state. */
    RECONNECTING("Reconnecting"),
    CLOSED("Disconnected");

    private final String label;

    ConnectionState(String label) {
        this.label = label;
    }

    public String label() {
        return label;
    }
}
