package dev.drainboard.history;

/** What a {@link DrainRecord} records. */
public enum RecordKind {
    /** A drain started by Drainboard (CLI or console): cordon, then evict. */
    Drain,
    /** A node's VMIs marked for evacuation by anyone (e.g. {@code kubectl drain}), seen by the controllers. */
    Evacuation,
    /** A migration an operator cancelled from Drainboard. */
    MigrationCancel
}
