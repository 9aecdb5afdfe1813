package dev.drainboard.controller.vmi;

import dev.drainboard.architecture.Pure;
import dev.drainboard.kubevirt.DeschedulerAnnotations;
import dev.drainboard.kubevirt.KubeVirtConditions;
import dev.drainboard.kubevirt.KubeVirtProfile;
import dev.drainboard.kubevirt.KubeVirtFinalizers;
import dev.drainboard.kubevirt.KubeVirtLabels;
import dev.drainboard.kubevirt.KubeVirtMessages;
import dev.drainboard.kubevirt.KubeVirtValues;
import dev.drainboard.kubevirt.api.Condition;
import dev.drainboard.kubevirt.api.MigrationPhase;
import dev.drainboard.kubevirt.api.PhaseTransitionTimestamp;
import dev.drainboard.kubevirt.api.VirtualMachineInstance;
import dev.drainboard.kubevirt.api.VirtualMachineInstanceMigration;
import dev.drainboard.kubevirt.api.VirtualMachineInstanceStatus.NetworkInterface;
import dev.drainboard.kubevirt.api.VmiPhase;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodCondition;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

import static dev.drainboard.controller.vmi.LauncherPodState.isDownOrGoingDown;
import static dev.drainboard.controller.vmi.LauncherPodState.isFailed;
import static dev.drainboard.controller.vmi.LauncherPodState.isFinished;
import static dev.drainboard.controller.vmi.LauncherPodState.isReady;
import static dev.drainboard.controller.vmi.LauncherPodState.isRunning;
import static dev.drainboard.controller.vmi.LauncherPodState.isTerminating;

/**
 * The VMI controller's decision (KubeVirt's {@code pkg/virt-controller/watch/vmi/lifecycle.go}, {@code sync} and
 * {@code updateStatus}), a pure function of the VMI, the pods it controls,
 * whether a migration of it is active, and the time.
 *
 * <pre>
 * phase          | launcher pod                          | next phase / action
 * unset, Pending | exists                                | Scheduling
 * unset, Pending | none, VMI deleted                     | Failed
 * unset, Pending | none                                  | Pending; create the pod (not while a migration is active);
 *                |                                       |   once created, Scheduling in the same write ({@link #podCreated})
 * Scheduling     | Ready, VMI not deleted                | Scheduled; status.nodeName and label kubevirt.io/nodeName
 * Scheduling     | missing, or down / going down         | Failed
 * Scheduled      | missing or Failed                     | Failed
 * Running        | missing or Failed                     | Failed   (Running itself is set by the node handler),
 *                |                                       |          not while a started migration switches over, nor for
 *                |                                       |          an evicted pod whose launcher exited cleanly
 * any            | VMI deleted                           | delete every pod not already terminating
 * final          | pods still running                    | delete them
 * not final      | -                                     | finalizer kubevirt.io/foregroundDeleteVirtualMachine on
 * final, deleted | no pods left                          | finalizer off
 * any (v1.7+)   | status.evacuationNodeName set / unset | EvictionRequested=True kept / removed
 * any (v1.7+)   | Ready, marked / not marked            | annotation descheduler.alpha.kubernetes.io/eviction-in-progress
 *                |                                       |   added / removed (up to v1.6 the migration controller's)
 * Scheduling     | PodScheduled=False (unschedulable)    | the VMI carries the pod's PodScheduled=False (reason, the
 *                |                                       |   scheduler's message); removed once the pod is scheduled
 * Scheduled on,  | running, with a pod IP the VMI does    | status.interfaces: the guest's interface "default" with
 *   Running      |   not report yet (started, migrated)  |   the pod's IP (what virt-handler reports for a masquerade
 *                |                                       |   binding; the IP column of kubectl get vmi), the MAC kept
 * </pre>
 */
@Pure
public final class VmiDecision {

    /**
     * VMIM phases that do not count as an active migration (KubeVirt's
     * {@code VirtualMachineInstanceMigration.IsRunning}).
     */
    private static final Set<MigrationPhase> NOT_RUNNING_MIGRATION = Set.of(
            MigrationPhase.PENDING, MigrationPhase.SUCCEEDED, MigrationPhase.FAILED,
            MigrationPhase.WAITING_FOR_SYNC, MigrationPhase.SYNCHRONIZING);

