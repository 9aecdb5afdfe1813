package dev.drainboard.ops;

import dev.drainboard.architecture.Pure;
import dev.drainboard.controller.migration.MigrationSlots;
import dev.drainboard.hypervisor.MigrationOptions;
import dev.drainboard.kubevirt.config.MigrationConfig;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * How long a drain's live migrations take: each VMI's transfer as the node handler sets it up
 * ({@code handler.MigrationSync#options}: {@code bandwidthPerMigration}, else the source node's link; the guest's
 * dirty rate; the allowed downtime), plus what the cluster's recent migrations showed a migration costs beyond its
 * transfer ({@link MigrationOverhead}: target pod, hand-over), started in order as the migration controller's slots
 * allow ({@link MigrationSlots#turns}: per source node and per cluster, as the priority queue orders them; without
 * the queue the evacuation's throttle lets them start in the same order). Evictions of other pods, guest shutdowns and
 * boots are not counted.
 */
@Pure
public final class DrainEstimate {

    /** The downtime KubeVirt allows by default. */
    private static final Duration DEFAULT_MAX_DOWNTIME = Duration.ofMillis(MigrationConfig.DEFAULT_MAX_DOWNTIME_MS);

    /**
     * One migration: its source node, the bytes to copy, the bytes per second it gets, what the guest dirties per
     * second meanwhile, the downtime allowed at the switch-over, and the completion timeout that ends a transfer that
     * does not converge (zero: none).
     */
    public record Transfer(String node, long bytes, long bytesPerSecond, long dirtyBytesPerSecond, Duration maxDowntime,
                           Duration completionTimeout) {

        public Transfer(String node, long bytes, long bytesPerSecond) {
            this(node, bytes, bytesPerSecond, 0, DEFAULT_MAX_DOWNTIME, Duration.ZERO);
        }

        /** The transfer the node handler would run with these options. */
        public static Transfer of(String node, long bytes, MigrationOptions options) {
            return new Transfer(node, bytes, options.bandwidthBytesPerSecond(), options.dirtyRateBytesPerSecond(),
                    options.maxDowntime(), options.completionTimeout());
        }

        /**
         * The pre-copy passes ({@link #preCopySeconds}); a guest that never converges runs until its completion
         * timeout (KubeVirt then aborts, or switches to post-copy where allowed). Zero when the bandwidth is unknown.
         */
        public double seconds() {
            if (bytesPerSecond <= 0) {
                return 0;
            }
            double preCopy = preCopySeconds(bytes, bytesPerSecond, dirtyBytesPerSecond, maxDowntime);
            double timeout = completionTimeout.toMillis() / 1000.0;
            return Double.isInfinite(preCopy) && timeout > 0 ? timeout : preCopy;
        }
    }

    /**
     * When each node's last migration ends, and when the last of all ends, in seconds from the start; the overhead
     * per migration that was counted, and from how many observed migrations it came (0: none observed, the overhead
     * is 0 and the estimate a floor).
     */
    public record Estimate(Map<String, Double> perNode, double total, double overheadSeconds, int overheadSamples) {
        public Estimate {
            perNode = Map.copyOf(perNode);
        }

        public Estimate(Map<String, Double> perNode, double total) {
            this(perNode, total, 0, 0);
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
        return of(transfers, limits, MigrationOverhead.NONE);
    }

    /** The transfers through the slots, each taking its transfer time plus {@code overhead}. */
    public static Estimate of(List<Transfer> transfers, MigrationSlots.Limits limits, MigrationOverhead.Observed overhead) {
        double perMigration = overhead.secondsPerMigration();
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
                    double seconds = t.seconds();
                    runningEnds.add(new double[]{now + (seconds > 0 ? seconds + perMigration : 0)});
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
        return new Estimate(finish, finish.values().stream().mapToDouble(Double::doubleValue).max().orElse(0),
                perMigration, overhead.samples());
    }

    /**
     * The pre-copy model of a transfer (the simulated hypervisor's, taken continuously; libvirt's pre-copy in
     * outline): the first pass sends the memory M at the bandwidth B while the guest dirties D per second; each next
     * pass sends what the previous one left dirty; the transfer ends once what is left fits in the allowed downtime.
     * With D = 0 that is M / B; infinite when the passes never shrink enough.
     */
    public static double preCopySeconds(long memoryBytes, long bandwidthBytesPerSecond, long dirtyRateBytesPerSecond,
                                        Duration maxDowntime) {
        if (memoryBytes <= 0) {
            return 0;
        }
        if (bandwidthBytesPerSecond <= 0) {
            return Double.POSITIVE_INFINITY;
        }
        double bandwidth = bandwidthBytesPerSecond;
        double toSend = memoryBytes;
        double seconds = 0;
        while (true) {
            double pass = toSend / bandwidth;
            seconds += pass;
            // What the guest dirtied meanwhile, at most all of its memory.
            double dirtied = Math.min(memoryBytes, dirtyRateBytesPerSecond * pass);
            if (dirtied * 1000.0 / bandwidth <= maxDowntime.toMillis()) {
                return seconds;
            }
            if (dirtied >= toSend) {
                return Double.POSITIVE_INFINITY; // the guest dirties as fast as the link sends
            }
            toSend = dirtied;
        }
    }
}
