package dev.drainboard.history;

/** How a recorded drain went; {@link #Running} until it ends. */
public enum RecordResult {
    Running,
    /** Every pod gone, nothing left behind. */
    Drained,
    /** Every pod gone, but something has nowhere to run. */
    Stranded,
    Failed,
    TimedOut,
    Cancelled;

    public boolean ended() {
        return this != Running;
    }
}