    private static final String POD_SCHEDULED = "PodScheduled";

    private VmiDecision() {
    }

    /**
     * A started migration that has not failed: the source launcher may already have ended (a node-pressure eviction
     * ends it Failed, reason Evicted) before the target node moves {@code status.nodeName}; the VMI lives on there.
     */
    static boolean switchingOver(VirtualMachineInstance vmi) {
        var state = vmi.getStatus() == null ? null : vmi.getStatus().getMigrationState();
        return state != null && state.getStartTimestamp() != null && state.getTargetNode() != null
                && !state.getTargetNode().equals(vmi.getStatus().getNodeName()) && !Boolean.TRUE.equals(state.getFailed());
    }

    /**
     * A pod the kubelet evicted for node pressure whose launcher still exited cleanly (its guest shut down or
     * migrated): Failed only because an evicted pod always ends so. The node handler reports how the VMI ended.
     */
    static boolean evictedCleanly(Pod pod) {
        var status = pod.getStatus();
        if (status == null || !"Evicted".equals(status.getReason()) || status.getContainerStatuses() == null
                || status.getContainerStatuses().isEmpty()) {
            return false;
        }
        return status.getContainerStatuses().stream().allMatch(c -> c.getState() != null && c.getState().getTerminated() != null
                && Integer.valueOf(0).equals(c.getState().getTerminated().getExitCode()));
    }

    /** As the seeds' KubeVirt (≤ v1.4) decides: no {@code EvictionRequested}, no descheduler annotation. */
    public static VmiPlan decide(VirtualMachineInstance vmi, List<Pod> ownedPods, boolean activeMigration, Instant now) {
        return decide(vmi, ownedPods, activeMigration, KubeVirtProfile.SEEDS, now);
    }

