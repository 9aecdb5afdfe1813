package dev.drainboard.ui.model;

import dev.drainboard.maintenance.MaintenancePlan;
import dev.drainboard.maintenance.MaintenancePlanSpec;
import dev.drainboard.maintenance.MaintenancePlanStatus;
import dev.drainboard.ops.maintenance.MaintenancePlanPreview;

import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One maintenance plan as the Maintenance view shows it: a plan in the cluster (a {@code maintenanceplans.drainboard.dev}
 * object, its status) or the planner's preview of one not yet created. The view never sees the API object.
 * Predicted figures are real-time seconds; actual times are the cluster's clock, turned into real time with
 * {@code timeScale} (an embedded cluster started with {@code --time-scale N} runs N times faster).
 *
 * @param name         the plan's name; empty for a preview
 * @param phase        Planning, Running, Paused, Aborting, Aborted, Succeeded, Failed; "Preview" for a preview
 * @param action       spec.action: Run, Pause or Abort
 * @param afterDrain   spec.afterDrain as the operator reads it: "none", "pause 10m", "wait for annotation K"
 * @param batches      the planner's order: node names, batch by batch (batches are numbered from 1 here)
 * @param nodes        per node, in the planner's order
 * @param moves        VMs the plan migrates, with their hops; those that move more than once say why
 * @param stranded     VMs the plan cannot place, with why
 * @param startedAt    when the plan started running; null before
 * @param finishedAt   when it ended; null while it has not
 */
