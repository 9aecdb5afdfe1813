package dev.drainboard.handler;

import dev.drainboard.hypervisor.Domain;
import dev.drainboard.hypervisor.DomainState;
import dev.drainboard.hypervisor.StopReason;
import dev.drainboard.kubevirt.DrainboardEvents;
import dev.drainboard.kubevirt.KubeVirtConditions;
import dev.drainboard.kubevirt.KubeVirtDefaults;
import dev.drainboard.kubevirt.KubeVirtEventReasons;
import dev.drainboard.kubevirt.KubeVirtMessages;
import dev.drainboard.kubevirt.api.Condition;
import dev.drainboard.kubevirt.api.VirtualMachineInstance;
import dev.drainboard.kubevirt.api.VmiPhase;
import dev.drainboard.kubevirt.config.ClusterConfig;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What the node handler does for one VMI and its domain on the VMI's node: the pure part of virt-handler's sync.
 *
 * <ul>
 *   <li>A Scheduled VMI without a domain gets one defined and booted; once the domain runs, the VMI is Running
 *       with {@code LiveMigratable} and {@code Ready=True}. (A Running VMI without a domain, e.g. loaded from a
 *       scenario, gets its domain booted too: the simulated node "was already running it".)</li>
 *   <li>A domain that goes off ends its VMI: Succeeded after a guest shutdown, Failed after a crash or a destroy
 *       (ACPI is on, so a destroyed guest did not shut down in time), unchanged after a migration away.</li>
 *   <li>A domain whose VMI is deleted, final or gone, or whose launcher got SIGTERM, is shut down gracefully (as
 *       KubeVirt's {@code docs/graceful-shutdown.md} describes): an ACPI shutdown (re-sent at most every 5 s), then destroyed when the grace period is over. The grace
 *       period is the VMI's {@code terminationGracePeriodSeconds}, else the one kept with the domain when it started
 *       (so a deleted VMI's still counts), else 30 s; 0 destroys at once. It runs from the first ACPI shutdown,
 *       which the domain keeps ({@link Domain#shutdownRequestedAt()}): whichever signal came first (deletion or
 *       SIGTERM), a second one, or a restarted handler, neither restarts nor extends it.</li>
 *   <li>Behind the feature gate {@code NodePressureEvictionLiveMigration} (docs/behaviour.md): a SIGTERM on a
 *       Running VMI that is not being deleted is a node-pressure eviction; {@link NodePressureEvacuation} decides
 *       whether to migrate it instead (mark it once for evacuation). Killed before the migration finished, the VMI fails with a warning that it was lost.</li>
 *   <li>A domain whose VMI is gone and which is off is undefined.</li>
 * </ul>
 */
public final class VmiSync {

    static final Duration MAX_RECHECK = Duration.ofSeconds(5);

    public enum DomainAction { NONE, START, SHUTDOWN, DESTROY, UNDEFINE }

    public record Event(boolean warning, String reason, String message) {
    }

    /**
     * Mark the VMI for evacuation off {@code node}, with cause {@code node-pressure eviction} and the
     * instant the kubelet is expected to kill its launcher.
     */
    public record Evacuation(String node, Instant expectedKill) {
    }

    /**
     * @param phase        the new phase, or null to leave it
     * @param conditions   the VMI's whole new condition list, or null to leave it
     * @param requeueAfter when to look again, or null
     * @param evacuation   mark the VMI for a node-pressure evacuation, or null
     * @param lostToNodePressure the value of {@code drainboard.dev/lost-to-node-pressure} to set, or null
     */
    public record Plan(DomainAction action, String phase, List<Condition> conditions, List<Event> events,
                       Duration requeueAfter, Evacuation evacuation, String lostToNodePressure) {

        static final Plan NOTHING = new Plan(DomainAction.NONE, null, null, List.of(), null);

        public Plan(DomainAction action, String phase, List<Condition> conditions, List<Event> events, Duration requeueAfter) {
            this(action, phase, conditions, events, requeueAfter, null, null);
        }

        public boolean changesStatus() {
            return phase != null || conditions != null || evacuation != null || lostToNodePressure != null;
        }
    }

    private VmiSync() {
    }

    /**
     * @param vmi            the VMI, or null when it is gone (or the domain belongs to an older VMI of that name)
     * @param domain         the VMI's domain on its node, or null when none is defined
     * @param liveMigratable the condition {@link LiveMigratability} computed for the VMI (ignored without one)
     */
    public static Plan decide(VirtualMachineInstance vmi, Domain domain, Condition liveMigratable, Instant now) {
        return decide(vmi, domain, liveMigratable, ClusterConfig.defaults(), Map.of(), now);
    }

    /**
     * @param config          the cluster configuration in force (the node-pressure feature gate, eviction strategies)
     * @param nodeAnnotations the annotations of the VMI's node (the simulated kubelet's eviction configuration)
     */
    public static Plan decide(VirtualMachineInstance vmi, Domain domain, Condition liveMigratable, ClusterConfig config,
                              Map<String, String> nodeAnnotations, Instant now) {
        if (domain != null && domain.incoming()) {
            return Plan.NOTHING; // a migration target: the migration's business
        }
        if (vmi == null) {
            if (domain == null) {
                return Plan.NOTHING;
            }
            return domain.isAlive()
                    ? shutDown(domain, domain.gracePeriodSeconds(), config.timeScale(), now, false)
                    : new Plan(DomainAction.UNDEFINE, null, null, List.of(), null);
        }
        VmiPhase phase = vmi.phase().orElse(null);
        boolean deleting = vmi.getMetadata().getDeletionTimestamp() != null;
        boolean finished = vmi.isFinal();
        if (domain != null && domain.isAlive() && (deleting || finished || domain.gracefulShutdownRequested())) {
            boolean migratable = liveMigratable != null ? KubeVirtConditions.STATUS_TRUE.equals(liveMigratable.getStatus()) : vmi.isMigratable();
            if (NodePressureEvacuation.shouldEvacuate(config, vmi, domain, migratable)) {
                return evacuate(vmi, domain, phase, liveMigratable, config, nodeAnnotations, now);
            }
            return shutDown(domain, gracePeriodSeconds(vmi, domain), config.timeScale(), now, true);
        }
        if (domain == null) {
            if (deleting || finished || (phase != VmiPhase.SCHEDULED && phase != VmiPhase.RUNNING)) {
                return Plan.NOTHING;
            }
            return new Plan(DomainAction.START, null, null,
                    List.of(new Event(false, KubeVirtEventReasons.CREATED, KubeVirtMessages.VMI_DEFINED)), null);
        }
        return switch (domain.state()) {
            case NONE, STARTING -> Plan.NOTHING; // its next change brings the VMI back
            case RUNNING, SHUTTING_DOWN -> running(vmi, phase, liveMigratable, now);
            case SHUTOFF, CRASHED -> stopped(vmi, phase, domain, now);
        };
    }

    private static Plan running(VirtualMachineInstance vmi, VmiPhase phase, Condition liveMigratable, Instant now) {
        if (phase != VmiPhase.SCHEDULED && phase != VmiPhase.RUNNING) {
            return Plan.NOTHING;
        }
        List<Condition> current = conditionsOf(vmi);
        List<Condition> desired = new ArrayList<>(current);
        if (liveMigratable != null) {
            put(desired, liveMigratable, now);
        }
        // While the launcher pod terminates the VMI controller reports Ready=False (PodTerminating): leave it.
        boolean podTerminating = dev.drainboard.kubevirt.api.Conditions.find(current, KubeVirtConditions.READY)
                .map(c -> KubeVirtConditions.STATUS_FALSE.equals(c.getStatus()) && KubeVirtConditions.REASON_POD_TERMINATING.equals(c.getReason()))
                .orElse(false);
        if (!podTerminating) {
            put(desired, new Condition(KubeVirtConditions.READY, KubeVirtConditions.STATUS_TRUE, null, null), now);
        }
        boolean starts = phase == VmiPhase.SCHEDULED;
        return new Plan(DomainAction.NONE, starts ? VmiPhase.RUNNING.value() : null,
                sameConditions(current, desired) ? null : desired,
                starts ? List.of(new Event(false, KubeVirtEventReasons.STARTED, KubeVirtMessages.VMI_STARTED)) : List.of(), null);
    }

    /**
     * A node-pressure eviction: the launcher's SIGTERM is ignored; the VMI is marked for evacuation off its node once
     * (then it is kept up as any running VMI while the evacuation controller migrates it).
     */
    private static Plan evacuate(VirtualMachineInstance vmi, Domain domain, VmiPhase phase, Condition liveMigratable,
                                 ClusterConfig config, Map<String, String> nodeAnnotations, Instant now) {
        String node = domain.nodeName();
        if (node.equals(vmi.getStatus().getEvacuationNodeName()) && NodePressureEvacuation.markedForNodePressure(vmi)) {
            return running(vmi, phase, liveMigratable, now);
        }
        Instant kill = NodePressureEvacuation.expectedKill(vmi, domain, nodeAnnotations, config.timeScale(), now);
        return new Plan(DomainAction.NONE, null, null,
                List.of(new Event(false, DrainboardEvents.NODE_PRESSURE_EVACUATION_REASON,
                        DrainboardEvents.NODE_PRESSURE_EVACUATION_MESSAGE.formatted(node, kill.truncatedTo(ChronoUnit.SECONDS)))),
                null, new Evacuation(node, kill), null);
    }

    private static Plan stopped(VirtualMachineInstance vmi, VmiPhase phase, Domain domain, Instant now) {
        if (phase != VmiPhase.SCHEDULED && phase != VmiPhase.RUNNING) {
            return Plan.NOTHING;
        }
        VmiPhase end = switch (domain.stopReason()) {
            case SHUTDOWN -> VmiPhase.SUCCEEDED;
            case CRASHED, DESTROYED -> VmiPhase.FAILED;
            case MIGRATED, NONE -> null;
        };
        if (end == null) {
            return Plan.NOTHING;
        }
        List<Condition> current = conditionsOf(vmi);
        List<Condition> desired = new ArrayList<>(current);
        put(desired, new Condition(KubeVirtConditions.READY, KubeVirtConditions.STATUS_FALSE, null, null), now);
        List<Event> events = switch (domain.stopReason()) {
            case SHUTDOWN -> List.of(new Event(false, KubeVirtEventReasons.STOPPED, KubeVirtMessages.VMI_SHUT_DOWN));
            case CRASHED -> List.of(new Event(true, KubeVirtEventReasons.STOPPED, KubeVirtMessages.VMI_CRASHED));
            default -> List.of();
        };
        // Killed while a node-pressure evacuation was still moving it: the VM is lost, and the operator must know.
        String lost = null;
        if (domain.stopReason() == StopReason.DESTROYED && domain.nodeName().equals(vmi.getStatus().getEvacuationNodeName())
                && NodePressureEvacuation.markedForNodePressure(vmi)) {
            lost = "killed on node " + domain.nodeName() + " at " + now.truncatedTo(ChronoUnit.SECONDS)
                    + " before its live migration finished";
            events = List.of(new Event(true, DrainboardEvents.LOST_TO_NODE_PRESSURE_REASON, DrainboardEvents.LOST_TO_NODE_PRESSURE_MESSAGE.formatted(domain.nodeName())));
        }
        return new Plan(DomainAction.NONE, end.value(), sameConditions(current, desired) ? null : desired, events, null,
                null, lost);
    }

    /**
     * Graceful shutdown: ACPI first (with an event on the first attempt only), then destroy once the grace period,
     * counted from the first attempt, is over. A grace period of 0 destroys at once. The grace period is real seconds,
     * divided by the cluster's time scale.
     */
    private static Plan shutDown(Domain domain, long graceSeconds, double timeScale, Instant now, boolean withEvents) {
        Instant first = domain.shutdownRequestedAt();
        Duration grace = ClusterConfig.scaled(Duration.ofSeconds(Math.max(0, graceSeconds)), timeScale);
        Duration left = first == null ? grace : grace.minus(Duration.between(first, now));
        if (grace.isZero() || left.isZero() || left.isNegative()) {
            return new Plan(DomainAction.DESTROY, null, null,
                    withEvents ? List.of(new Event(false, KubeVirtEventReasons.DELETED, KubeVirtMessages.VMI_STOPPING)) : List.of(), null);
        }
        Duration recheck = left.compareTo(MAX_RECHECK) < 0 ? left : MAX_RECHECK;
        if (first == null) {
            return new Plan(DomainAction.SHUTDOWN, null, null,
                    withEvents ? List.of(new Event(false, KubeVirtEventReasons.SHUTTING_DOWN, KubeVirtMessages.SIGNALED_GRACEFUL_SHUTDOWN)) : List.of(),
                    recheck);
        }
        // A guest already shutting down needs no new signal; one that missed it gets it again.
        DomainAction action = domain.state() == DomainState.SHUTTING_DOWN ? DomainAction.NONE : DomainAction.SHUTDOWN;
        return new Plan(action, null, null, List.of(), recheck);
    }

    /** The VMI's grace period, falling back to the one kept with the domain, then to KubeVirt's 30 s. */
    static long gracePeriodSeconds(VirtualMachineInstance vmi, Domain domain) {
        if (vmi != null && vmi.getSpec() != null && vmi.getSpec().getTerminationGracePeriodSeconds() != null) {
            return vmi.getSpec().getTerminationGracePeriodSeconds();
        }
        return domain != null ? domain.gracePeriodSeconds() : KubeVirtDefaults.GRACE_PERIOD_SECONDS;
    }

    private static List<Condition> conditionsOf(VirtualMachineInstance vmi) {
        return vmi.getStatus() == null || vmi.getStatus().getConditions() == null ? List.of() : vmi.getStatus().getConditions();
    }

    /** Sets a condition; its transition time moves only when its status does. */
    private static void put(List<Condition> conditions, Condition wanted, Instant now) {
        String stamp = now.truncatedTo(ChronoUnit.SECONDS).toString();
        for (int i = 0; i < conditions.size(); i++) {
            Condition c = conditions.get(i);
            if (Objects.equals(c.getType(), wanted.getType())) {
                if (same(c, wanted)) {
                    return;
                }
                Condition updated = new Condition(wanted.getType(), wanted.getStatus(), wanted.getReason(), wanted.getMessage());
                updated.setLastProbeTime(c.getLastProbeTime());
                updated.setLastTransitionTime(Objects.equals(c.getStatus(), wanted.getStatus()) && c.getLastTransitionTime() != null
                        ? c.getLastTransitionTime() : stamp);
                conditions.set(i, updated);
                return;
            }
        }
        Condition added = new Condition(wanted.getType(), wanted.getStatus(), wanted.getReason(), wanted.getMessage());
        added.setLastTransitionTime(stamp);
        conditions.add(added);
    }

    private static boolean same(Condition a, Condition b) {
        return Objects.equals(a.getStatus(), b.getStatus()) && Objects.equals(a.getReason(), b.getReason())
                && Objects.equals(a.getMessage(), b.getMessage());
    }

    private static boolean sameConditions(List<Condition> a, List<Condition> b) {
        if (a.size() != b.size()) {
            return false;
        }
        for (int i = 0; i < a.size(); i++) {
            if (a.get(i) != b.get(i)) {
                return false;
            }
        }
        return true;
    }
}
