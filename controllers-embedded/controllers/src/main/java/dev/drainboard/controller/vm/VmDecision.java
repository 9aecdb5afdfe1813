package dev.drainboard.controller.vm;

import dev.drainboard.architecture.Pure;
import dev.drainboard.kubevirt.KubeVirtConditions;
import dev.drainboard.kubevirt.KubeVirtMessages;
import dev.drainboard.kubevirt.KubeVirtValues;
import dev.drainboard.kubevirt.api.Condition;
import dev.drainboard.kubevirt.api.RunStrategy;
import dev.drainboard.kubevirt.api.VirtualMachine;
import dev.drainboard.kubevirt.api.VirtualMachineInstance;
import dev.drainboard.kubevirt.api.VmiPhase;

import dev.drainboard.kubevirt.api.VirtualMachineStateChangeRequest;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.Objects;
import java.util.Optional;

/**
 * The VM controller's decision: keep a VMI or not, per run strategy, and the VM's status. Pure.
 *
 * <pre>
 * runStrategy    | no VMI  | VMI Succeeded         | VMI Failed            | VMI active
 * Always         | create  | delete (then create)  | delete (then create)  | -
 * RerunOnFailure | create* | -                     | delete (then create)  | -
 * Once           | create  | -                     | -                     | -
 * Manual         | -       | -                     | -                     | -
 * Halted         | -       | delete                | delete                | delete
 * </pre>
 * On top of that, {@code status.stateChangeRequests} (queued by virt-api's start/stop/restart): a first Stop naming
 * the VMI's uid deletes it under Always, RerunOnFailure and Manual; a first Start creates the VMI under Manual and
 * RerunOnFailure. (*) RerunOnFailure creates without a Start only when the strategy has just become RerunOnFailure,
 * so a VM stopped through the API stays stopped; a Failed VMI is deleted with a Start queued for the rerun
 * ({@code syncRunStrategy} in KubeVirt's {@code pkg/virt-controller/watch/vm/vm.go}).
 * The deprecated {@code spec.running} true/false reads as Always/Halted. Nothing is done while the VM or its VMI is
 * being deleted (the VMI's own controller and the garbage collector finish that), nor with a VMI of the same name
 * that another owner controls. So a VM whose launcher pod was evicted (the VMI fails when its pod vanishes)
 * restarts elsewhere under Always, as KubeVirt's {@code docs/handling-eviction-requests.md} describes for eviction
 * strategy None.
 */
@Pure
public final class VmDecision {

    private VmDecision() {
    }

    /**
     * @param vmi the VMI with the VM's name from the cache, or null
     */
    public static VmPlan decide(VirtualMachine vm, VirtualMachineInstance vmi, Instant now) {
        VirtualMachineInstance owned = vmi != null && controlledBy(vmi, vm) ? vmi : null;
        boolean foreign = vmi != null && owned == null;
        Optional<RunStrategy> strategy = vm.runStrategy();
        boolean vmDeleting = vm.getMetadata().getDeletionTimestamp() != null;
        boolean vmiDeleting = owned != null && owned.getMetadata().getDeletionTimestamp() != null;
        Optional<VmiPhase> phase = owned == null ? Optional.empty() : owned.phase();

        List<VirtualMachineStateChangeRequest> requests = vm.getStatus() == null || vm.getStatus().getStateChangeRequests() == null
                ? List.of() : vm.getStatus().getStateChangeRequests();
        VirtualMachineStateChangeRequest first = requests.isEmpty() ? null : requests.getFirst();
        boolean startRequested = first != null && VirtualMachineStateChangeRequest.START.equals(first.getAction());
        boolean stopRequested = owned != null && first != null && VirtualMachineStateChangeRequest.STOP.equals(first.getAction())
                && first.getUid() != null && first.getUid().equals(owned.getMetadata().getUid());

        // a stopped RerunOnFailure VM stays stopped: it starts on a Start, or when the strategy has just become this one
        String inForce = vm.getStatus() == null ? null : vm.getStatus().getRunStrategy();
        boolean rerunStarts = startRequested || !RunStrategy.RERUN_ON_FAILURE.value().equals(inForce);
        boolean startsWithoutVmi = strategy.map(s -> switch (s) {
            case ALWAYS, ONCE -> true;
            case RERUN_ON_FAILURE -> rerunStarts;
            case MANUAL -> startRequested;
            case HALTED -> false;
        }).orElse(false);

        boolean create = false;
        boolean delete = false;
        boolean appendStart = false;
        if (!vmDeleting && !vmiDeleting && !foreign && strategy.isPresent()) {
            switch (strategy.get()) {
                case ALWAYS -> {
                    create = owned == null;
                    delete = owned != null && (owned.isFinal() || stopRequested);
                }
                case RERUN_ON_FAILURE -> {
                    create = owned == null && rerunStarts;
                    boolean failed = phase.filter(p -> p == VmiPhase.FAILED).isPresent();
                    delete = failed || stopRequested;
                    appendStart = failed && !stopRequested;
                }
                case ONCE -> create = owned == null;
                case HALTED -> delete = owned != null;
                case MANUAL -> {
                    create = owned == null && startRequested;
                    delete = stopRequested;
                }
            }
        }
        List<VirtualMachineStateChangeRequest> newRequests = nextRequests(requests, owned, appendStart);
        VmStatusFields status = new VmStatusFields(
                owned != null,
                owned != null && !vmiDeleting && vmiReady(owned),
                printableStatus(vm, owned, strategy, owned == null ? startsWithoutVmi : !stopRequested),
                strategy.map(RunStrategy::value).orElse(vm.getSpec() == null ? null : vm.getSpec().getRunStrategy()),
                readyCondition(vm, owned, now));
        return new VmPlan(create ? VmiTemplates.render(vm) : null, delete, status, newRequests);
    }

