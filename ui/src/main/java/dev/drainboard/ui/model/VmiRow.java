package dev.drainboard.ui.model;

/**
 * What the console shows of one VMI.
 *
 * @param evictionStrategy the strategy in force ({@code LiveMigrate}, {@code None}, …)
 * @param strategySource   {@code VMI} when the VMI sets it, else {@code cluster default}
 * @param liveMigratable   {@code True}/{@code False}/{@code Unknown} from the LiveMigratable condition
 * @param migratableReason the condition's reason and message when it is not True, empty otherwise
 * @param evacuationNode   {@code status.evacuationNodeName}: the node an eviction asked it to leave; empty if none
 * @param pdbs             names of the PDBs that protect it, comma-separated; empty if none
 * @param migration        the phase of its newest migration, empty if none
 * @param owner            its controller owner (a VirtualMachine or VirtualMachineInstanceReplicaSet), null if none
 */
public record VmiRow(
        String namespace,
        String name,
        String phase,
        String node,
        String evictionStrategy,
        String strategySource,
        String liveMigratable,
        String migratableReason,
        String evacuationNode,
        String pdbs,
        String migration,
        String created,
        ObjectRef owner) implements Row {

    public boolean markedForEvacuation() {
        return !evacuationNode.isEmpty();
    }

    @Override
    public ObjectRef ref() {
        return new ObjectRef(ObjectRef.Kind.VMI, namespace, name);
    }

    @Override
    public String searchText() {
        return String.join(" ", namespace, name, phase, node, evictionStrategy, strategySource, liveMigratable,
                migratableReason, evacuationNode, pdbs, migration);
    }
}
