package dev.drainboard.ops;

import dev.drainboard.architecture.Pure;
import dev.drainboard.controller.migration.MigrationSlots;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A first estimate of how long a drain's live migrations take: each VMI's memory over the bandwidth its transfer gets
 * ({@code bandwidthPerMigration}, else the source node's link: {@code handler.MigrationSync#options}), started in
 * order as the migration controller's slots allow ({@link MigrationSlots.Limits}: per source node and per cluster).
 * Memory dirtied during the transfer, evictions, boots and the API's round trips are not counted: it is a floor.
 */
@Pure
public final class DrainEstimate {

    /** One migration: its source node, the bytes to copy and the bytes per second it gets. */
    public record Transfer(String node, long bytes, long bytesPerSecond) {
        double seconds() {
            return bytesPerSecond <= 0 ? 0 : (double) bytes / bytesPerSecond;
        }
    }

    /** When each node's last migration ends, and when the last of all ends, in seconds from the start. */
    public record Estimate(Map<String, Double> perNode, double total) {
        public Estimate {
            perNode = Map.copyOf(perNode);
        }

        public double forNode(String node) {
            return perNode.getOrDefault(node, 0.0);
        }
    }

    private DrainEstimate() {
    }

    public static Estimate of(List<Transfer> transfers, MigrationSlots.Limits limits) {
        List<Transfer> pending = new ArrayList<>(transfers);
        List<double[]> runningEnds = new ArrayList<>();
        List<String> runningNodes = new ArrayList<>();
        Map<String, Double> finish = new LinkedHashMap<>();
        double now = 0;
        while (!pending.isEmpty() || !runningEnds.isEmpty()) {
            for (var it = pending.iterator(); it.hasNext() && runningEnds.size() < limits.perCluster(); ) {
                Transfer t = it.next();
                long fromNode = runningNodes.stream().filter(t.node()::equals).count();
                if (fromNode < limits.perSourceNode()) {
                    it.remove();
                    runningEnds.add(new double[]{now + t.seconds()});
                    runningNodes.add(t.node());
                }
            }
            if (runningEnds.isEmpty()) {
                break; // limits of zero: nothing can ever start
            }
            double next = runningEnds.stream().mapToDouble(e -> e[0]).min().orElseThrow();
            now = next;
            for (int i = runningEnds.size() - 1; i >= 0; i--) {
                if (runningEnds.get(i)[0] <= next) {
                    finish.merge(runningNodes.get(i), next, Math::max);
                    runningEnds.remove(i);
                    runningNodes.remove(i);
                }
            }
        }
        return new Estimate(finish, finish.values().stream().mapToDouble(Double::doubleValue).max().orElse(0));
    }
}
