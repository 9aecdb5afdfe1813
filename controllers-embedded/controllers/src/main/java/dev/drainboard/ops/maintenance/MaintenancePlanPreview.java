package dev.drainboard.ops.maintenance;

import dev.drainboard.maintenance.MaintenancePlanStatus;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A maintenance plan as {@link MaintenancePlanDecision} works it out: the same facts as a plan's {@code status.plan}
 * and, per node, when its batch starts, how long it takes and which migrations it makes.
 *
 * @param batches           the nodes drained together, in order (skipped nodes included, at their turn)
 * @param nodes             each node of the plan, in order
 * @param vms               each VMI that moves: its hops {@code [now on, target, …]}
 * @param migrations        how many live migrations the plan makes
 * @param seconds           predicted total (real seconds), batch after batch
 * @param movedMoreThanOnce VMIs that move again, and why
 * @param stranded          VMIs that cannot move, and why (their node is skipped: not drained)
 */
public record MaintenancePlanPreview(List<List<String>> batches, List<NodePlan> nodes, List<VmPlan> vms, int migrations,
                                     double seconds, List<MaintenancePlanStatus.VmNote> movedMoreThanOnce,
                                     List<MaintenancePlanStatus.VmNote> stranded) {

    public MaintenancePlanPreview {
        batches = batches.stream().map(List::copyOf).toList();
        nodes = List.copyOf(nodes);
        vms = List.copyOf(vms);
        movedMoreThanOnce = List.copyOf(movedMoreThanOnce);
        stranded = List.copyOf(stranded);
    }

    /** One migration: a VMI from a node to a node. */
    public record Migration(String namespace, String vmi, String from, String to) {
    }

    /**
     * One node.
     *
     * @param skipped               why the plan leaves it as it is (a VMI on it cannot move), or null
     * @param predictedStartSeconds when its batch starts (real seconds from the plan's start)
     * @param predictedSeconds      how long its drain and after-drain step take
     * @param migrations            the migrations off it at its turn, with their targets
     * @param evictions             pods other than migrating VMIs' launchers that the drain evicts
     */
    public record NodePlan(String name, int batch, String skipped, double predictedStartSeconds, double predictedSeconds,
                           List<Migration> migrations, int evictions) {
        public NodePlan {
            migrations = List.copyOf(migrations);
        }

        public boolean isSkipped() {
            return skipped != null;
        }

        /** VMI ({@code namespace/name}) → the node it is sent to. */
        public Map<String, String> targets() {
            Map<String, String> out = new LinkedHashMap<>();
            migrations.forEach(m -> out.put(m.namespace() + "/" + m.vmi(), m.to()));
            return out;
        }
    }

    /** A VMI's hops: the node it is on now, then each node it is sent to. */
    public record VmPlan(String namespace, String name, List<String> hops) {
        public VmPlan {
            hops = List.copyOf(hops);
        }

        public int moves() {
            return Math.max(0, hops.size() - 1);
        }
    }

    /** Whether anything would be stranded (the CLI's exit 3). */
    public boolean strands() {
        return !stranded.isEmpty();
    }

    public Optional<NodePlan> node(String name) {
        return nodes.stream().filter(n -> n.name().equals(name)).findFirst();
    }

    /** As a plan's {@code status.plan}. */
    public MaintenancePlanStatus.Plan toStatus() {
        return new MaintenancePlanStatus.Plan(batches, migrations, seconds,
                vms.stream().map(v -> new MaintenancePlanStatus.VmHops(v.namespace(), v.name(), v.hops())).toList(),
                movedMoreThanOnce, stranded);
    }
}
