package dev.drainboard.kubevirt;

/**
 * Drainboard's own annotations on KubeVirt's objects, beyond KubeVirt's ({@link KubeVirtAnnotations}), and their
 * values; documented in docs/controllers.md ("Annotations Drainboard adds", "Node-pressure eviction → live
 * migration").
 */
public final class DrainboardAnnotations {

    private DrainboardAnnotations() {
    }

    /** VMIMs: why the migration exists, one of the {@code CAUSE_*} values (or a producer's own words). */
    public static final String MIGRATION_CAUSE = "drainboard.dev/migration-cause";
    /** VMIs: why they were marked for evacuation, set by whoever marks them; copied into the VMIM's cause. */
    public static final String EVACUATION_CAUSE = "drainboard.dev/evacuation-cause";
    /** VMIMs: the live transfer's progress as JSON, written by the source node's handler a few times a second. */
    public static final String MIGRATION_PROGRESS = "drainboard.dev/migration-progress";

    public static final String CAUSE_API_EVICTION = "API eviction";
    public static final String CAUSE_NODE_DRAIN_TAINT = "node drain taint";
    public static final String CAUSE_NODE_PRESSURE = "node-pressure eviction";
    public static final String CAUSE_DESCHEDULER = "descheduler eviction";
    public static final String CAUSE_USER_REQUEST = "user request";

    /**
     * VMIs: when the kubelet is expected to kill the launcher of a VMI that a node-pressure eviction turned into
     * an evacuation (RFC 3339); written by the node handler when it marks the VMI, gone once it has migrated.
     */
    public static final String NODE_PRESSURE_DEADLINE = "drainboard.dev/node-pressure-deadline";
    /**
     * VMIs: the VM was lost to a node-pressure eviction (the kubelet killed its launcher before the migration
     * finished); the value says on which node and when. Set by the node handler; the console shows it.
     */
    public static final String LOST_TO_NODE_PRESSURE = "drainboard.dev/lost-to-node-pressure";
    /**
     * KubeVirt CR: how a node-pressure migration is helped to finish before the kill, one of {@code None}
     * (default), {@code AutoConverge}, {@code PauseBeforeKill}. Read live. See docs/behaviour.md, "Node-pressure
     * eviction turned into live migration".
     */
    public static final String NODE_PRESSURE_MIGRATION_ASSIST = "drainboard.dev/node-pressure-migration-assist";

    /**
     * KubeVirt CR of an embedded cluster started with {@code --time-scale N}: how many times faster than real time its
     * simulated world runs (boots, transfers, grace periods, KubeVirt's timeouts), a positive decimal; absent means 1.
     * Whoever reports a duration measured there multiplies it by N to speak real time.
     */
    public static final String TIME_SCALE = "drainboard.dev/time-scale";

    /** VMIMs created by a maintenance plan: the plan's name (the plan's executor counts and follows its migrations). */
    public static final String MAINTENANCE_PLAN = "drainboard.dev/maintenance-plan";
    public static final String CAUSE_MAINTENANCE_PLAN = "maintenance plan";
    /** VMIMs created by a maintenance plan: the node of the plan the VMI leaves (whose turn created it). */
    public static final String MAINTENANCE_NODE = "drainboard.dev/maintenance-node";
}
