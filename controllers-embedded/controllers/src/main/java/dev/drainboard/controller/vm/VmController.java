package dev.drainboard.controller.vm;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.drainboard.controller.informers.SharedInformers;
import dev.drainboard.kubevirt.KubeVirtConditions;
import dev.drainboard.kubevirt.KubeVirtEventReasons;
import dev.drainboard.kubevirt.KubeVirtMessages;
import dev.drainboard.kubevirt.api.Condition;
import dev.drainboard.kubevirt.api.VirtualMachine;
import dev.drainboard.kubevirt.api.VirtualMachineInstance;
import dev.drainboard.kubevirt.api.VirtualMachineStatus;
import dev.drainboard.runtime.ControllerLoop;
import dev.drainboard.runtime.ControllerManager;
import dev.drainboard.runtime.EventComponents;
import dev.drainboard.runtime.EventRecorder;
import dev.drainboard.runtime.Expectations;
import dev.drainboard.runtime.Keys;
import dev.drainboard.runtime.LeanWrites;
import dev.drainboard.runtime.ObjectEvents;
import dev.drainboard.runtime.Result;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchType;

import java.time.Clock;
import java.util.List;
import java.util.Objects;

/**
 * The VM controller's loop: for a VM key, read the VM and the VMI of the same name from the caches, let
 * {@link VmDecision} decide, create or delete the VMI (with expectations and events) and merge-patch the VM status.
 */
public final class VmController {

    public static final String NAME = "vm-controller";
    public static final int WORKERS = 3;
    private static final ObjectMapper MAPPER = new ObjectMapper();

    private final KubernetesClient client;
    private final LeanWrites writes;
    private final SharedInformers informers;
    private final EventRecorder events;
    private final Clock clock;
    private final Expectations<String> expectations = new Expectations<>();

    private VmController(KubernetesClient client, SharedInformers informers, EventRecorder events, Clock clock) {
        this.client = client;
        this.writes = new LeanWrites(client);
        this.informers = informers;
        this.events = events;
        this.clock = clock;
    }

    /** Builds the loop on the shared informers and registers it with the manager (it runs while leading). */
    public static ControllerLoop<String> register(ControllerManager manager, SharedInformers informers) {
        return manager.register(new VmController(manager.client(), informers,
                manager.eventRecorder(EventComponents.VIRTUAL_MACHINE), Clock.systemUTC()).loop());
    }

    ControllerLoop<String> loop() {
        informers.vmis().addEventHandler(ObjectEvents.<VirtualMachineInstance>handler()
                .added(vmi -> {
                    if (ownedByVm(vmi)) {
                        expectations.creationObserved(vmi.key());
                    }
                })
                .updated((before, after) -> {
                    if (ownedByVm(after) && before.getMetadata().getDeletionTimestamp() == null
                            && after.getMetadata().getDeletionTimestamp() != null) {
                        expectations.deletionObserved(after.key());
                    }
                })
                .deleted(vmi -> {
                    if (ownedByVm(vmi)) {
                        expectations.deletionObserved(vmi.key());
                    }
                }));
        return ControllerLoop.<String>builder(NAME, this::reconcile)
                .workers(WORKERS)
                .watch(informers.vms(), Keys::of)
                // A VM's VMI has the VM's name: its key is the VM's key.
                .watch(informers.vmis(), vmi -> ownedByVm(vmi) ? vmi.key() : null)
                .build();
    }

    private static boolean ownedByVm(VirtualMachineInstance vmi) {
        return SharedInformers.controllerOf(vmi).filter(ref -> "VirtualMachine".equals(ref.getKind())).isPresent();
    }