    /**
     * The VM controller's {@code isTrimFirstChangeRequestNeeded}: a Stop is done once its VMI is gone (or replaced),
     * a Start once a live VMI exists; only the first request is looked at. Null when the list stays as it is.
     */
    static List<VirtualMachineStateChangeRequest> nextRequests(List<VirtualMachineStateChangeRequest> requests,
                                                              VirtualMachineInstance vmi, boolean appendStart) {
        List<VirtualMachineStateChangeRequest> next = new ArrayList<>(requests);
        if (!requests.isEmpty()) {
            VirtualMachineStateChangeRequest first = requests.getFirst();
            boolean done = switch (first.getAction() == null ? "" : first.getAction()) {
                case VirtualMachineStateChangeRequest.STOP -> vmi == null || first.getUid() == null
                        || !first.getUid().equals(vmi.getMetadata().getUid());
                case VirtualMachineStateChangeRequest.START -> vmi != null && vmi.getMetadata().getDeletionTimestamp() == null && !vmi.isFinal();
                default -> false;
            };
            if (done) {
                next.removeFirst();
            }
        }
        if (appendStart) {
            next.add(new VirtualMachineStateChangeRequest(VirtualMachineStateChangeRequest.START, null));
        }
        return next.size() == requests.size() && !appendStart ? null : next;
    }

    static boolean controlledBy(VirtualMachineInstance vmi, VirtualMachine vm) {
        return vmi.getMetadata().getOwnerReferences() != null && vmi.getMetadata().getOwnerReferences().stream()
                .anyMatch(ref -> Boolean.TRUE.equals(ref.getController()) && Objects.equals(ref.getUid(), vm.getMetadata().getUid()));
    }

    /** Whether the run strategy wants a VMI running now (for the printable status). */
    static boolean wantsToRun(Optional<RunStrategy> strategy, VirtualMachineInstance vmi) {
        if (strategy.isEmpty()) {
            return false;
        }
        return switch (strategy.get()) {
            case ALWAYS -> true;
            case RERUN_ON_FAILURE -> vmi == null || vmi.phase().filter(p -> p == VmiPhase.SUCCEEDED).isEmpty();
            case ONCE -> vmi == null;
            case MANUAL -> vmi != null && !vmi.isFinal();
            case HALTED -> false;
        };
    }