    /**
     * @param profile the cluster's KubeVirt release: from v1.7 ({@link KubeVirtProfile#reportsEvictionRequested()})
     *                the condition {@code EvictionRequested} and the pod annotation follow the eviction mark
     *                ({@code pkg/virt-controller/watch/vmi/lifecycle.go} at v1.7.0)
     */
    public static VmiPlan decide(VirtualMachineInstance vmi, List<Pod> ownedPods, boolean activeMigration,
                                 KubeVirtProfile profile, Instant now) {
        boolean deleting = vmi.getMetadata().getDeletionTimestamp() != null;
        Optional<VmiPhase> phase = vmi.phase();
        boolean isFinal = phase.map(VmiPhase::isFinal).orElse(false);
        Optional<Pod> current = LauncherPodState.currentPod(vmi, ownedPods);

        // Pods to delete: all of a deleted VMI; the still-running ones of a finished VMI.
        List<Pod> toDelete = ownedPods.stream()
                .filter(p -> !isTerminating(p))
                .filter(p -> deleting || (isFinal && !isFinished(p)))
                .toList();

        Pod toCreate = null;
        boolean blocked = false;
        VmiPhase next = phase.orElse(null);
        String nodeName = null;
        Map<String, String> labels = Map.of();

        switch (phase.orElse(VmiPhase.PENDING)) {
            case PENDING -> {
                if (current.isPresent()) {
                    next = VmiPhase.SCHEDULING;
                } else if (deleting) {
                    next = VmiPhase.FAILED;
                } else {
                    next = VmiPhase.PENDING;
                    if (activeMigration) {
                        blocked = true;
                    } else {
                        toCreate = LauncherPods.render(vmi);
                    }
                }
            }
            case SCHEDULING -> {
                if (current.isEmpty() || isDownOrGoingDown(current.get())) {
                    next = VmiPhase.FAILED;
                } else if (isReady(current.get()) && !deleting) {
                    next = VmiPhase.SCHEDULED;
                    nodeName = current.get().getSpec().getNodeName();
                    labels = Map.of(KubeVirtLabels.NODE_NAME, nodeName);
                }
            }
            case SCHEDULED, RUNNING -> {
                if (current.isEmpty() || (isFailed(current.get()) && !switchingOver(vmi) && !evictedCleanly(current.get()))) {
                    next = VmiPhase.FAILED;
                }
            }
            default -> {
                // Succeeded, Failed: final. WaitingForSync, Unknown: not this controller's to move.
            }
        }

        String newPhase = next != null && !next.value().equals(vmi.getStatus() == null ? null : vmi.getStatus().getPhase())
                ? next.value() : null;
        boolean finalAfter = isFinal || (next != null && next.isFinal());

        List<PhaseTransitionTimestamp> timestamps = null;
        if (newPhase != null) {
            timestamps = new ArrayList<>(existingTimestamps(vmi));
            timestamps.add(new PhaseTransitionTimestamp(newPhase, timestamp(now)));
        }

        List<Pod> toMarkUnpaused = current
                .filter(p -> !deleting && !finalAfter && isRunning(p) && !isTerminating(p))
                .filter(p -> !LauncherPodState.hasTrueCondition(p, KubeVirtValues.READINESS_GATE_UNPAUSED))
                .filter(p -> !isPaused(vmi))
                .map(List::of).orElse(List.of());

        boolean placed = next == VmiPhase.SCHEDULED || next == VmiPhase.RUNNING;
        List<NetworkInterface> interfaces = current
                .filter(p -> placed && !deleting && !finalAfter && isRunning(p) && !isTerminating(p))
                .flatMap(p -> interfacesFor(vmi, p))
                .orElse(null);

        boolean followsMark = profile.reportsEvictionRequested();
        List<Condition> conditions = podScheduledCondition(vmi, next == VmiPhase.SCHEDULING ? current.orElse(null) : null,
                followsMark ? evictionCondition(vmi, now) : null);
        VmiPlan.EvictionInProgress annotation = followsMark && !deleting && !finalAfter
                ? current.flatMap(p -> evictionInProgress(vmi, p)).orElse(null) : null;

        return new VmiPlan(toCreate, toDelete, toMarkUnpaused,
                new VmiChange(newPhase, nodeName, labels, conditions,
                        timestamps, finalizers(vmi, deleting, finalAfter, ownedPods.isEmpty()), interfaces),
                blocked, annotation);
    }

    /**
     * The descheduler's {@code eviction-in-progress} on the VMI's Ready launcher pod follows the eviction mark: added
     * while marked, removed once not (KubeVirt v1.7's {@code lifecycle.go}, {@code MarkEvictionInProgress} and
     * {@code MarkEvictionCompleted}).
     */
    static Optional<VmiPlan.EvictionInProgress> evictionInProgress(VirtualMachineInstance vmi, Pod pod) {
        if (!isReady(pod) || isTerminating(pod)) {
            return Optional.empty();
        }
        boolean annotated = DeschedulerAnnotations.evictionInProgress(pod);
        if (vmi.isMarkedForEviction() && !annotated) {
            return Optional.of(new VmiPlan.EvictionInProgress(pod, true));
        }
        if (!vmi.isMarkedForEviction() && annotated) {
            return Optional.of(new VmiPlan.EvictionInProgress(pod, false));
        }
        return Optional.empty();
    }

    /**
     * The interfaces to report when the VMI's launcher pod has an IP the VMI does not show yet: one interface,
     * {@code default}, with the pod's IP (a masquerade-bound guest is reached at its pod's IP, which changes with the
     * pod on a migration) and the MAC already reported, else one made from the VMI's UID (stable across migrations).
     */
    static Optional<List<NetworkInterface>> interfacesFor(VirtualMachineInstance vmi, Pod pod) {
        String ip = pod.getStatus() == null ? null : pod.getStatus().getPodIP();
        if (ip == null || ip.isEmpty()) {
            return Optional.empty();
        }
        List<NetworkInterface> reported = vmi.getStatus() == null ? null : vmi.getStatus().getInterfaces();
        NetworkInterface first = reported == null || reported.isEmpty() ? null : reported.getFirst();
        if (first != null && ip.equals(first.getIpAddress())) {
            return Optional.empty();
        }
        NetworkInterface iface = new NetworkInterface();
        iface.setName("default");
        iface.setInterfaceName("eth0");
        iface.setIpAddress(ip);
        iface.setIpAddresses(List.of(ip));
        iface.setMac(first != null && first.getMac() != null ? first.getMac() : macFor(vmi.getMetadata().getUid()));
        iface.setInfoSource("domain, guest-agent");
        return Optional.of(List.of(iface));
    }

