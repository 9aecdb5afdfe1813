package dev.drainboard.controller.replicaset;

import dev.drainboard.kubevirt.KubeVirtConditions;
import dev.drainboard.kubevirt.api.Condition;
import dev.drainboard.kubevirt.api.MigrationState;
import dev.drainboard.kubevirt.api.VirtualMachineInstance;
import dev.drainboard.kubevirt.api.VirtualMachineInstanceReplicaSet;
import dev.drainboard.kubevirt.api.VmiPhase;
import io.fabric8.kubernetes.api.model.OwnerReference;

import java.util.Objects;
import java.util.Optional;

/** How the replica set sees one VMI: active, finished, ready, migrating, whose. Pure. */
final class ReplicaSetVmis {

    static final String KIND = "VirtualMachineInstanceReplicaSet";

    private ReplicaSetVmis() {
    }

    /** Being deleted: it no longer counts, so a replacement can start while it shuts down (graceful delete). */
    static boolean deleting(VirtualMachineInstance vmi) {
        return vmi.getMetadata().getDeletionTimestamp() != null;
    }

    /** {@code Ready=False} with reason {@code PodTerminating}: its launcher pod is going, its state is unknown. */
    static boolean podTerminating(VirtualMachineInstance vmi) {
        return readyCondition(vmi).filter(c -> KubeVirtConditions.STATUS_FALSE.equals(c.getStatus())
                && KubeVirtConditions.REASON_POD_TERMINATING.equals(c.getReason())).isPresent();
    }

    /** Counts towards {@code status.replicas}: not final, not being deleted, launcher pod not terminating. */
    static boolean active(VirtualMachineInstance vmi) {
        return !vmi.isFinal() && !deleting(vmi) && !podTerminating(vmi);
    }

    /** Left to clean up: final (or with a terminating launcher pod) and not yet being deleted. */
    static boolean finished(VirtualMachineInstance vmi) {
        return !deleting(vmi) && (vmi.isFinal() || podTerminating(vmi));
    }

    /**
     * Ready as KubeVirt's {@code docs/replica-sets.md} defines it for VMIs without readiness checks: the VMI's
     * {@code Ready} condition when it has one (it mirrors the launcher pod's readiness, and goes False while the guest
     * is paused); without one, the handler reporting it running (a migrating VMI is running).
     */
    static boolean ready(VirtualMachineInstance vmi) {
        Optional<Condition> ready = readyCondition(vmi);
        if (ready.isPresent()) {
            return KubeVirtConditions.STATUS_TRUE.equals(ready.get().getStatus());
        }
        return vmi.phase().filter(p -> p == VmiPhase.RUNNING).isPresent();
    }

    /** A live migration was handed to the nodes and has not ended. */
    static boolean migrating(VirtualMachineInstance vmi) {
        MigrationState m = vmi.getStatus() == null ? null : vmi.getStatus().getMigrationState();
        return m != null && m.getMigrationUid() != null && !Boolean.TRUE.equals(m.getCompleted())
                && !Boolean.TRUE.equals(m.getFailed()) && m.getEndTimestamp() == null;
    }

    /** Scheduled to a node ({@code status.nodeName} set). */
    static boolean scheduled(VirtualMachineInstance vmi) {
        return vmi.getStatus() != null && vmi.getStatus().getNodeName() != null && !vmi.getStatus().getNodeName().isEmpty();
    }

    static Optional<OwnerReference> controllerRef(VirtualMachineInstance vmi) {
        if (vmi.getMetadata().getOwnerReferences() == null) {
            return Optional.empty();
        }
        return vmi.getMetadata().getOwnerReferences().stream().filter(r -> Boolean.TRUE.equals(r.getController())).findFirst();
    }

    static boolean controlledBy(VirtualMachineInstance vmi, VirtualMachineInstanceReplicaSet rs) {
        return controllerRef(vmi).filter(r -> Objects.equals(r.getUid(), rs.getMetadata().getUid())).isPresent();
    }

    private static Optional<Condition> readyCondition(VirtualMachineInstance vmi) {
        return vmi.getStatus() == null ? Optional.empty()
                : dev.drainboard.kubevirt.api.Conditions.find(vmi.getStatus().getConditions(), KubeVirtConditions.READY);
    }
}
