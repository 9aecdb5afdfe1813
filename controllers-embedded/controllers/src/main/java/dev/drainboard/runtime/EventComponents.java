package dev.drainboard.runtime;

/**
 * The {@code source.component} names KubeVirt's virt-controller gives its event recorders, so
 * {@code kubectl get events} reads as it would on a KubeVirt cluster. The names are KubeVirt's
 * own, including its quirks: the VMI, VM and migration controllers share one name, and the
 * evacuation controller records as the disruption-budget controller.
 */
public final class EventComponents {

    public static final String VIRTUAL_MACHINE = "virtualmachine-controller";
    public static final String VMI = VIRTUAL_MACHINE;
    public static final String MIGRATION = VIRTUAL_MACHINE;
    public static final String REPLICA_SET = "virtualmachinereplicaset-controller";
    public static final String DISRUPTION_BUDGET = "disruptionbudget-controller";
    public static final String EVACUATION = DISRUPTION_BUDGET;
    public static final String NODE = "node-controller";

    private EventComponents() {
    }
}