    /** A locally administered unicast MAC (02:…) made from the VMI's UID. */
    static String macFor(String uid) {
        long bits = UUID.nameUUIDFromBytes(String.valueOf(uid).getBytes(StandardCharsets.UTF_8)).getMostSignificantBits();
        StringBuilder mac = new StringBuilder("02");
        for (int i = 0; i < 5; i++) {
            mac.append(String.format(Locale.ROOT, ":%02x", (bits >>> (8 * i)) & 0xff));
        }
        return mac.toString();
    }

    /**
     * The change once the launcher pod this plan asked for has been created: the pod exists, so the first row
     * ("unset, Pending | exists | Scheduling") applies at once, and the VMI is written once, not Pending then
     * Scheduling a moment later. Both phases stay recorded, in order, in {@code phaseTransitionTimestamps}.
     */
    public static VmiChange podCreated(VirtualMachineInstance vmi, VmiChange change, Instant now) {
        String current = vmi.getStatus() == null ? null : vmi.getStatus().getPhase();
        boolean pendingNow = VmiPhase.PENDING.value().equals(change.phase())
                || (change.phase() == null && VmiPhase.PENDING.value().equals(current));
        if (!pendingNow) {
            return change;
        }
        List<PhaseTransitionTimestamp> timestamps = new ArrayList<>(change.phaseTransitionTimestamps() != null
                ? change.phaseTransitionTimestamps() : existingTimestamps(vmi));
        timestamps.add(new PhaseTransitionTimestamp(VmiPhase.SCHEDULING.value(), timestamp(now)));
        return new VmiChange(VmiPhase.SCHEDULING.value(), change.nodeName(), change.labels(), change.conditions(),
                timestamps, change.finalizers(), change.interfaces());
    }

    /**
     * A VMIM of this VMI that is neither final nor waiting: while one exists, no new launcher pod (as KubeVirt's VMI
     * controller).
     */
    public static boolean hasActiveMigration(List<VirtualMachineInstanceMigration> migrations) {
        return migrations.stream().anyMatch(m -> m.phase().map(p -> !NOT_RUNNING_MIGRATION.contains(p)).orElse(false));
    }

    /** The new condition list if EvictionRequested must appear or go, else null. */
    static List<Condition> evictionCondition(VirtualMachineInstance vmi, Instant now) {
        List<Condition> conditions = vmi.getStatus() == null || vmi.getStatus().getConditions() == null
                ? List.of() : vmi.getStatus().getConditions();
        Optional<Condition> existing = conditions.stream()
                .filter(c -> KubeVirtConditions.EVICTION_REQUESTED.equals(c.getType())).findFirst();
        if (vmi.isMarkedForEviction()) {
            if (existing.isPresent() && KubeVirtConditions.STATUS_TRUE.equals(existing.get().getStatus())
                    && KubeVirtConditions.REASON_EVICTION_REQUESTED.equals(existing.get().getReason())
                    && KubeVirtMessages.VMI_MARKED_FOR_EVICTION.equals(existing.get().getMessage())) {
                return null;
            }
            List<Condition> updated = new ArrayList<>(conditions.stream()
                    .filter(c -> !KubeVirtConditions.EVICTION_REQUESTED.equals(c.getType())).toList());
            Condition requested = new Condition(KubeVirtConditions.EVICTION_REQUESTED, KubeVirtConditions.STATUS_TRUE,
                    KubeVirtConditions.REASON_EVICTION_REQUESTED, KubeVirtMessages.VMI_MARKED_FOR_EVICTION);
            requested.setLastTransitionTime(timestamp(now));
            updated.add(requested);
            return updated;
        }
        if (existing.isEmpty()) {
            return null;
        }
        return conditions.stream().filter(c -> !KubeVirtConditions.EVICTION_REQUESTED.equals(c.getType())).toList();
    }