    Result reconcile(String key) {
        VirtualMachine vm = informers.vms().getStore().getByKey(key);
        if (vm == null) {
            expectations.delete(key);
            return Result.done();
        }
        if (!expectations.satisfied(key)) {
            return Result.requeue();
        }
        VirtualMachineInstance vmi = informers.vmis().getStore().getByKey(key);
        VmPlan plan = VmDecision.decide(vm, vmi, clock.instant());

        if (plan.deleteVmi()) {
            deleteVmi(key, vm, vmi);
        }
        if (plan.vmiToCreate() != null) {
            if (!createVmi(key, vm, plan.vmiToCreate())) {
                return Result.requeue();
            }
        }
        String patch = statusPatch(vm.getStatus(), plan.status());
        if (patch != null) {
            try {
                writes.patch(VirtualMachine.class, vm.getMetadata().getNamespace(), vm.getMetadata().getName(), "status",
                        PatchType.JSON_MERGE, patch);
            } catch (KubernetesClientException e) {
                if (e.getCode() == 404) {
                    return Result.done();
                }
                throw e;
            }
        }
        return Result.done();
    }

    private boolean createVmi(String key, VirtualMachine vm, VirtualMachineInstance vmi) {
        expectations.expectCreations(key, 1);
        try {
            writes.create(vmi);
            events.normal(vm, KubeVirtEventReasons.SUCCESSFUL_CREATE, KubeVirtMessages.VM_STARTED, vmi.getMetadata().getName());
            return true;
        } catch (KubernetesClientException e) {
            expectations.creationObserved(key);
            if (e.getCode() == 409) {
                return false; // the old VMI is still there: the cache will tell when it is gone
            }
            events.warning(vm, KubeVirtEventReasons.FAILED_CREATE, KubeVirtMessages.VM_ERROR_CREATING_VMI, e.getMessage());
            throw e;
        }
    }

    private void deleteVmi(String key, VirtualMachine vm, VirtualMachineInstance vmi) {
        expectations.expectDeletions(key, 1);
        try {
            client.resources(VirtualMachineInstance.class).inNamespace(vmi.getMetadata().getNamespace())
                    .withName(vmi.getMetadata().getName()).delete();
            events.normal(vm, KubeVirtEventReasons.SUCCESSFUL_DELETE, KubeVirtMessages.VM_STOPPED, vmi.getMetadata().getUid());
        } catch (KubernetesClientException e) {
            expectations.deletionObserved(key);
            if (e.getCode() == 404) {
                return;
            }
            events.warning(vm, KubeVirtEventReasons.FAILED_DELETE, KubeVirtMessages.VM_ERROR_DELETING_VMI, vmi.getMetadata().getUid(), e.getMessage());
            throw e;
        }
    }

    /** A merge patch of the fields that differ, or null when the status is already right. */
    static String statusPatch(VirtualMachineStatus current, VmStatusFields desired) {
        VirtualMachineStatus now = current == null ? new VirtualMachineStatus() : current;
        ObjectNode status = MAPPER.createObjectNode();
        if (!Objects.equals(now.getCreated(), desired.created())) {
            status.put("created", desired.created());
        }
        if (!Objects.equals(now.getReady(), desired.ready())) {
            status.put("ready", desired.ready());
        }
        if (!Objects.equals(now.getPrintableStatus(), desired.printableStatus())) {
            status.put("printableStatus", desired.printableStatus());
        }
        if (desired.runStrategy() != null && !Objects.equals(now.getRunStrategy(), desired.runStrategy())) {
            status.put("runStrategy", desired.runStrategy());
        }
        List<Condition> conditions = now.getConditions() == null ? List.of() : now.getConditions();
        Condition ready = conditions.stream().filter(c -> KubeVirtConditions.READY.equals(c.getType())).findFirst().orElse(null);
        Condition want = desired.readyCondition();
        if (ready == null || !Objects.equals(ready.getStatus(), want.getStatus()) || !Objects.equals(ready.getReason(), want.getReason())
                || !Objects.equals(ready.getMessage(), want.getMessage())) {
            // A merge patch replaces the list: keep the other conditions as they are.
            ArrayNode list = status.putArray("conditions");
            conditions.stream().filter(c -> !KubeVirtConditions.READY.equals(c.getType())).forEach(c -> list.add(MAPPER.valueToTree(c)));
            list.add(MAPPER.valueToTree(want));
        }
        if (status.isEmpty()) {
            return null;
        }
        ObjectNode patch = MAPPER.createObjectNode();
        patch.set("status", status);
        return patch.toString();
    }
}
