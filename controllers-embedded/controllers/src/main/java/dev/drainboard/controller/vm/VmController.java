package dev.drainboard.controller.vm;

import com.fasterxml.jackson.databind.JsonNode;
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
import dev.drainboard.kubevirt.api.InstancetypeMatcher;
import dev.drainboard.kubevirt.api.VirtualMachineClusterInstancetype;
import dev.drainboard.kubevirt.api.VirtualMachineClusterPreference;
import dev.drainboard.kubevirt.api.VirtualMachineInstancetype;
import dev.drainboard.kubevirt.api.VirtualMachineInstancetypeSpec;
import dev.drainboard.kubevirt.api.VirtualMachinePreference;
import dev.drainboard.kubevirt.api.VirtualMachinePreferenceSpec;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
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
        Condition failure = null;
        if (plan.vmiToCreate() != null) {
            try {
                Resolved specs = resolve(vm);
                List<String> conflicts = Instancetypes.apply(vm.getSpec().getInstancetype(), specs.instancetype(),
                        vm.getSpec().getPreference(), specs.preference(), plan.vmiToCreate());
                if (!conflicts.isEmpty()) {
                    String message = Instancetypes.conflictMessage(conflicts);
                    events.warning(vm, KubeVirtEventReasons.FAILED_CREATE, KubeVirtMessages.VM_FAILED_TO_APPLY_INSTANCETYPE, message);
                    failure = failureCondition(KubeVirtEventReasons.FAILED_CREATE, message);
                } else if (!createVmi(key, vm, plan.vmiToCreate())) {
                    return Result.requeue();
                }
            } catch (MissingReference e) {
                failure = failureCondition(e.reason, e.getMessage());
            }
        }
        String patch = statusPatch(vm.getStatus(), plan.status(), failure, instancetypeRefs(vm));
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
        if (plan.stateChangeRequests() != null && !writeRequests(vm, plan.stateChangeRequests())) {
            return Result.requeue();
        }
        // A VM that cannot start for its instance type is tried again with back-off, as KubeVirt re-queues a sync error.
        return failure == null ? Result.done() : Result.error(new IllegalStateException(failure.getMessage()));
    }

    /** The instance type and preference a VM names, or a failure as KubeVirt's VM controller reports it. */
    record Resolved(VirtualMachineInstancetypeSpec instancetype, VirtualMachinePreferenceSpec preference) {
    }

    /** KubeVirt's sync errors {@code FailedFindInstancetype} / {@code FailedFindPreference}. */
    static final class MissingReference extends Exception {
        final String reason;

        MissingReference(String reason, String message) {
            super(message, null, false, false);
            this.reason = reason;
        }
    }

    static final String FAILED_FIND_INSTANCETYPE = "FailedFindInstancetype";
    static final String FAILED_FIND_PREFERENCE = "FailedFindPreference";

    private Resolved resolve(VirtualMachine vm) throws MissingReference {
        var spec = vm.getSpec();
        VirtualMachineInstancetypeSpec instancetype = null;
        VirtualMachinePreferenceSpec preference = null;
        String ns = vm.getMetadata().getNamespace();
        InstancetypeMatcher it = spec == null ? null : spec.getInstancetype();
        if (it != null) {
            Instancetypes.Scope scope = Instancetypes.instancetypeScope(it);
            if (scope == null) {
                throw new MissingReference(FAILED_FIND_INSTANCETYPE, "got unexpected kind in InstancetypeMatcher: " + it.getKind());
            }
            instancetype = scope == Instancetypes.Scope.NAMESPACED
                    ? find(informers.instancetypes(), VirtualMachineInstancetype.class, ns, it.getName(), FAILED_FIND_INSTANCETYPE).getSpec()
                    : find(informers.clusterInstancetypes(), VirtualMachineClusterInstancetype.class, null, it.getName(), FAILED_FIND_INSTANCETYPE).getSpec();
        }
        InstancetypeMatcher pref = spec == null ? null : spec.getPreference();
        if (pref != null) {
            Instancetypes.Scope scope = Instancetypes.preferenceScope(pref);
            if (scope == null) {
                throw new MissingReference(FAILED_FIND_PREFERENCE, "got unexpected kind in PreferenceMatcher: " + pref.getKind());
            }
            preference = scope == Instancetypes.Scope.NAMESPACED
                    ? find(informers.preferences(), VirtualMachinePreference.class, ns, pref.getName(), FAILED_FIND_PREFERENCE).getSpec()
                    : find(informers.clusterPreferences(), VirtualMachineClusterPreference.class, null, pref.getName(), FAILED_FIND_PREFERENCE).getSpec();
        }
        return new Resolved(instancetype, preference);
    }

    /**
     * From the cache, else from the API, as KubeVirt's finders fall back to a GET: the cache may not have synced yet,
     * or the cluster may lack the CRD (then the API's 404 message is the failure).
     */
    private <T extends CustomResource<?, ?>> T find(SharedIndexInformer<T> cache, Class<T> type, String namespace, String name,
                                                   String reason) throws MissingReference {
        T cached = cache.getStore().getByKey(namespace == null ? name : namespace + "/" + name);
        if (cached != null) {
            return cached;
        }
        try {
            T fresh = namespace == null ? client.resources(type).withName(name).get()
                    : client.resources(type).inNamespace(namespace).withName(name).get();
            if (fresh == null) {
                // fabric8 reads any 404 as null: tell a missing object from a missing kind, as the API's messages do.
                String plural = HasMetadata.getPlural(type);
                var served = client.getApiResources(HasMetadata.getApiVersion(type));
                boolean kindServed = served != null && served.getResources() != null
                        && served.getResources().stream().anyMatch(r -> plural.equals(r.getName()));
                throw new MissingReference(reason, kindServed
                        ? plural + "." + HasMetadata.getGroup(type) + " \"" + name + "\" not found"
                        : "the server could not find the requested resource");
            }
            return fresh;
        } catch (KubernetesClientException e) {
            String message = e.getStatus() != null && e.getStatus().getMessage() != null ? e.getStatus().getMessage() : e.getMessage();
            throw new MissingReference(reason, message);
        }
    }

    private Condition failureCondition(String reason, String message) {
        Condition c = new Condition();
        c.setType(FAILURE);
        c.setStatus("True");
        c.setReason(reason);
        c.setMessage(message);
        c.setLastTransitionTime(clock.instant().truncatedTo(java.time.temporal.ChronoUnit.SECONDS).toString());
        return c;
    }

    /** {@code Failure} (KubeVirt's {@code VirtualMachineFailure}): the last sync failed, and why. */
    static final String FAILURE = "Failure";

    /**
     * {@code status.instancetypeRef} / {@code status.preferenceRef} as KubeVirt writes them, without the
     * {@code controllerRevisionRef}: the embedded cluster serves no ControllerRevisions, so no snapshot is stored and
     * each start reads the instance type as it is then (docs/controllers.md).
     */
    static ObjectNode instancetypeRefs(VirtualMachine vm) {
        ObjectNode refs = MAPPER.createObjectNode();
        if (vm.getSpec() == null) {
            return refs;
        }
        InstancetypeMatcher it = vm.getSpec().getInstancetype();
        if (it != null) {
            refs.putObject("instancetypeRef").put("name", it.getName())
                    .put("kind", it.getKind() == null || it.getKind().isEmpty() ? "VirtualMachineClusterInstancetype" : it.getKind());
        }
        InstancetypeMatcher pref = vm.getSpec().getPreference();
        if (pref != null) {
            refs.putObject("preferenceRef").put("name", pref.getName())
                    .put("kind", pref.getKind() == null || pref.getKind().isEmpty() ? "VirtualMachineClusterPreference" : pref.getKind());
        }
        return refs;
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

    /**
     * Replaces {@code status.stateChangeRequests} with a JSON patch that tests the list read first, as virt-api and
     * KubeVirt's VM controller do: a request queued meanwhile fails the test and the VM is looked at again.
     * False when the list changed meanwhile.
     */
    private boolean writeRequests(VirtualMachine vm, List<dev.drainboard.kubevirt.api.VirtualMachineStateChangeRequest> requests) {
        ArrayNode patch = MAPPER.createArrayNode();
        var had = vm.getStatus() == null ? null : vm.getStatus().getStateChangeRequests();
        patch.addObject().put("op", "test").put("path", "/status/stateChangeRequests").set("value", MAPPER.valueToTree(had));
        if (requests.isEmpty()) {
            patch.addObject().put("op", "remove").put("path", "/status/stateChangeRequests");
        } else {
            patch.addObject().put("op", "replace").put("path", "/status/stateChangeRequests").set("value", MAPPER.valueToTree(requests));
        }
        try {
            writes.patch(VirtualMachine.class, vm.getMetadata().getNamespace(), vm.getMetadata().getName(), "status",
                    PatchType.JSON, patch.toString());
            return true;
        } catch (KubernetesClientException e) {
            if (e.getCode() == 404) {
                return true;
            }
            if (e.getCode() == 409 || e.getCode() == 422 || e.getCode() == 500) {
                return false;
            }
            throw e;
        }
    }

    /** A merge patch of the fields that differ, or null when the status is already right. */
    static String statusPatch(VirtualMachineStatus current, VmStatusFields desired) {
        return statusPatch(current, desired, null, MAPPER.createObjectNode());
    }

    /**
     * As {@link #statusPatch(VirtualMachineStatus, VmStatusFields)}, with the {@code Failure} condition (null: none,
     * removed when present) and the instance type and preference references ({@code instancetypeRef},
     * {@code preferenceRef}; absent ones are removed).
     */
    static String statusPatch(VirtualMachineStatus current, VmStatusFields desired, Condition failure, ObjectNode refs) {
        VirtualMachineStatus now = current == null ? new VirtualMachineStatus() : current;
        ObjectNode status = MAPPER.createObjectNode();
        for (String ref : List.of("instancetypeRef", "preferenceRef")) {
            Object had = now.getAdditionalProperties().get(ref);
            JsonNode want = refs.get(ref);
            if (want == null && had != null) {
                status.putNull(ref);
            } else if (want != null && (had == null || !MAPPER.valueToTree(had).equals(want))) {
                status.set(ref, want);
            }
        }
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
        Condition had = conditions.stream().filter(c -> FAILURE.equals(c.getType())).findFirst().orElse(null);
        Condition want = desired.readyCondition();
        boolean failureChanged = failure == null ? had != null
                : had == null || !Objects.equals(had.getReason(), failure.getReason()) || !Objects.equals(had.getMessage(), failure.getMessage());
        if (ready == null || !Objects.equals(ready.getStatus(), want.getStatus()) || !Objects.equals(ready.getReason(), want.getReason())
                || !Objects.equals(ready.getMessage(), want.getMessage()) || failureChanged) {
            // A merge patch replaces the list: keep the other conditions as they are.
            ArrayNode list = status.putArray("conditions");
            conditions.stream().filter(c -> !KubeVirtConditions.READY.equals(c.getType()) && !FAILURE.equals(c.getType()))
                    .forEach(c -> list.add(MAPPER.valueToTree(c)));
            list.add(MAPPER.valueToTree(want));
            if (failure != null) {
                list.add(MAPPER.valueToTree(failureChanged ? failure : had));
            }
        }
        if (status.isEmpty()) {
            return null;
        }
        ObjectNode patch = MAPPER.createObjectNode();
        patch.set("status", status);
        return patch.toString();
    }
}