public record MaintenancePlanRow(String name, String phase, String message, String action, List<String> specNodes,
                                 String selector, int maxUnavailable, String afterDrain, double timeScale,
                                 List<List<String>> batches, List<NodeLane> nodes, List<VmMoves> moves,
                                 List<StrandedVm> stranded, int migrationsPredicted, int migrationsMade,
                                 double predictedSeconds, Instant created, Instant startedAt, Instant finishedAt) {

    public static final String PREVIEW = "Preview";
    private static final Set<String> ENDED = Set.of("Aborted", "Succeeded", "Failed");

    /**
     * One node of the plan.
     *
     * @param predictedStartSeconds from the plan's start, real time
     * @param phase                 Waiting, Draining, AfterDrain, Uncordoning, Done, Failed, Skipped
     */
    public record NodeLane(String name, int batch, String phase, double predictedStartSeconds, double predictedSeconds,
                           Instant startedAt, Instant drainedAt, Instant finishedAt, int migrationsPredicted,
                           int migrationsMade, boolean cordonedByPlan, String message) {
        public NodeLane {
            phase = phase == null ? "Waiting" : phase;
            message = message == null ? "" : message;
        }
    }

    /**
     * A VM the plan moves.
     *
     * @param vm   namespace/name
     * @param hops the nodes it runs on, in order: where it is, then each node the plan moves it to
     * @param why  why it moves more than once; empty when it moves once
     */
    public record VmMoves(String vm, List<String> hops, String why) {
        public VmMoves {
            hops = List.copyOf(hops);
            why = why == null ? "" : why;
        }

        public int times() {
            return Math.max(0, hops.size() - 1);
        }
    }

    /** A VM the plan cannot place, and why (the placement check's words). */
    public record StrandedVm(String vm, String why) {
    }

    public MaintenancePlanRow {
        name = name == null ? "" : name;
        phase = phase == null || phase.isEmpty() ? "Planning" : phase;
        message = message == null ? "" : message;
        action = action == null || action.isEmpty() ? "Run" : action;
        specNodes = List.copyOf(specNodes);
        selector = selector == null ? "" : selector;
        afterDrain = afterDrain == null ? "none" : afterDrain;
        timeScale = timeScale > 0 ? timeScale : 1;
        batches = batches.stream().map(List::copyOf).toList();
        nodes = List.copyOf(nodes);
        moves = List.copyOf(moves);
        stranded = List.copyOf(stranded);
    }

    /** A plan in the cluster, as its status tells it (batches numbered from 1, the status counts from 0). */
    public static MaintenancePlanRow of(MaintenancePlan plan) {
        MaintenancePlanSpec spec = plan.getSpec() != null ? plan.getSpec() : new MaintenancePlanSpec(null, null, null, null, null);
        MaintenancePlanStatus status = plan.getStatus() != null ? plan.getStatus()
                : new MaintenancePlanStatus(null, null, null, null, null, null, null, null, null);
        MaintenancePlanStatus.Plan p = status.plan() != null ? status.plan()
                : new MaintenancePlanStatus.Plan(null, null, null, null, null, null);
        Map<String, String> why = new HashMap<>();
        p.movedMoreThanOnce().forEach(n -> why.put(n.namespace() + "/" + n.name(), n.reason()));
        List<NodeLane> lanes = new ArrayList<>();
        for (MaintenancePlanStatus.NodeStatus n : status.nodes()) {
            lanes.add(new NodeLane(n.name(), (n.batch() == null ? 0 : n.batch()) + 1, n.phaseOrWaiting().name(),
                    orZero(n.predictedStartSeconds()), orZero(n.predictedSeconds()), instant(n.startedAt()),
                    instant(n.drainedAt()), instant(n.finishedAt()), n.migrationsPredicted() == null ? 0 : n.migrationsPredicted(),
                    n.migrationsMade() == null ? 0 : n.migrationsMade(), n.cordoned(), n.message()));
        }
        if (lanes.isEmpty()) { // not yet started: the plan's order without times
            for (int b = 0; b < p.batches().size(); b++) {
                for (String node : p.batches().get(b)) {
                    lanes.add(new NodeLane(node, b + 1, "Waiting", 0, 0, null, null, null, 0, 0, false, ""));
                }
            }
        }
        return new MaintenancePlanRow(plan.name(), plan.phase().name(), status.message(), spec.actionOrRun().name(),
                spec.nodes() == null ? List.of() : spec.nodes(), spec.nodeSelector(), spec.maxUnavailableOrDefault(),
                afterDrainText(spec.afterDrainOrNone()), status.timeScale() == null ? 1 : status.timeScale(), p.batches(),
                lanes, p.vms().stream().map(v -> new VmMoves(v.namespace() + "/" + v.name(), v.hops(),
                        why.get(v.namespace() + "/" + v.name()))).toList(),
                p.stranded().stream().map(MaintenancePlanRow::stranded).toList(),
                p.migrations() == null ? 0 : p.migrations(), status.migrationsMade() == null ? 0 : status.migrationsMade(),
                orZero(p.seconds()), instant(plan.getMetadata() == null ? null : plan.getMetadata().getCreationTimestamp()),
                instant(status.startedAt()), instant(status.finishedAt()));
    }

    /** The planner's answer for a plan not yet created (phase {@value #PREVIEW}; skipped nodes say why). */
    public static MaintenancePlanRow ofPreview(MaintenancePlanPreview preview, MaintenanceRequest request) {
        Map<String, String> why = new HashMap<>();
        preview.movedMoreThanOnce().forEach(n -> why.put(n.namespace() + "/" + n.name(), n.reason()));
        List<NodeLane> lanes = preview.nodes().stream().map(n -> new NodeLane(n.name(), n.batch() + 1,
                n.isSkipped() ? "Skipped" : "Waiting", n.predictedStartSeconds(), n.predictedSeconds(), null, null, null,
                n.migrations().size(), 0, false, n.isSkipped() ? n.skipped() : "")).toList();
        return new MaintenancePlanRow("", PREVIEW, "", "Run", request.nodes(), request.selector(), request.maxUnavailable(),
                request.afterDrainText(), 1, preview.batches(), lanes,
                preview.vms().stream().map(v -> new VmMoves(v.namespace() + "/" + v.name(), v.hops(),
                        why.get(v.namespace() + "/" + v.name()))).toList(),
                preview.stranded().stream().map(MaintenancePlanRow::stranded).toList(), preview.migrations(), 0,
                preview.seconds(), null, null, null);
    }

    private static StrandedVm stranded(MaintenancePlanStatus.VmNote n) {
        return new StrandedVm(n.namespace() + "/" + n.name(), (n.node() == null || n.node().isEmpty() ? "" : "on " + n.node() + ": ")
                + (n.reason() == null ? "" : n.reason()));
    }

    static String afterDrainText(MaintenancePlanSpec.AfterDrain a) {
        return switch (a.typeOrNone()) {
            case Pause -> "pause " + a.pause();
            case WaitForAnnotation -> "wait for annotation " + a.annotation();
            case None -> "none";
        };
    }

    private static double orZero(Double d) {
        return d == null ? 0 : d;
    }

    private static Instant instant(String t) {
        if (t == null || t.isEmpty()) {
            return null;
        }
        try {
            return Instant.parse(t);
        } catch (DateTimeParseException e) {
            return null;
        }
    }

    public boolean preview() {
        return PREVIEW.equals(phase);
    }

    /** Ended: Succeeded, Aborted or Failed; nothing more will happen to it. */
    public boolean ended() {
        return ENDED.contains(phase);
    }

    public int nodesDone() {
        return (int) nodes.stream().filter(n -> "Done".equals(n.phase())).count();
    }

    /** VMs the plan moves more than once. */
    public List<VmMoves> movedTwiceOrMore() {
        return moves.stream().filter(m -> m.times() > 1).toList();
    }

    /** Real seconds from the plan's start to {@code t} (the cluster's clock times the time scale); null before it started. */
    public Double realSecondsAt(Instant t) {
        if (startedAt == null || t == null) {
            return null;
        }
        return Duration.between(startedAt, t).toMillis() / 1000.0 * timeScale;
    }

    /** Real seconds the plan has taken (to its end, else to {@code now}); null before it started. */
    public Double actualSeconds(Instant now) {
        return realSecondsAt(finishedAt != null ? finishedAt : now);
    }
}
