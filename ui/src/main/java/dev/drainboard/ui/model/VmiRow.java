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
 * @param nodePressureDeadline when the kubelet is expected to kill its launcher, while a node-pressure eviction is
 *                         moving it ({@code drainboard.dev/node-pressure-deadline}); empty otherwise
 * @param lostToNodePressure why it was lost to a node-pressure eviction ({@code drainboard.dev/lost-to-node-pressure}:
 *                         killed before its migration finished); empty if it was not
 * @param owner            its controller owner (a VirtualMachine or VirtualMachineInstanceReplicaSet), null if none
 * @param waiting          why it waits to be placed (its launcher pod's PodScheduled=False: reason and the scheduler's
 *                         message); empty otherwise
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
        String nodePressureDeadline,
        String lostToNodePressure,
        ObjectRef owner,
        String waiting) implements Row {

    public VmiRow(String namespace, String name, String phase, String node, String evictionStrategy, String strategySource,
                  String liveMigratable, String migratableReason, String evacuationNode, String pdbs, String migration,
                  String created, String nodePressureDeadline, String lostToNodePressure, ObjectRef owner) {
        this(namespace, name, phase, node, evictionStrategy, strategySource, liveMigratable, migratableReason,
                evacuationNode, pdbs, migration, created, nodePressureDeadline, lostToNodePressure, owner, "");
    }

    public VmiRow(String namespace, String name, String phase, String node, String evictionStrategy, String strategySource,
                  String liveMigratable, String migratableReason, String evacuationNode, String pdbs, String migration,
                  String created) {
        this(namespace, name, phase, node, evictionStrategy, strategySource, liveMigratable, migratableReason,
                evacuationNode, pdbs, migration, created, "", "", null);
    }

    public VmiRow(String namespace, String name, String phase, String node, String evictionStrategy, String strategySource,
                  String liveMigratable, String migratableReason, String evacuationNode, String pdbs, String migration,
                  String created, ObjectRef owner) {
        this(namespace, name, phase, node, evictionStrategy, strategySource, liveMigratable, migratableReason,
                evacuationNode, pdbs, migration, created, "", "", owner);
    }

    public VmiRow(String namespace, String name, String phase, String node, String evictionStrategy, String strategySource,
                  String liveMigratable, String migratableReason, String evacuationNode, String pdbs, String migration,
                  String created, String nodePressureDeadline, String lostToNodePressure) {
        this(namespace, name, phase, node, evictionStrategy, strategySource, liveMigratable, migratableReason,
                evacuationNode, pdbs, migration, created, nodePressureDeadline, lostToNodePressure, null);
    }

    /** A node-pressure eviction killed it before it could migrate away. */
    public boolean isLostToNodePressure() {
        return !lostToNodePressure.isEmpty();
    }

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
                migratableReason, evacuationNode, pdbs, migration, lostToNodePressure.isEmpty() ? "" : "lost to node pressure");
    }
}
