package dev.drainboard.ops;

import dev.drainboard.architecture.Pure;
import dev.drainboard.controller.migration.MigrationSlots;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A first estimate of how long a drain's live migrations take: each VMI's memory over the bandwidth its transfer gets
 * ({@code bandwidthPerMigration}, else the source node's link: {@code handler.MigrationSync#options}), started in
 * order as the migration controller's slots allow ({@link MigrationSlots#turns}: per source node and per cluster, as
 * the priority queue orders them; without the queue the evacuation's throttle lets them start in the same order).
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

    /**
     * Starts the transfers in the order given (a drain's migrations share one priority, so the queue takes them by
     * age, and they are created in name order) whenever {@link MigrationSlots#turns} lets them start: the rule the
     * migration controller applies, one code for both.
     */
    public static Estimate of(List<Transfer> transfers, MigrationSlots.Limits limits) {
        Map<String, Transfer> pending = new LinkedHashMap<>();
        for (int i = 0; i < transfers.size(); i++) {
            pending.put("%08d".formatted(i), transfers.get(i));
        }
        List<double[]> runningEnds = new ArrayList<>();
        List<String> runningNodes = new ArrayList<>();
        Map<String, Double> finish = new LinkedHashMap<>();
        double now = 0;
        while (!pending.isEmpty() || !runningEnds.isEmpty()) {
            List<MigrationSlots.Queued> queued = pending.entrySet().stream()
                    .map(e -> new MigrationSlots.Queued(e.getKey(), 0, e.getKey(), e.getValue().node())).toList();
            Map<String, Integer> fromNode = new HashMap<>();
            runningNodes.forEach(n -> fromNode.merge(n, 1, Integer::sum));
            for (MigrationSlots.Turn turn : MigrationSlots.turns(queued, runningEnds.size(), fromNode, limits)) {
                if (turn.runs()) {
                    Transfer t = pending.remove(turn.vmim().key());
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
