package dev.drainboard.ui.model;

/**
 * What the console shows of one VirtualMachineInstanceMigration.
 *
 * @param cause {@code evacuation} when the evacuation controller created it, else who asked (or empty)
 */
public record MigrationRow(
        String namespace,
        String name,
        String vmi,
        String phase,
        String sourceNode,
        String targetNode,
        String cause,
        String started,
        String ended,
        String created) implements Row {

    @Override
    public ObjectRef ref() {
        return new ObjectRef(ObjectRef.Kind.VMIM, namespace, name);
    }

    @Override
    public String searchText() {
        return String.join(" ", namespace, name, vmi, phase, sourceNode, targetNode, cause);
    }
}
