package dev.drainboard.controller.replicaset;

import dev.drainboard.kubevirt.api.VirtualMachineInstance;

import java.util.List;

/**
 * What one pass over a replica set does, as {@link ReplicaSetDecision} decided it.
 *
 * @param release       owned VMIs whose labels no longer match: their controller reference goes
 * @param adopt         orphans that match: they get this set as controller
 * @param scaling       whether this pass may scale: the caches caught up with the last pass's writes
 *                      (expectations), not paused, the set not being deleted
 * @param create        VMIs to create now (at most the burst)
 * @param delete        active VMIs to delete now, in {@link ScaleDownOrder} (at most the burst)
 * @param cleanup       finished VMIs to delete once scaling worked (at most the burst)
 * @param wanted        {@code spec.replicas} (1 when unset)
 * @param active        claimed VMIs that count: {@code status.replicas}
 * @param ready         of those, the ready ones: {@code status.readyReplicas}
 * @param labelSelector the selector's canonical text: {@code status.labelSelector}
 */
public record ReplicaSetPlan(
        List<VirtualMachineInstance> release,
        List<VirtualMachineInstance> adopt,
        boolean scaling,
        int create,
        List<VirtualMachineInstance> delete,
        List<VirtualMachineInstance> cleanup,
        int wanted,
        int active,
        int ready,
        String labelSelector) {

    /** How many VMIs the set lacks (negative: has too many). */
    public int missing() {
        return wanted - active;
    }
}
