package dev.drainboard.ops;

import dev.drainboard.architecture.Pure;
import dev.drainboard.controller.migration.MigrationDecision;
import dev.drainboard.kubevirt.DrainboardAnnotations;
import dev.drainboard.kubevirt.KubeVirtLabels;
import dev.drainboard.kubevirt.KubeVirtValues;
import dev.drainboard.kubevirt.api.VirtualMachineInstance;
import dev.drainboard.kubevirt.api.VirtualMachineInstanceMigration;
import dev.drainboard.kubevirt.api.VirtualMachineInstanceMigrationSpec;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.Pod;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Where a VMI could be migrated to, node by node: the target pod a VMIM with
 * {@code addedNodeSelector: {kubernetes.io/hostname: <node>}} would get ({@link MigrationDecision#targetPod}), placed
 * by {@link PlacementDecision} on the cluster as it is. The answer is PlacementDecision's, never a second opinion.
 */
@Pure
public final class MigrationTargets {

    /** The label the chosen node is selected by (every node carries its name there). */
    public static final String HOSTNAME = "kubernetes.io/hostname";

    /**
     * @param node the node's name
     * @param fits whether the target pod would be placed there
     * @param why  the scheduler's message when it does not fit (or why the node is not a target), else empty
     */
    public record Fit(String node, boolean fits, String why) {
    }

    private MigrationTargets() {
    }

    /** The VMIM asking for {@code node}, as the console creates it ({@code virtctl migrate --addedNodeSelector}'s shape, with Drainboard's cause). */
    public static VirtualMachineInstanceMigration migrationTo(String namespace, String vmiName, String node) {
        VirtualMachineInstanceMigration m = new VirtualMachineInstanceMigration();
        m.setMetadata(new ObjectMetaBuilder()
                .withGenerateName(KubeVirtValues.VIRTCTL_MIGRATE_GENERATE_NAME)
                .withNamespace(namespace)
                .addToAnnotations(DrainboardAnnotations.MIGRATION_CAUSE, DrainboardAnnotations.CAUSE_USER_REQUEST)
                .addToLabels(KubeVirtLabels.MIGRATION_SELECTOR, vmiName)
                .build());
        VirtualMachineInstanceMigrationSpec spec = new VirtualMachineInstanceMigrationSpec(vmiName);
        spec.setAddedNodeSelector(Map.of(HOSTNAME, node));
        m.setSpec(spec);
        return m;
    }

    /** Every node, sorted by name, with whether the VMI's migration target fits there and why not. */
    public static List<Fit> fits(VirtualMachineInstance vmi, List<Node> nodes, List<Pod> pods) {
        List<Fit> out = new ArrayList<>();
        String source = vmi.getStatus() == null ? null : vmi.getStatus().getNodeName();
        for (Node node : nodes.stream().sorted(Comparator.comparing(n -> n.getMetadata().getName())).toList()) {
            String name = node.getMetadata().getName();
            if (name.equals(source)) {
                out.add(new Fit(name, false, "the VMI runs on this node"));
                continue;
            }
            out.add(fit(vmi, name, nodes, pods));
        }
        return out;
    }

    /** Whether the VMI's migration target fits on {@code node}. */
    public static Fit fit(VirtualMachineInstance vmi, String node, List<Node> nodes, List<Pod> pods) {
        String namespace = vmi.getMetadata().getNamespace();
        VirtualMachineInstanceMigration vmim = migrationTo(namespace, vmi.getMetadata().getName(), node);
        vmim.setMetadata(new ObjectMetaBuilder(vmim.getMetadata()).withName(vmi.getMetadata().getName() + "-to-" + node)
                .withUid("migration-target-preview").build());
        Pod target = MigrationDecision.targetPod(vmim, vmi);
        Pod source = pods.stream().filter(p -> namespace.equals(p.getMetadata().getNamespace())
                        && vmi.getMetadata().getUid() != null
                        && p.getMetadata().getLabels() != null
                        && vmi.getMetadata().getUid().equals(p.getMetadata().getLabels().get(KubeVirtLabels.CREATED_BY)))
                .findFirst().orElse(target);
        PlacementDecision.Move move = new PlacementDecision.Move(Blocker.VMI, namespace, vmi.getMetadata().getName(), source, target, true);
        List<PlacementDecision.Stranded> stranded = PlacementDecision.decide(nodes, pods, Set.of(), List.of(move));
        return stranded.isEmpty() ? new Fit(node, true, "") : new Fit(node, false, stranded.getFirst().message());
    }
}