    /**
     * KubeVirt shows why a VMI waits in Scheduling: the launcher pod's {@code PodScheduled=False} condition (reason
     * {@code Unschedulable}, the scheduler's message) is copied onto the VMI, and removed once the pod is scheduled
     * or the VMI has left Scheduling.
     *
     * @param pod     the launcher pod while the VMI is Scheduling, else null
     * @param changed the condition list another rule already changed, or null
     * @return the new condition list, or null when nothing changes
     */
    static List<Condition> podScheduledCondition(VirtualMachineInstance vmi, Pod pod, List<Condition> changed) {
        List<Condition> conditions = changed != null ? changed
                : vmi.getStatus() == null || vmi.getStatus().getConditions() == null ? List.of() : vmi.getStatus().getConditions();
        Optional<Condition> existing = conditions.stream().filter(c -> POD_SCHEDULED.equals(c.getType())).findFirst();
        Optional<PodCondition> unscheduled = pod == null || pod.getStatus() == null || pod.getStatus().getConditions() == null
                ? Optional.empty()
                : pod.getStatus().getConditions().stream()
                        .filter(c -> POD_SCHEDULED.equals(c.getType()) && "False".equals(c.getStatus())).findFirst();
        if (unscheduled.isEmpty()) {
            if (existing.isEmpty()) {
                return changed;
            }
            return conditions.stream().filter(c -> !POD_SCHEDULED.equals(c.getType())).toList();
        }
        PodCondition from = unscheduled.get();
        if (existing.isPresent() && "False".equals(existing.get().getStatus())
                && Objects.equals(from.getReason(), existing.get().getReason())
                && Objects.equals(from.getMessage(), existing.get().getMessage())) {
            return changed;
        }
        Condition copy = new Condition(POD_SCHEDULED, "False", from.getReason(), from.getMessage());
        copy.setLastTransitionTime(from.getLastTransitionTime());
        copy.setLastProbeTime(from.getLastProbeTime());
        List<Condition> updated = new ArrayList<>(conditions.stream().filter(c -> !POD_SCHEDULED.equals(c.getType())).toList());
        updated.add(copy);
        return updated;
    }

    /** The new finalizer list if it changes, else null. */
    static List<String> finalizers(VirtualMachineInstance vmi, boolean deleting, boolean finalPhase, boolean noPods) {
        List<String> finalizers = vmi.getMetadata().getFinalizers() == null ? List.of() : vmi.getMetadata().getFinalizers();
        boolean has = finalizers.contains(KubeVirtFinalizers.FOREGROUND_DELETE_VIRTUAL_MACHINE);
        if (!has && !deleting && !finalPhase) {
            List<String> added = new ArrayList<>(finalizers);
            added.add(KubeVirtFinalizers.FOREGROUND_DELETE_VIRTUAL_MACHINE);
            return added;
        }
        if (has && (deleting || finalPhase) && noPods) {
            return finalizers.stream().filter(f -> !KubeVirtFinalizers.FOREGROUND_DELETE_VIRTUAL_MACHINE.equals(f)).toList();
        }
        return null;
    }

    private static boolean isPaused(VirtualMachineInstance vmi) {
        return vmi.getStatus() != null
                && dev.drainboard.kubevirt.api.Conditions.isTrue(vmi.getStatus().getConditions(), KubeVirtConditions.PAUSED);
    }

    private static List<PhaseTransitionTimestamp> existingTimestamps(VirtualMachineInstance vmi) {
        return vmi.getStatus() == null || vmi.getStatus().getPhaseTransitionTimestamps() == null
                ? List.of() : vmi.getStatus().getPhaseTransitionTimestamps();
    }

    /** RFC 3339 with whole seconds, as metav1.Time writes it. */
    static String timestamp(Instant now) {
        return DateTimeFormatter.ISO_INSTANT.format(now.truncatedTo(ChronoUnit.SECONDS));
    }
}
