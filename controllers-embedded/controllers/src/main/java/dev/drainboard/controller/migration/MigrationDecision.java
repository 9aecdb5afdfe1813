package dev.drainboard.controller.migration;

import dev.drainboard.architecture.Pure;
import dev.drainboard.controller.vmi.LauncherPodState;
import dev.drainboard.controller.vmi.LauncherPods;
import dev.drainboard.kubevirt.DrainboardAnnotations;
import dev.drainboard.kubevirt.KubeVirtAnnotations;
import dev.drainboard.kubevirt.KubeVirtEventReasons;
import dev.drainboard.kubevirt.KubeVirtFinalizers;
import dev.drainboard.kubevirt.KubeVirtLabels;
import dev.drainboard.kubevirt.KubeVirtMessages;
import dev.drainboard.kubevirt.KubeVirtValues;
import dev.drainboard.kubevirt.DeschedulerAnnotations;
import dev.drainboard.kubevirt.api.MigrationPhase;
import dev.drainboard.kubevirt.api.MigrationState;
import dev.drainboard.kubevirt.api.PhaseTransitionTimestamp;
import dev.drainboard.kubevirt.api.VirtualMachineInstance;
import dev.drainboard.kubevirt.api.VirtualMachineInstanceMigration;
import dev.drainboard.kubevirt.api.VmiPhase;
import dev.drainboard.kubevirt.config.MigrationConfig;
import io.fabric8.kubernetes.api.model.Affinity;
import io.fabric8.kubernetes.api.model.AffinityBuilder;
import io.fabric8.kubernetes.api.model.LabelSelectorBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodAffinityTerm;
import io.fabric8.kubernetes.api.model.PodAffinityTermBuilder;
import io.fabric8.kubernetes.api.model.PodAntiAffinity;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The migration controller's phase machine, as {@code sync} and {@code updateStatus} in KubeVirt's
 * {@code pkg/virt-controller/watch/migration/migration.go} run it, with the PDB expansion of KubeVirt up to v1.5
 * (docs/behaviour.md, "One PodDisruptionBudget per VMI"): one VMIM, the caches around it and the time in; the phase to
 * move to, the writes to make and the events to record out. Pure.
 *
 * <pre>
 * failures first (any phase not final)
 *   VMI gone                                   Failed  "Migration failed because vmi does not exist."
 *   VMI final                                  Failed  "Migration failed vmi shutdown during migration."
 *   VMIM deleted before hand-off               delete target pod; Failed "Migration failed due to being canceled"
 *   source reported failure                    Failed  "source node reported migration failed"
 *   target pod gone after creation             Failed  "Migration target pod was removed during active migration."
 *   target pod down before completion          Failed  "Migration failed because target pod shutdown during migration"
 *   VMI's state cleared / another migration's  Failed  "VMI's migration state was cleared …" / "… taken over …"
 *   VMIM deleted after hand-off                ask the source to abort; stay
 * progression (one step per pass)
 *   unset            → Pending      (Failed if an older unfinished VMIM of the VMI exists)
 *   Pending          back-off (evacuations: 20 s, doubling per failure since the last success); wait for a slot
 *                    (cluster and source-node limits; with the priority queue on, also for the VMIMs before it
 *                    in the queue: {@link MigrationSlots#turns}), for one active pod, for the PDB expanded to 2 and
 *                    observed; then create the target pod; → Scheduling once it exists
 *   Scheduling       target pod unschedulable ≥ 300 s or pending ≥ 900 s: delete it, Failed; Ready → Scheduled
 *   Scheduled        hand-off (VMI migrationState); → PreparingTarget once the VMI carries it
 *   PreparingTarget  → TargetReady when the target node reported its address
 *   TargetReady      → Running when the source node reported the start
 *   Running          → Succeeded when the source node reported completion
 * final              copy the VMI's state, remove the finalizer
 * </pre>
 */
@Pure
public final class MigrationDecision {

    /** Re-check while waiting for the VMI, the PDB or old pods. */
    static final Duration SHORT_WAIT = Duration.ofSeconds(1);

    /**
     * @param targetPods         pods labelled {@code kubevirt.io/migrationJobUID=<vmim uid>}
     * @param sourcePod          the VMI's launcher pod on its node, or null
     * @param activePods         the VMI's pods neither Succeeded nor Failed
     * @param budget             the VMI's PDB, or null
     * @param wantsBudget        the VMI's eviction strategy keeps a PDB (so it must be expanded first)
     * @param siblings           every VMIM of the same VMI (this one included)
     * @param started            the other VMIMs whose migration started ({@link MigrationSlots#started}): in the
     *                           cluster, and moving a VMI off this VMI's node
     * @param turn               with the migration priority queue on, this VMIM's turn in it
     *                           ({@link MigrationSlots#turns}); null when the queue is off or the VMIM is not queued
     */
    public record Input(VirtualMachineInstanceMigration vmim, VirtualMachineInstance vmi, List<Pod> targetPods,
                        Pod sourcePod, int activePods, PodDisruptionBudget budget, boolean wantsBudget,
                        List<VirtualMachineInstanceMigration> siblings, MigrationSlots.InFlight started,
                        MigrationConfig config, MigrationTimings timings, Instant now, MigrationSlots.Turn turn) {

        /** Without the migration priority queue. */
        public Input(VirtualMachineInstanceMigration vmim, VirtualMachineInstance vmi, List<Pod> targetPods,
                     Pod sourcePod, int activePods, PodDisruptionBudget budget, boolean wantsBudget,
                     List<VirtualMachineInstanceMigration> siblings, MigrationSlots.InFlight started,
                     MigrationConfig config, MigrationTimings timings, Instant now) {
            this(vmim, vmi, targetPods, sourcePod, activePods, budget, wantsBudget, siblings, started, config, timings, now, null);
        }
    }

    /** An event on the VMIM ({@code onVmi} false) or on its VMI. */
    public record Event(boolean onVmi, boolean warning, String reason, String message) {
    }

    /**
     * @param phase              the phase to write, or null to keep it
     * @param failureMessage     why it failed (the {@code FailedMigration} event), with phase Failed
     * @param abortRequested     the condition {@code migrationAbortRequested=True} belongs on the VMIM
     * @param waitingForCapacity held back by the migration limits
     * @param entered            every phase this pass moves through, in order, ending with {@code phase} (a new VMIM
     *                           passes Pending on its way to Scheduling)
     */
    public record Plan(MigrationPhase phase, List<MigrationAction> actions, List<Event> events, Duration requeueAfter,
                       boolean abortRequested, boolean waitingForCapacity, List<MigrationPhase> entered) {
    }

    private MigrationDecision() {
    }

    public static Plan decide(Input in) {
        Builder out = new Builder();
        VirtualMachineInstanceMigration vmim = in.vmim();
        String uid = vmim.getMetadata().getUid();
        Optional<MigrationPhase> phase = vmim.phase();
        boolean deleting = vmim.getMetadata().getDeletionTimestamp() != null;
        VirtualMachineInstance vmi = in.vmi();
        MigrationState state = vmi == null || vmi.getStatus() == null ? null : vmi.getStatus().getMigrationState();
        boolean ours = state != null && uid.equals(state.getMigrationUid());
        boolean evacuation = isEvacuation(vmim);

        if (phase.map(MigrationPhase::isFinal).orElse(false)) {
            if (hasFinalizer(vmim)) {
                out.actions.add(new MigrationAction.RemoveFinalizer());
            }
            return out.build();
        }
        if (!deleting) {
            ensureMetadata(vmim).ifPresent(out.actions::add);
        }

        // Failures.
        if (vmi == null) {
            return out.fail(KubeVirtMessages.MIGRATION_FAILED_VMI_MISSING, in, evacuation);
        }
        if (vmi.isFinal()) {
            return out.fail(KubeVirtMessages.MIGRATION_FAILED_VMI_SHUTDOWN, in, evacuation);
        }
        if (deleting && !ours) {
            for (Pod pod : in.targetPods()) {
                out.actions.add(new MigrationAction.DeleteTargetPod(pod.getMetadata().getName(),
                        KubeVirtMessages.MIGRATION_CANCELED_POD_DELETED.formatted(pod.getMetadata().getNamespace(), pod.getMetadata().getName())));
            }
            out.abortRequested = true;
            return out.fail(KubeVirtMessages.MIGRATION_FAILED_CANCELED, in, evacuation);
        }
        if (ours && Boolean.TRUE.equals(state.getFailed())) {
            return out.fail(KubeVirtMessages.SOURCE_REPORTED_FAILURE, in, evacuation);
        }
        boolean completed = ours && Boolean.TRUE.equals(state.getCompleted());
        boolean targetExpected = phase.map(p -> p != MigrationPhase.PENDING).orElse(false);
        Optional<Pod> target = newest(in.targetPods());
        if (targetExpected && !completed) {
            if (target.isEmpty()) {
                if (ours) {
                    out.actions.add(new MigrationAction.MarkVmiMigrationFailed(KubeVirtValues.FAILURE_REASON_TARGET_POD_DOWN));
                }
                return out.fail(KubeVirtMessages.MIGRATION_TARGET_POD_REMOVED, in, evacuation);
            }
            if (LauncherPodState.isDownOrGoingDown(target.get())) {
                if (ours) {
                    out.actions.add(new MigrationAction.MarkVmiMigrationFailed(KubeVirtValues.FAILURE_REASON_TARGET_POD_DOWN));
                }
                return out.fail(KubeVirtMessages.MIGRATION_FAILED_TARGET_POD_SHUTDOWN, in, evacuation);
            }
        }
        boolean handedOffPhase = phase.map(p -> p == MigrationPhase.PREPARING_TARGET || p == MigrationPhase.TARGET_READY
                || p == MigrationPhase.RUNNING).orElse(false);
        if (handedOffPhase && !ours) {
            return out.fail(state == null || state.getMigrationUid() == null
                    ? KubeVirtMessages.MIGRATION_STATE_CLEARED : KubeVirtMessages.MIGRATION_STATE_TAKEN_OVER, in, evacuation);
        }
        if (deleting) {
            out.abortRequested = true;
            if (!Boolean.TRUE.equals(state.getAbortRequested()) && !completed) {
                out.actions.add(new MigrationAction.RequestAbort());
                out.events.add(new Event(false, false, KubeVirtEventReasons.SUCCESSFUL_ABORT_MIGRATION, KubeVirtMessages.READY_TO_ABORT));
            }
        }

        // Progression.
        switch (phase.orElse(null)) {
            case null -> {
                if (olderUnfinishedSibling(in)) {
                    return out.fail(KubeVirtMessages.ANOTHER_MIGRATION_IN_PROGRESS, in, evacuation);
                }
                out.enter(MigrationPhase.PENDING);
                // Straight on: a slot freed by the migration before it is idle until this one's target pod exists.
                pending(in, target, evacuation, out);
            }
            case PENDING -> pending(in, target, evacuation, out);
            case SCHEDULING -> {
                if (target.filter(LauncherPodState::isReady).isPresent()) {
                    out.phase = MigrationPhase.SCHEDULED;
                } else if (target.isPresent()) {
                    pendingTimeouts(in, target.get(), evacuation, out);
                }
            }
            case SCHEDULED -> {
                if (ours && state.getTargetNode() != null) {
                    out.phase = MigrationPhase.PREPARING_TARGET;
                } else if (!ours && target.filter(LauncherPodState::isReady).isPresent()) {
                    out.actions.add(new MigrationAction.HandOff(handOffState(in, target.get())));
                    out.events.add(new Event(false, false, KubeVirtEventReasons.SUCCESSFUL_HAND_OVER, KubeVirtMessages.HANDED_OVER));
                }
            }
            case PREPARING_TARGET -> {
                if (state.getTargetNodeAddress() != null) {
                    out.phase = MigrationPhase.TARGET_READY;
                }
            }
            case TARGET_READY -> {
                if (state.getStartTimestamp() != null) {
                    out.phase = MigrationPhase.RUNNING;
                }
            }
            case RUNNING -> {
                if (completed) {
                    out.phase = MigrationPhase.SUCCEEDED;
                    out.events.add(new Event(false, false, KubeVirtEventReasons.SUCCESSFUL_MIGRATION, KubeVirtMessages.SOURCE_REPORTED_SUCCESS));
                }
            }
            default -> {
                // WaitingForSync, Synchronizing: decentralized migrations are not Drainboard's.
            }
        }
        return out.build();
    }

    private static void pending(Input in, Optional<Pod> target, boolean evacuation, Builder out) {
        if (target.isPresent()) {
            out.enter(MigrationPhase.SCHEDULING);
            return;
        }
        VirtualMachineInstance vmi = in.vmi();
        Optional<Instant> backoffUntil = evacuation ? backoffUntil(in) : Optional.empty();
        if (backoffUntil.isPresent() && in.now().isBefore(backoffUntil.get())) {
            out.events.add(new Event(true, true, KubeVirtEventReasons.MIGRATION_BACKOFF,
                    KubeVirtMessages.MIGRATION_BACKOFF.formatted(vmi.getMetadata().getNamespace(), vmi.getMetadata().getName())));
            out.requeueAfter = Duration.between(in.now(), backoffUntil.get());
            return;
        }
        if (vmi.phase().orElse(null) != VmiPhase.RUNNING || in.activePods() > 1) {
            out.requeueAfter = SHORT_WAIT; // not running yet, or the pods of an earlier migration are still going
            return;
        }
        boolean queuedBehind = in.turn() != null && !in.turn().runs(); // VMIMs before it in the queue take the slots
        if (MigrationSlots.Limits.of(in.config()).free(in.started()) <= 0 || queuedBehind) {
            out.waitingForCapacity = true;
            out.requeueAfter = capacityRecheck(in.vmim());
            return;
        }
        if (in.wantsBudget()) {
            PodDisruptionBudget pdb = in.budget();
            if (pdb == null) {
                out.requeueAfter = SHORT_WAIT; // the disruption budget controller has yet to create it
                return;
            }
            String name = in.vmim().getMetadata().getName();
            if (!isExpandedFor(pdb, name)) {
                out.actions.add(new MigrationAction.ExpandBudget(pdb.getMetadata().getName(), name));
                out.requeueAfter = SHORT_WAIT; // the budget's status event brings the VMIM back sooner
                return;
            }
            if (!expansionObserved(pdb)) {
                out.requeueAfter = SHORT_WAIT; // likewise
                return;
            }
        }
        out.actions.add(new MigrationAction.CreateTargetPod(targetPod(in.vmim(), vmi)));
        if (evacuation && in.sourcePod() != null && !DeschedulerAnnotations.evictionInProgress(in.sourcePod())) {
            out.actions.add(new MigrationAction.SourcePodEvictionInProgress(in.sourcePod().getMetadata().getName(), true));
        }
        out.enter(MigrationPhase.SCHEDULING); // written only once the actions above succeeded
    }

    /**
     * A system-critical VMIM looks again after 1 s, user-triggered after 3 s, others after 5 s (KubeVirt's
     * {@code getRequeueDelayForPriority}).
     */
    static Duration capacityRecheck(VirtualMachineInstanceMigration vmim) {
        String priority = vmim.getSpec() == null ? null : vmim.getSpec().getPriority();
        if (KubeVirtValues.PRIORITY_SYSTEM_CRITICAL.equals(priority)) {
            return Duration.ofSeconds(1);
        }
        if (KubeVirtValues.PRIORITY_USER_TRIGGERED.equals(priority)) {
            return Duration.ofSeconds(3);
        }
        return Duration.ofSeconds(5);
    }

    private static void pendingTimeouts(Input in, Pod target, boolean evacuation, Builder out) {
        VirtualMachineInstanceMigration vmim = in.vmim();
        VirtualMachineInstance vmi = in.vmi();
        String ns = target.getMetadata().getNamespace();
        String pod = target.getMetadata().getName();
        Duration unschedulableLimit = override(vmim, KubeVirtAnnotations.MIGRATION_UNSCHEDULABLE_POD_TIMEOUT_SECONDS,
                in.timings().unschedulableTargetTimeout(), in.timings());
        Duration pendingLimit = override(vmim, KubeVirtAnnotations.MIGRATION_PENDING_POD_TIMEOUT_SECONDS,
                in.timings().pendingTargetTimeout(), in.timings());
        Duration wait = null;
        Optional<Instant> unschedulableSince = unschedulableSince(target);
        if (unschedulableSince.isPresent()) {
            out.events.add(new Event(false, true, KubeVirtEventReasons.MIGRATION_TARGET_POD_UNSCHEDULABLE,
                    KubeVirtMessages.TARGET_POD_UNSCHEDULABLE.formatted(vmi.getMetadata().getNamespace(), vmi.getMetadata().getName())));
            Duration left = unschedulableLimit.minus(Duration.between(unschedulableSince.get(), in.now()));
            if (!left.isPositive()) {
                String message = KubeVirtMessages.UNSCHEDULABLE_POD_TIMEOUT.formatted(ns, pod);
                out.actions.add(new MigrationAction.DeleteTargetPod(pod, message));
                out.fail(message, in, evacuation);
                return;
            }
            wait = left;
        }
        Instant created = parse(target.getMetadata().getCreationTimestamp()).orElse(in.now());
        Duration left = pendingLimit.minus(Duration.between(created, in.now()));
        if (!left.isPositive()) {
            String message = KubeVirtMessages.PENDING_POD_TIMEOUT.formatted(ns, pod);
            out.actions.add(new MigrationAction.DeleteTargetPod(pod, message));
            out.fail(message, in, evacuation);
            return;
        }
        wait = wait == null || left.compareTo(wait) < 0 ? left : wait;
        out.requeueAfter = wait;
    }

    /**
     * As KubeVirt's {@code handleMigrationBackoff}: when this is the newest of several evacuation VMIMs of the VMI,
     * each failed one before it (back to the last success) doubles a 20 s back-off, counted from when the latest of
     * them failed.
     */
    static Optional<Instant> backoffUntil(Input in) {
        return backoffUntil(in.vmim(), in.siblings(), in.timings().backoff());
    }

    /**
     * The same back-off for {@code self} among {@code siblings} (every VMIM of its VMI), the first one {@code first}
     * long; empty when none applies. Public so that the drain's why-pending asks the same rule.
     */
    public static Optional<Instant> backoffUntil(VirtualMachineInstanceMigration self, List<VirtualMachineInstanceMigration> siblings,
                                                 Duration first) {
        if (hasAnnotation(self, KubeVirtAnnotations.IGNORE_MIGRATION_BACKOFF)) {
            return Optional.empty();
        }
        List<VirtualMachineInstanceMigration> evacuations = new ArrayList<>(siblings.stream()
                .filter(MigrationDecision::isEvacuation).toList());
        if (evacuations.stream().noneMatch(m -> Objects.equals(m.getMetadata().getUid(), self.getMetadata().getUid()))) {
            evacuations.add(self);
        }
        if (evacuations.size() < 2) {
            return Optional.empty();
        }
        evacuations.sort(NEWEST_FIRST);
        if (!Objects.equals(evacuations.getFirst().getMetadata().getUid(), self.getMetadata().getUid())) {
            return Optional.empty();
        }
        Duration backoff = Duration.ZERO;
        Instant lastFailure = null;
        for (VirtualMachineInstanceMigration older : evacuations.subList(1, evacuations.size())) {
            MigrationPhase p = older.phase().orElse(null);
            if (p == MigrationPhase.SUCCEEDED) {
                break;
            }
            if (older.getMetadata().getDeletionTimestamp() != null || p != MigrationPhase.FAILED) {
                continue;
            }
            backoff = backoff.isZero() ? first : backoff.multipliedBy(2);
            if (lastFailure == null) {
                lastFailure = transitionTime(older, MigrationPhase.FAILED).orElse(null);
            }
        }
        return lastFailure == null ? Optional.empty() : Optional.of(lastFailure.plus(backoff));
    }

    /**
     * The launcher template plus the migration job label and annotation, never on the source host (KubeVirt's
     * {@code createTargetPod}).
     */
    public static Pod targetPod(VirtualMachineInstanceMigration vmim, VirtualMachineInstance vmi) {
        Pod pod = LauncherPods.render(vmi);
        pod.getMetadata().getLabels().put(KubeVirtLabels.MIGRATION_JOB_UID, vmim.getMetadata().getUid());
        pod.getMetadata().getAnnotations().put(KubeVirtAnnotations.MIGRATION_JOB_NAME, vmim.getMetadata().getName());
        PodAffinityTerm notWithSource = new PodAffinityTermBuilder()
                .withLabelSelector(new LabelSelectorBuilder().addToMatchLabels(KubeVirtLabels.CREATED_BY, vmi.getMetadata().getUid()).build())
                .withTopologyKey("kubernetes.io/hostname")
                .build();
        Affinity affinity = pod.getSpec().getAffinity() == null ? new Affinity()
                : new AffinityBuilder(pod.getSpec().getAffinity()).build();
        PodAntiAffinity anti = affinity.getPodAntiAffinity() == null ? new PodAntiAffinity() : affinity.getPodAntiAffinity();
        List<PodAffinityTerm> required = anti.getRequiredDuringSchedulingIgnoredDuringExecution() == null
                ? new ArrayList<>() : new ArrayList<>(anti.getRequiredDuringSchedulingIgnoredDuringExecution());
        required.add(notWithSource);
        anti.setRequiredDuringSchedulingIgnoredDuringExecution(required);
        affinity.setPodAntiAffinity(anti);
        pod.getSpec().setAffinity(affinity);
        Map<String, String> added = vmim.getSpec() == null ? null : vmim.getSpec().getAddedNodeSelector();
        if (added != null && !added.isEmpty()) {
            Map<String, String> selector = new LinkedHashMap<>(added);
            if (pod.getSpec().getNodeSelector() != null) {
                selector.putAll(pod.getSpec().getNodeSelector()); // on a clash the VMI's own value wins
            }
            pod.getSpec().setNodeSelector(selector);
        }
        return pod;
    }

    static MigrationState handOffState(Input in, Pod target) {
        MigrationState state = new MigrationState();
        state.setMigrationUid(in.vmim().getMetadata().getUid());
        state.setSourceNode(in.vmi().getStatus().getNodeName());
        state.setTargetNode(target.getSpec().getNodeName());
        state.setSourcePod(in.sourcePod() == null ? null : in.sourcePod().getMetadata().getName());
        state.setTargetPod(target.getMetadata().getName());
        return state;
    }

    /** The PDB carries this migration's expansion. */
    public static boolean isExpandedFor(PodDisruptionBudget pdb, String migrationName) {
        var min = pdb.getSpec() == null ? null : pdb.getSpec().getMinAvailable();
        Map<String, String> labels = pdb.getMetadata().getLabels();
        return min != null && Integer.valueOf(2).equals(min.getIntVal())
                && labels != null && migrationName.equals(labels.get(KubeVirtLabels.MIGRATION_NAME));
    }

    /** The disruption controller has seen the expansion: target pods may come (docs/behaviour.md). */
    public static boolean expansionObserved(PodDisruptionBudget pdb) {
        var status = pdb.getStatus();
        return status != null && Integer.valueOf(2).equals(status.getDesiredHealthy())
                && Objects.equals(status.getObservedGeneration(), pdb.getMetadata().getGeneration());
    }

    static Optional<MigrationAction> ensureMetadata(VirtualMachineInstanceMigration vmim) {
        boolean finalizer = !hasFinalizer(vmim);
        Map<String, String> labels = vmim.getMetadata().getLabels();
        String vmiName = vmim.getSpec() == null ? null : vmim.getSpec().getVmiName();
        String label = vmiName != null && (labels == null || !vmiName.equals(labels.get(KubeVirtLabels.MIGRATION_SELECTOR))) ? vmiName : null;
        String cause = hasAnnotation(vmim, DrainboardAnnotations.MIGRATION_CAUSE) ? null : defaultCause(vmim);
        if (!finalizer && label == null && cause == null) {
            return Optional.empty();
        }
        return Optional.of(new MigrationAction.EnsureMetadata(finalizer, label, cause));
    }

    /** A VMIM that names no cause: evacuations were caused by an eviction; anything else a person asked for. */
    static String defaultCause(VirtualMachineInstanceMigration vmim) {
        if (isEvacuation(vmim)) {
            return DrainboardAnnotations.CAUSE_API_EVICTION;
        }
        return DrainboardAnnotations.CAUSE_USER_REQUEST;
    }

    static boolean olderUnfinishedSibling(Input in) {
        VirtualMachineInstanceMigration self = in.vmim();
        return in.siblings().stream()
                .filter(m -> !Objects.equals(m.getMetadata().getUid(), self.getMetadata().getUid()))
                .filter(m -> !m.isFinal() && m.getMetadata().getDeletionTimestamp() == null && m.phase().isPresent())
                .anyMatch(m -> NEWEST_FIRST.compare(m, self) > 0);
    }

    public static boolean isEvacuation(VirtualMachineInstanceMigration vmim) {
        return hasAnnotation(vmim, KubeVirtAnnotations.EVACUATION_MIGRATION) || hasAnnotation(vmim, KubeVirtAnnotations.WORKLOAD_UPDATE_MIGRATION);
    }

    static boolean hasFinalizer(VirtualMachineInstanceMigration vmim) {
        return vmim.getMetadata().getFinalizers() != null
                && vmim.getMetadata().getFinalizers().contains(KubeVirtFinalizers.MIGRATION_JOB);
    }

    static boolean hasAnnotation(VirtualMachineInstanceMigration vmim, String key) {
        return vmim.getMetadata().getAnnotations() != null && vmim.getMetadata().getAnnotations().containsKey(key);
    }

    static final Comparator<VirtualMachineInstanceMigration> NEWEST_FIRST = Comparator
            .comparing((VirtualMachineInstanceMigration m) -> Objects.requireNonNullElse(m.getMetadata().getCreationTimestamp(), ""))
            .thenComparing(m -> Objects.requireNonNullElse(m.getMetadata().getName(), ""))
            .reversed();

    private static Optional<Pod> newest(List<Pod> pods) {
        return pods.stream().max(Comparator.comparing((Pod p) -> Objects.requireNonNullElse(p.getMetadata().getCreationTimestamp(), ""))
                .thenComparing(p -> p.getMetadata().getName()));
    }

    static Optional<Instant> unschedulableSince(Pod pod) {
        if (pod.getStatus() == null || pod.getStatus().getConditions() == null) {
            return Optional.empty();
        }
        for (PodCondition c : pod.getStatus().getConditions()) {
            if ("PodScheduled".equals(c.getType()) && "False".equals(c.getStatus()) && "Unschedulable".equals(c.getReason())) {
                return parse(c.getLastTransitionTime());
            }
        }
        return Optional.empty();
    }

    public static Optional<Instant> transitionTime(VirtualMachineInstanceMigration vmim, MigrationPhase phase) {
        List<PhaseTransitionTimestamp> stamps = vmim.getStatus() == null ? null : vmim.getStatus().getPhaseTransitionTimestamps();
        if (stamps == null) {
            return Optional.empty();
        }
        return stamps.stream().filter(s -> phase.value().equals(s.getPhase())).reduce((a, b) -> b)
                .flatMap(s -> parse(s.getPhaseTransitionTimestamp()));
    }

    /** A per-VMIM timeout annotation (real seconds) at the cluster's time scale, else the fallback. */
    private static Duration override(VirtualMachineInstanceMigration vmim, String annotation, Duration fallback,
                                     MigrationTimings timings) {
        String value = vmim.getMetadata().getAnnotations() == null ? null : vmim.getMetadata().getAnnotations().get(annotation);
        if (value == null) {
            return fallback;
        }
        try {
            return timings.scaled(Duration.ofSeconds(Long.parseLong(value.trim())));
        } catch (NumberFormatException e) {
            return fallback;
        }
    }

    static Optional<Instant> parse(String timestamp) {
        if (timestamp == null || timestamp.isEmpty()) {
            return Optional.empty();
        }
        try {
            return Optional.of(Instant.parse(timestamp));
        } catch (RuntimeException e) {
            return Optional.empty();
        }
    }

    private static final class Builder {
        MigrationPhase phase;
        final List<MigrationPhase> entered = new ArrayList<>();
        final List<MigrationAction> actions = new ArrayList<>();
        final List<Event> events = new ArrayList<>();
        Duration requeueAfter;
        boolean abortRequested;
        boolean waitingForCapacity;

        /** Failed, with the event; an evacuation takes the descheduler annotation off its source pod again. */
        Plan fail(String message, Input in, boolean evacuation) {
            phase = MigrationPhase.FAILED;
            requeueAfter = null;
            events.add(new Event(false, true, KubeVirtEventReasons.FAILED_MIGRATION, message));
            if (evacuation && in.sourcePod() != null && DeschedulerAnnotations.evictionInProgress(in.sourcePod())) {
                actions.add(new MigrationAction.SourcePodEvictionInProgress(in.sourcePod().getMetadata().getName(), false));
            }
            return build();
        }

        void enter(MigrationPhase next) {
            phase = next;
            entered.add(next);
        }

        Plan build() {
            List<MigrationPhase> path = new ArrayList<>(entered);
            if (phase != null && (path.isEmpty() || path.getLast() != phase)) {
                path.add(phase); // set directly (Failed, Succeeded …)
            }
            return new Plan(phase, List.copyOf(actions), List.copyOf(events), requeueAfter, abortRequested, waitingForCapacity,
                    List.copyOf(path));
        }
    }
}
