package dev.drainboard.ui.model;

/** What the console shows of one VirtualMachineInstanceReplicaSet. */
public record ReplicaSetRow(
        String namespace,
        String name,
        int desired,
        int current,
        int ready,
        boolean paused,
        String conditions,
        String created) implements Row {

    @Override
    public ObjectRef ref() {
        return new ObjectRef(ObjectRef.Kind.VMIRS, namespace, name);
    }

    @Override
    public String searchText() {
        return String.join(" ", namespace, name, conditions);
    }
}
