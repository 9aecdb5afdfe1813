package dev.drainboard.controller.pool;

import dev.drainboard.kubevirt.api.VirtualMachine;

import java.util.List;

/**
 * What one pass of the pool controller does, as {@link PoolDecision} decides it.
 *
 * @param release       owned VMs whose labels no longer match the selector: their controller reference goes
 * @param adopt         orphan VMs the selector matches: the pool becomes their controller
 * @param create        names of the VMs to create ({@code <pool>-<index>}, lowest free indexes first)
 * @param delete        VMs to delete (scale-in), in the order chosen
 * @param scaling       whether scaling ran this pass (expectations met, not paused, not being deleted)
 * @param replicas      {@code status.replicas}: the pool's VMs, those being deleted included (as KubeVirt counts)
 * @param readyReplicas {@code status.readyReplicas}: those whose {@code Ready} condition is True
 * @param labelSelector {@code status.labelSelector}: the selector's text, for the scale subresource
 */
public record PoolPlan(List<VirtualMachine> release, List<VirtualMachine> adopt, List<String> create,
                       List<VirtualMachine> delete, boolean scaling, int replicas, int readyReplicas, String labelSelector) {
}
