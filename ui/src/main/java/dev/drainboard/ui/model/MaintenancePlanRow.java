package dev.drainboard.ui.model;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
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
 * @param batches      the planner's order: node names, batch by batch
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
