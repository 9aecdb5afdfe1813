package dev.drainboard.ui.model;

/**
 * What the console shows of one VirtualMachineInstanceReplicaSet.
 *
 * @param conditions     its True conditions, {@code Type message; …}
 * @param failureReason  the reason of {@code ReplicaFailure=True} ({@code FailureCreate}, {@code FailureDelete}),
 *                       empty while scaling works
 * @param failureMessage that condition's message: the API server's refusal, verbatim
 */
public record ReplicaSetRow(
        String namespace,
        String name,
        int desired,
        int current,
        int ready,
        boolean paused,
        String conditions,
        String created,
        String failureReason,
        String failureMessage) implements Row {

    public ReplicaSetRow(String namespace, String name, int desired, int current, int ready, boolean paused,
                         String conditions, String created) {
        this(namespace, name, desired, current, ready, paused, conditions, created, "", "");
    }

    /** The controller could not create or delete a VMI the last time it tried. */
    public boolean failing() {
        return !failureReason.isEmpty();
    }

    @Override
    public ObjectRef ref() {
        return new ObjectRef(ObjectRef.Kind.VMIRS, namespace, name);
    }

    @Override
    public String searchText() {
        return String.join(" ", namespace, name, conditions, failureReason);
    }
}
