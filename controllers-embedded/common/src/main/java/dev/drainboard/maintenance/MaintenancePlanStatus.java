package dev.drainboard.maintenance;

import com.fasterxml.jackson.annotation.JsonInclude;

import java.util.List;

/**
 * The plan as worked out when it started, and how it goes. Times are RFC 3339 as Kubernetes writes them; durations are
 * in real seconds: on a time-scaled embedded cluster what was measured times {@code timeScale}.
 *
 * @param timeScale      the embedded cluster's time scale (its KubeVirt CR's {@code drainboard.dev/time-scale}), 1 on a real cluster
 * @param progress       nodes done / nodes in the plan, for {@code kubectl get mp}
 * @param migrationsMade migrations the plan created so far
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record MaintenancePlanStatus(Phase phase, String message, Double timeScale, String progress, Plan plan,
                                    List<NodeStatus> nodes, Integer migrationsMade, String startedAt, String finishedAt) {

    public MaintenancePlanStatus {
        nodes = nodes == null ? List.of() : List.copyOf(nodes);
    }

    public enum Phase {
        Planning, Running, Paused, Aborting, Aborted, Succeeded, Failed;

        public boolean finished() {
            return this == Aborted || this == Succeeded || this == Failed;
        }
    }

    /**
     * What the planner decided ({@code MaintenancePlanDecision}).
     *
     * @param batches           the nodes drained together, in order
     * @param migrations        how many live migrations it makes
     * @param seconds           how long it takes in all (real seconds; unknown external waits count as zero)
     * @param vms               each VM that moves, with its hops: its node now, then each node it is sent to
     * @param movedMoreThanOnce the VMs that must move again, and why
     * @param stranded          the VMs that cannot move (and what happens to their node), and why
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Plan(List<List<String>> batches, Integer migrations, Double seconds, List<VmHops> vms,
                       List<VmNote> movedMoreThanOnce, List<VmNote> stranded) {

        public Plan {
            batches = batches == null ? List.of() : batches.stream().map(List::copyOf).toList();
            vms = vms == null ? List.of() : List.copyOf(vms);
            movedMoreThanOnce = movedMoreThanOnce == null ? List.of() : List.copyOf(movedMoreThanOnce);
            stranded = stranded == null ? List.of() : List.copyOf(stranded);
        }
    }

    /** A VMI's planned hops: {@code [now on, first target, …]}. */
    public record VmHops(String namespace, String name, List<String> hops) {
        public VmHops {
            hops = hops == null ? List.of() : List.copyOf(hops);
        }
    }

    /** A VMI (on {@code node}) and why it is listed. */
    public record VmNote(String namespace, String name, String node, String reason) {
    }

    /**
     * One node of the plan.
     *
     * @param batch                 its batch, from 0
     * @param cordonedByPlan        the plan cordoned it (so only then does it uncordon it)
     * @param predictedStartSeconds when its batch starts, from the plan's start (real seconds)
     * @param predictedSeconds      how long its drain and after-drain step take (real seconds)
     * @param actualSeconds         how long they took (real seconds: measured × time scale)
     * @param drainedAt             when its last VM had left
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record NodeStatus(String name, Integer batch, NodePhase phase, Boolean cordonedByPlan,
                             Double predictedStartSeconds, Double predictedSeconds, Double actualSeconds,
                             String startedAt, String drainedAt, String finishedAt, Integer migrationsPredicted,
                             Integer migrationsMade, String message) {

        public NodePhase phaseOrWaiting() {
            return phase == null ? NodePhase.Waiting : phase;
        }

        public boolean cordoned() {
            return Boolean.TRUE.equals(cordonedByPlan);
        }
    }

    public enum NodePhase {
        Waiting, Draining, AfterDrain, Uncordoning, Done, Failed, Skipped;

        /** Its turn is over (nothing more happens to it). */
        public boolean over() {
            return this == Done || this == Failed || this == Skipped;
        }
    }
}