    /**
     * @param requested false when the state-change requests or the strategy say no VMI should run now (no VMI and none
     *                  about to be created; a Stop queued for the VMI)
     */
    static String printableStatus(VirtualMachine vm, VirtualMachineInstance vmi, Optional<RunStrategy> strategy, boolean requested) {
        if (vm.getMetadata().getDeletionTimestamp() != null) {
            return KubeVirtValues.VM_STATUS_TERMINATING;
        }
        boolean wantsToRun = vmi == null ? requested : requested && wantsToRun(strategy, vmi);
        if (vmi == null) {
            return wantsToRun ? KubeVirtValues.VM_STATUS_STARTING : KubeVirtValues.VM_STATUS_STOPPED;
        }
        if (vmi.getMetadata().getDeletionTimestamp() != null || (!wantsToRun && !vmi.isFinal())) {
            return KubeVirtValues.VM_STATUS_STOPPING;
        }
        if (vmi.isFinal()) {
            return wantsToRun ? KubeVirtValues.VM_STATUS_STARTING : KubeVirtValues.VM_STATUS_STOPPED;
        }
        VmiPhase phase = vmi.phase().orElse(VmiPhase.PENDING);
        var conditions = vmi.getStatus() == null ? null : vmi.getStatus().getConditions();
        return switch (phase) {
            case RUNNING -> {
                if (dev.drainboard.kubevirt.api.Conditions.isTrue(conditions, KubeVirtConditions.PAUSED)) {
                    yield KubeVirtValues.VM_STATUS_PAUSED;
                }
                var migration = vmi.getStatus().getMigrationState();
                yield migration != null && migration.getEndTimestamp() == null && !Boolean.TRUE.equals(migration.getCompleted())
                        && !Boolean.TRUE.equals(migration.getFailed())
                        ? KubeVirtValues.VM_STATUS_MIGRATING : KubeVirtValues.VM_STATUS_RUNNING;
            }
            case PENDING, SCHEDULING, SCHEDULED -> dev.drainboard.kubevirt.api.Conditions.find(conditions, KubeVirtConditions.POD_SCHEDULED)
                    .filter(c -> KubeVirtConditions.STATUS_FALSE.equals(c.getStatus()) && "Unschedulable".equals(c.getReason()))
                    .map(c -> KubeVirtValues.VM_STATUS_UNSCHEDULABLE)
                    .orElse(KubeVirtValues.VM_STATUS_STARTING);
            default -> KubeVirtValues.VM_STATUS_UNKNOWN;
        };
    }

    static boolean vmiReady(VirtualMachineInstance vmi) {
        return vmi.getStatus() != null && dev.drainboard.kubevirt.api.Conditions.isTrue(vmi.getStatus().getConditions(), KubeVirtConditions.READY);
    }

    /** The VMI's Ready condition, copied; or Ready=False saying why there is none. Keeps the transition time if unchanged. */
    static Condition readyCondition(VirtualMachine vm, VirtualMachineInstance vmi, Instant now) {
        Condition ready;
        Optional<Condition> fromVmi = vmi == null || vmi.getStatus() == null ? Optional.empty()
                : dev.drainboard.kubevirt.api.Conditions.find(vmi.getStatus().getConditions(), KubeVirtConditions.READY);
        if (vmi == null) {
            ready = new Condition(KubeVirtConditions.READY, KubeVirtConditions.STATUS_FALSE, KubeVirtConditions.REASON_VMI_NOT_EXISTS, KubeVirtMessages.VM_VMI_DOES_NOT_EXIST);
        } else if (fromVmi.isEmpty()) {
            ready = new Condition(KubeVirtConditions.READY, KubeVirtConditions.STATUS_FALSE, KubeVirtConditions.REASON_VMI_CONDITION_MISSING,
                    KubeVirtMessages.VMI_MISSING_READY_CONDITION);
        } else {
            Condition c = fromVmi.get();
            ready = new Condition(KubeVirtConditions.READY, c.getStatus(), c.getReason(), c.getMessage());
        }
        Optional<Condition> previous = vm.getStatus() == null ? Optional.empty()
                : dev.drainboard.kubevirt.api.Conditions.find(vm.getStatus().getConditions(), KubeVirtConditions.READY);
        ready.setLastTransitionTime(previous.filter(p -> Objects.equals(p.getStatus(), ready.getStatus()))
                .map(Condition::getLastTransitionTime)
                .orElse(DateTimeFormatter.ISO_INSTANT.format(now.truncatedTo(ChronoUnit.SECONDS))));
        return ready;
    }
}
