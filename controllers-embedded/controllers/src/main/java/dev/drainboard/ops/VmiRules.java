package dev.drainboard.ops;

import dev.drainboard.architecture.Pure;
import dev.drainboard.kubevirt.KubeVirtConditions;
import dev.drainboard.kubevirt.api.Condition;
import dev.drainboard.kubevirt.api.Conditions;
import dev.drainboard.kubevirt.api.VirtualMachineInstance;
import dev.drainboard.kubevirt.api.VirtualMachineInstanceMigration;
import dev.drainboard.kubevirt.api.VmiPhase;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Taint;

import java.util.Collection;
import java.util.Objects;
import java.util.Optional;

/** Whether an operator's VMI action may go ahead, as pure functions: each answers the refusal's message, or empty. */
@Pure
public final class VmiRules {

    private VmiRules() {
    }

    /**
     * Clearing the evacuation mark while the node still carries the drain taint would not stop anything: the
     * evacuation controller migrates every VMI off a tainted node, mark or not, and a drain would evict (and mark)
     * the launcher pod again. So the taint must go first.
     *
     * @param node        the node the VMI is marked to leave, or null when it no longer exists
     * @param drainTaintKey the cluster's {@code nodeDrainTaintKey}
     */
    public static Optional<String> cancelEvacuationRefusal(VirtualMachineInstance vmi, Node node, String drainTaintKey) {
        if (node == null || !hasDrainTaint(node, drainTaintKey)) {
            return Optional.empty();
        }
        return Optional.of("VMI " + key(vmi) + " is marked for evacuation from node " + node.getMetadata().getName()
                + ", which still carries the drain taint " + drainTaintKey + ":" + Taints.NO_SCHEDULE
                + ": remove the taint first, or the evacuation controller migrates the VMI away regardless");
    }

    /** The node carries {@code key:NoSchedule}, the taint KubeVirt's evacuation controller acts on. */
    public static boolean hasDrainTaint(Node node, String drainTaintKey) {
        if (node.getSpec() == null || node.getSpec().getTaints() == null) {
            return false;
        }
        for (Taint t : node.getSpec().getTaints()) {
            if (Objects.equals(t.getKey(), drainTaintKey) && Taints.NO_SCHEDULE.equals(t.getEffect())) {
                return true;
            }
        }
        return false;
    }

    /**
     * A migration is only worth creating for a running, live-migratable VMI with no migration of its own under
     * way: KubeVirt would fail any other, or queue it behind the running one.
     *
     * @param migrations the VMIMs of the VMI's namespace (others than the VMI's are ignored)
     */
    public static Optional<String> migrateRefusal(VirtualMachineInstance vmi, Collection<VirtualMachineInstanceMigration> migrations) {
        String name = vmi.getMetadata().getName();
        if (vmi.getMetadata().getDeletionTimestamp() != null) {
            return Optional.of("VMI " + key(vmi) + " is being deleted");
        }
        if (vmi.phase().orElse(null) != VmiPhase.RUNNING) {
            String phase = vmi.getStatus() == null || vmi.getStatus().getPhase() == null ? "no phase yet" : "phase " + vmi.getStatus().getPhase();
            return Optional.of("VMI " + key(vmi) + " is not running (" + phase + ")");
        }
        Optional<Condition> migratable = vmi.getStatus() == null ? Optional.empty()
                : Conditions.find(vmi.getStatus().getConditions(), KubeVirtConditions.LIVE_MIGRATABLE);
        if (migratable.isEmpty()) {
            return Optional.of("VMI " + key(vmi) + " is not live-migratable: its LiveMigratable condition is not reported yet");
        }
        if (!"True".equals(migratable.get().getStatus())) {
            Condition c = migratable.get();
            String why = join(c.getReason(), c.getMessage());
            return Optional.of("VMI " + key(vmi) + " is not live-migratable" + (why.isEmpty() ? "" : ": " + why));
        }
        for (VirtualMachineInstanceMigration m : migrations) {
            if (m.getSpec() != null && name.equals(m.getSpec().getVmiName()) && !m.isFinal()
                    && m.getMetadata().getDeletionTimestamp() == null) {
                String phase = m.getStatus() == null || m.getStatus().getPhase() == null ? "no phase yet" : m.getStatus().getPhase();
                return Optional.of("VMI " + key(vmi) + " already has an unfinished migration: "
                        + m.getMetadata().getName() + " (" + phase + ")");
            }
        }
        return Optional.empty();
    }

    private static String join(String reason, String message) {
        boolean r = reason != null && !reason.isEmpty();
        boolean m = message != null && !message.isEmpty();
        return r && m ? reason + ": " + message : r ? reason : m ? message : "";
    }

    private static String key(VirtualMachineInstance vmi) {
        return vmi.getMetadata().getNamespace() + "/" + vmi.getMetadata().getName();
    }
}
