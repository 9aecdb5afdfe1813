package dev.drainboard.ui.model;

import java.util.List;

/**
 * What the console shows of one node: its own state and what runs on it.
 *
 * @param workloadPods pods a drain has to move: not DaemonSet-owned, not mirror pods, not finished
 * @param vmis         VMIs whose {@code status.nodeName} is this node
 */
public record NodeRow(
        String name,
        Readiness readiness,
        boolean cordoned,
        List<String> taints,
        boolean memoryPressure,
        String roles,
        String zone,
        String version,
        int vmis,
        int pods,
        int workloadPods,
        long cpuRequestedMillis,
        long cpuAllocatableMillis,
        long memoryRequestedBytes,
        long memoryAllocatableBytes,
        String created) implements Row {

    public enum Readiness { READY, NOT_READY, UNKNOWN }

    /** The answer to "can I reboot this node now?". */
    public enum RebootSafety {
        /** Cordoned and empty: nothing but DaemonSet pods left. */
        SAFE("Safe to reboot"),
        /** Cordoned, but VMIs or pods still run here (a drain in progress or stuck). */
        DRAINING("Cordoned, not empty"),
        /** Schedulable: new work may land any moment. */
        IN_SERVICE("In service");

        private final String label;

        RebootSafety(String label) {
            this.label = label;
        }

        public String label() {
            return label;
        }
    }

    public NodeRow {
        taints = List.copyOf(taints);
    }

    public RebootSafety rebootSafety() {
        if (!cordoned) {
            return RebootSafety.IN_SERVICE;
        }
        return vmis == 0 && workloadPods == 0 ? RebootSafety.SAFE : RebootSafety.DRAINING;
    }

    /** kubectl's STATUS column: {@code Ready}, {@code NotReady,SchedulingDisabled}, … */
    public String status() {
        String ready = switch (readiness) {
            case READY -> "Ready";
            case NOT_READY -> "NotReady";
            case UNKNOWN -> "Unknown";
        };
        return cordoned ? ready + ",SchedulingDisabled" : ready;
    }

    @Override
    public ObjectRef ref() {
        return ObjectRef.node(name);
    }

    @Override
    public String searchText() {
        return String.join(" ", name, status(), roles, zone, String.join(" ", taints), rebootSafety().label());
    }
}
