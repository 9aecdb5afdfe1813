package dev.drainboard.controller.vm;

import dev.drainboard.kubevirt.api.Condition;

/**
 * The parts of {@code vm.status} the VM controller writes (with a merge patch on the status subresource; the rest
 * of the status is left alone).
 *
 * @param created         a VMI of this VM exists
 * @param ready           that VMI is Ready
 * @param printableStatus the STATUS column: Stopped, Starting, Running, Stopping, ...
 * @param runStrategy     the run strategy in force
 * @param readyCondition  the {@code Ready} condition (copied from the VMI, or False saying why)
 */
public record VmStatusFields(boolean created, boolean ready, String printableStatus, String runStrategy,
                             Condition readyCondition) {
}
