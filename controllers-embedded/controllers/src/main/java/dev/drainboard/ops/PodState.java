package dev.drainboard.ops;

/** Where one pod of a running drain stands. */
public enum PodState {
    /** Not asked yet. */
    PENDING,
    /** An eviction request is on its way. */
    EVICTING,
    /** Refused because its VMI is being evacuated: it goes once the VMI has moved. */
    WAITING_FOR_MIGRATION,
    /** Refused (a PDB, a non-migratable VMI, ...): retried whenever something it depends on changes. */
    BLOCKED,
    /** The eviction was accepted: the pod is terminating. */
    EVICTED,
    /** Really gone: deleted, or replaced by a new pod of the same name. */
    GONE,
    /** The API server refused its eviction for good: the drain fails. */
    FAILED;

    public boolean isFinal() {
        return this == GONE || this == FAILED;
    }
}
