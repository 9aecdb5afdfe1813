package dev.drainboard.ops;

/** What a drain will do with one pod on the node. */
public enum PodOutcome {
    /** Evicted; its controller (if any) recreates it elsewhere. */
    EVICTED(Effect.EVICT),
    /** A VMI's launcher pod, evicted: the VMI shuts down and its VM's runStrategy starts it again elsewhere. */
    EVICTED_VM_RESTARTS(Effect.EVICT),
    /** A VMI's launcher pod, evicted: the VMI shuts down and nothing starts it again. */
    EVICTED_VMI_LOST(Effect.EVICT),
    /** A VMI's launcher pod, evicted: the VMI shuts down and its VirtualMachineInstanceReplicaSet creates another VMI. */
    EVICTED_VMI_REPLACED(Effect.EVICT),
    /** The eviction triggers a live migration (or one is under way); the pod goes once the VMI has moved. */
    LIVE_MIGRATION(Effect.EVICT),
    /** Strategy External: the VMI is marked for evacuation; something outside KubeVirt has to move it. */
    EXTERNAL_EVACUATION(Effect.EVICT),
    /** Strategy LiveMigrate on a VMI that cannot migrate: every eviction is refused; the drain never finishes. */
    BLOCKED_NOT_MIGRATABLE(Effect.EVICT),
    /** A PodDisruptionBudget allows no disruption now; the drain waits until it does. */
    BLOCKED_BY_PDB(Effect.EVICT),
    /** The API server will refuse the eviction for another reason (the VMI cannot be read, several PDBs). */
    REFUSED(Effect.EVICT),
    /** A DaemonSet pod, left on the node ({@code --ignore-daemonsets}). */
    SKIPPED_DAEMONSET(Effect.SKIP),
    /** A static (mirror) pod: the kubelet owns it, the API cannot evict it. */
    SKIPPED_MIRROR(Effect.SKIP),
    /** A DaemonSet pod without {@code --ignore-daemonsets}: the drain refuses to start. */
    NEEDS_IGNORE_DAEMONSETS(Effect.REFUSE_TO_START),
    /** A pod with emptyDir data without {@code --delete-emptydir-data}: the drain refuses to start. */
    NEEDS_DELETE_EMPTYDIR_DATA(Effect.REFUSE_TO_START),
    /** A pod no controller recreates, without {@code --force}: the drain refuses to start. */
    NEEDS_FORCE(Effect.REFUSE_TO_START);

    /** What the drain does with such a pod. */
    public enum Effect {
        /** Evicted through the eviction API (possibly refused for a while, or for good). */
        EVICT,
        /** Left alone. */
        SKIP,
        /** The drain stops before writing anything (a kubectl option would allow it). */
        REFUSE_TO_START
    }

    private final Effect effect;

    PodOutcome(Effect effect) {
        this.effect = effect;
    }

    public Effect effect() {
        return effect;
    }

    /** Whether this pod keeps the drain from finishing until something else changes. */
    public boolean blocks() {
        return this == BLOCKED_NOT_MIGRATABLE || this == BLOCKED_BY_PDB || this == REFUSED;
    }
}
