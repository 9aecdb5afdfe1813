package dev.drainboard.controller.replicaset;

import dev.drainboard.architecture.Pure;
import dev.drainboard.kubevirt.api.VirtualMachineInstance;
import dev.drainboard.kubevirt.api.VirtualMachineInstanceReplicaSet;
import dev.drainboard.kubevirt.replicaset.ReplicaSetSelector;

import java.util.ArrayList;
import java.util.List;

/**
 * The replica set's decision for one pass. Pure.
 *
 * <p>Claims, as controller references work for pods: an owned VMI whose labels stopped matching is released; an
 * orphan (no controller) that matches and is not being deleted is adopted, unless the set itself is being deleted;
 * VMIs controlled by anything else are never touched. Of the claimed VMIs, the active ones count ({@link
 * ReplicaSetVmis#active}); VMIs being deleted do not, so a replacement starts while they shut down.
 *
 * <pre>
 * scaling allowed? | active vs wanted | action
 * no               | any              | none (status only; adoption and release still run)
 * yes              | fewer            | create min(wanted - active, burst)
 * yes              | more             | delete min(active - wanted, burst), first in ScaleDownOrder
 * yes              | equal            | none
 * yes              | any              | then delete up to burst finished VMIs, if the scaling worked
 * </pre>
 * Scaling is allowed when the caches have seen this controller's last writes (expectations), the set is not paused
 * and not being deleted.
 */
@Pure
public final class ReplicaSetDecision {

    private ReplicaSetDecision() {
    }

    /**
     * @param rs                      a valid set (see {@code ReplicaSetValidation})
     * @param vmis                    every VMI of the set's namespace, from the cache
     * @param expectationsSatisfied   whether the caches have caught up with this set's last creates and deletes
     * @param burst                   the most creates or deletes in one pass (KubeVirt: 250)
     */
    public static ReplicaSetPlan decide(VirtualMachineInstanceReplicaSet rs, ReplicaSetSelector selector,
                                        List<VirtualMachineInstance> vmis, boolean expectationsSatisfied, int burst) {
        boolean rsDeleting = rs.getMetadata().getDeletionTimestamp() != null;
        List<VirtualMachineInstance> claimed = new ArrayList<>();
        List<VirtualMachineInstance> release = new ArrayList<>();
        List<VirtualMachineInstance> adopt = new ArrayList<>();
        for (VirtualMachineInstance vmi : vmis) {
            boolean matches = selector.matches(vmi.getMetadata().getLabels());
            if (ReplicaSetVmis.controlledBy(vmi, rs)) {
                if (matches) {
                    claimed.add(vmi);
                } else {
                    release.add(vmi);
                }
            } else if (ReplicaSetVmis.controllerRef(vmi).isEmpty() && matches && !ReplicaSetVmis.deleting(vmi) && !rsDeleting) {
                adopt.add(vmi);
                claimed.add(vmi);
            }
        }
        List<VirtualMachineInstance> active = claimed.stream().filter(ReplicaSetVmis::active).toList();
        List<VirtualMachineInstance> finished = claimed.stream().filter(ReplicaSetVmis::finished).toList();
        int ready = (int) active.stream().filter(ReplicaSetVmis::ready).count();
        int wanted = wanted(rs);
        boolean paused = Boolean.TRUE.equals(rs.getSpec().getPaused());
        boolean scaling = expectationsSatisfied && !paused && !rsDeleting;

        int create = 0;
        List<VirtualMachineInstance> delete = List.of();
        List<VirtualMachineInstance> cleanup = List.of();
        if (scaling) {
            int diff = active.size() - wanted;
            if (diff < 0) {
                create = Math.min(-diff, burst);
            } else if (diff > 0) {
                delete = ScaleDownOrder.victims(active, Math.min(diff, burst));
            }
            cleanup = finished.stream().limit(burst).toList();
        }
        return new ReplicaSetPlan(List.copyOf(release), List.copyOf(adopt), scaling, create, delete, cleanup,
                wanted, active.size(), ready, selector.toString());
    }

    /** {@code spec.replicas}; unset means 1, as in KubeVirt. */
    public static int wanted(VirtualMachineInstanceReplicaSet rs) {
        Integer replicas = rs.getSpec() == null ? null : rs.getSpec().getReplicas();
        return replicas == null ? 1 : replicas;
    }
}
