package dev.drainboard.controller.vm;

import dev.drainboard.kubevirt.api.VirtualMachineInstance;
import dev.drainboard.kubevirt.api.VirtualMachineStateChangeRequest;

import java.util.List;

/**
 * What one reconcile of a VM does, as decided by {@link VmDecision}.
 *
 * @param vmiToCreate the VMI to create, or null
 * @param deleteVmi   delete the VM's VMI (to stop it, or to clear a finished one before running anew)
 * @param status      the VM status fields this controller owns, as they should be
 * @param stateChangeRequests {@code status.stateChangeRequests} as they should be after this reconcile, or null
 *                    when unchanged
 */
public record VmPlan(VirtualMachineInstance vmiToCreate, boolean deleteVmi, VmStatusFields status,
                     List<VirtualMachineStateChangeRequest> stateChangeRequests) {

    public VmPlan(VirtualMachineInstance vmiToCreate, boolean deleteVmi, VmStatusFields status) {
        this(vmiToCreate, deleteVmi, status, null);
    }
}
