/**
 * The VM pool controller (KubeVirt's {@code pkg/virt-controller/watch/pool}): keeps {@code spec.replicas} VMs named
 * {@code <pool>-<index>} from a VirtualMachinePool's template. {@link dev.drainboard.controller.pool.PoolDecision}
 * decides, {@link dev.drainboard.controller.pool.PoolController} writes.
 */
package dev.drainboard.controller.pool;
