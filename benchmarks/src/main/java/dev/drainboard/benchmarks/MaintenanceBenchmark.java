package dev.drainboard.benchmarks;

import dev.drainboard.kubevirt.api.MigrationPhase;
import dev.drainboard.kubevirt.api.VirtualMachineInstanceMigration;
import dev.drainboard.maintenance.MaintenancePlan;
import dev.drainboard.maintenance.MaintenancePlanSpec;
import dev.drainboard.maintenance.MaintenancePlanStatus;
import dev.drainboard.ops.DrainOptions;
import dev.drainboard.ops.DrainResult;
import dev.drainboard.ops.maintenance.MaintenanceOps;
import dev.drainboard.ops.maintenance.MaintenancePlanPreview;
import dev.drainboard.units.Quantities;

import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import static dev.drainboard.benchmarks.DrainBenchmark.intArg;
import static dev.drainboard.benchmarks.DrainBenchmark.stringArg;

/**
 * A rolling maintenance of a whole cluster ({@code --nodes} nodes of {@code --per-node} LiveMigrate VMIs, issue 20),
 * twice on fresh embedded clusters with Drainboard's control plane:
 * <ol>
 *   <li>by a MaintenancePlan ({@code maxUnavailable} {@code --max-unavailable}) executed by the controllers: the
 *       planner's prediction (migrations, VMs moved more than once, total time) against what happened; the share of
 *       the usable migration slots ({@code min(parallelMigrationsPerCluster, maxUnavailable ×
 *       parallelOutboundMigrationsPerNode)}) busy over the plan's span (goal ≥ 95 %); VMs per minute and GiB per
 *       second moved; total time over predicted (goal within ±10 %);</li>
 *   <li>naively, node after node in name order, each drained by {@link dev.drainboard.ops.Ops#drain} and uncordoned
 *       (the scheduler chooses every target): migrations made, VMs moved more than once, total time.</li>
 * </ol>
 * {@code --time-scale=N} runs the embedded cluster N times faster (docs/embedded-cluster.md, "Time scale"); times are
 * reported in real time: measured × the cluster's time scale ({@link MaintenanceOps#timeScale}).
 *
 * <p>Arguments: {@code --nodes=20 --per-node=20 --memory=1Gi --max-unavailable=1 --time-scale=1
 * --kubevirt-version=v1.9.0}; {@code --smoke} for tiny sizes; {@code --skip-naive} skips part 2; {@code --uneven} loads only the first half of
 * the nodes (see {@link Sizes#uneven}).
 */
public final class MaintenanceBenchmark {

    static final String NAMESPACE = DrainBenchmark.NAMESPACE;

    /**
     * @param uneven VMIs on the first half of the nodes only (by name), the second half empty: node after node in name
     *               order then sends the first half's VMIs to empty nodes drained later, while the plan maintains the
     *               empty nodes first and sends them there once
     */
    public record Sizes(int nodes, int perNode, String memory, int maxUnavailable, double timeScale, boolean uneven) {
        public Sizes(int nodes, int perNode, String memory, int maxUnavailable, double timeScale) {
            this(nodes, perNode, memory, maxUnavailable, timeScale, false);
        }

        static Sizes smoke() {
            return new Sizes(3, 2, "128Mi", 1, 1);
        }
    }

    /**
     * @param usableSlots the migration slots a batch can use
     * @param slotShare   the share of {@code usableSlots × span} in which migrations were in flight
     */
    public record Report(int predictedMigrations, int predictedMovedMoreThanOnce, double predictedSeconds,
                         int planMigrations, int planMovedMoreThanOnce, double planSeconds, int usableSlots,
                         double slotShare, double vmsPerMinute, double gibPerSecond,
                         int naiveMigrations, int naiveMovedMoreThanOnce, double naiveSeconds) {

        /** |actual − predicted| / actual, the goal's figure (≤ 10 %). */
        public double predictionError() {
            return Math.abs(planSeconds - predictedSeconds) / planSeconds;
        }
    }

    public static void main(String[] args) throws Exception {
        DrainFixtures.kubeVirtVersionArg(args);
        if (DrainFixtures.kubeVirtVersion() == null) {
            // Targets need KubeVirt ≥ 1.6 (VMIM addedNodeSelector, docs/maintenance.md).
            System.setProperty(DrainFixtures.KUBEVIRT_VERSION_PROPERTY, "v1.9.0");
        }
        boolean smoke = List.of(args).contains("--smoke");
        Sizes base = smoke ? Sizes.smoke() : new Sizes(20, 20, "1Gi", 1, 1);
        Sizes sizes = new Sizes(intArg(args, "nodes", base.nodes()), intArg(args, "per-node", base.perNode()),
                stringArg(args, "memory", base.memory()), intArg(args, "max-unavailable", base.maxUnavailable()),
                Double.parseDouble(stringArg(args, "time-scale", Double.toString(base.timeScale()))),
                List.of(args).contains("--uneven"));
        run(sizes, !List.of(args).contains("--skip-naive"), System.out);
        System.exit(0);
    }

    public static Report run(Sizes sizes, boolean naive, PrintStream out) throws Exception {
        out.printf(Locale.ROOT, "load average at start: %.2f%n", ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
        out.printf(Locale.ROOT, "%d nodes × %d VMIs of %s%s, maxUnavailable %d, KubeVirt %s%n", sizes.nodes(), sizes.perNode(),
                sizes.memory(), sizes.uneven() ? " on the first half of the nodes (the rest empty)" : "",
                sizes.maxUnavailable(), DrainFixtures.kubeVirtVersion());
        out.printf(Locale.ROOT, "time scale %s: the simulated world runs that many times faster; times below are real time%n",
                sizes.timeScale());
        List<String> nodes = new ArrayList<>();
        for (int n = 1; n <= sizes.nodes(); n++) {
            nodes.add(DrainBenchmark.Bench.nodeName(n));
        }
        double gib = Quantities.whole(sizes.memory()) / (double) (1L << 30);

        // Part 1: the plan.
        MaintenancePlanPreview preview;
        MaintenancePlanStatus status;
        double seconds;
        List<MigrationTimeline.Interval> ended;
        double scale;
        Map<String, Integer> planMoves;
        try (DrainBenchmark.Bench bench = DrainBenchmark.Bench.start(sizes.nodes(), sizes.timeScale(), out)) {
            populate(bench, nodes, sizes);
            scale = MaintenanceOps.timeScale(bench.client);
            MaintenancePlanSpec spec = new MaintenancePlanSpec(nodes, null, sizes.maxUnavailable(), null, null);
            preview = new MaintenanceOps(bench.ops).preview(spec, nodes);
            out.printf(Locale.ROOT, "plan: %d batches, %d migrations predicted, %d VMs moved more than once, %.1f s predicted, %d stranded%n",
                    preview.batches().size(), preview.migrations(), preview.movedMoreThanOnce().size(), preview.seconds(),
                    preview.stranded().size());
            try (MigrationTimeline timeline = new MigrationTimeline(bench.client)) {
                long start = System.nanoTime();
                bench.client.resources(MaintenancePlan.class).resource(new MaintenancePlan("bench", spec)).create();
                // A loaded machine runs slower than predicted: four times the prediction, at least half an hour.
                Duration limit = Duration.ofSeconds(Math.max(1800, (long) (4 * preview.seconds())));
                DrainFixtures.waitUntil("the plan ends", limit, () -> {
                    MaintenancePlan p = bench.client.resources(MaintenancePlan.class).withName("bench").get();
                    return p != null && p.finished();
                });
                seconds = (System.nanoTime() - start) / 1e9 * scale;
                status = bench.client.resources(MaintenancePlan.class).withName("bench").get().getStatus();
                ended = timeline.ended();
            }
            planMoves = movesPerVmi(bench);
            if (status.phase() != MaintenancePlanStatus.Phase.Succeeded) {
                throw new IllegalStateException("the plan ended " + status.phase() + ": " + status.message());
            }
        }
        int made = planMoves.values().stream().mapToInt(Integer::intValue).sum();
        int twice = (int) planMoves.values().stream().filter(c -> c > 1).count();
        int usable = Math.min(DrainBenchmark.CLUSTER_LIMIT, sizes.maxUnavailable() * DrainBenchmark.PER_NODE_LIMIT);
        double share = MigrationTimeline.busyShare(ended, usable);
        double perMinute = made / (seconds / 60);
        double gibPerSecond = made * gib / seconds;
        out.printf(Locale.ROOT, "plan: %d migrations made (%d predicted), %d VMs moved more than once (%d predicted)%n",
                made, preview.migrations(), twice, preview.movedMoreThanOnce().size());
        out.printf(Locale.ROOT, "plan: %.1f s (predicted %.1f s): |actual − predicted| / actual = %.1f %% (goal ≤ 10 %%)%n",
                seconds, preview.seconds(), Math.abs(seconds - preview.seconds()) / seconds * 100);
        out.printf(Locale.ROOT, "plan: %d usable migration slots busy %.1f %% of the span (goal ≥ 95 %%); %.1f VMs/min, %.2f GiB/s%n",
                usable, share * 100, perMinute, gibPerSecond);
        for (MaintenancePlanStatus.NodeStatus n : status.nodes()) {
            out.printf(Locale.ROOT, "  %s batch %d: predicted %.1f s, actual %.1f s, migrations %d/%d%n", n.name(), n.batch(),
                    n.predictedSeconds(), n.actualSeconds(), n.migrationsMade(), n.migrationsPredicted());
        }

        // Part 2: node after node.
        int naiveMade = 0;
        int naiveTwice = 0;
        double naiveSeconds = Double.NaN;
        if (naive) {
            try (DrainBenchmark.Bench bench = DrainBenchmark.Bench.start(sizes.nodes(), sizes.timeScale(), out)) {
                populate(bench, nodes, sizes);
                DrainOptions options = MaintenanceOps.DRAIN.withTimeout(Duration.ofMinutes(30));
                try (MigrationTimeline timeline = new MigrationTimeline(bench.client)) {
                    long start = System.nanoTime();
                    for (String node : nodes) {
                        DrainResult result = bench.ops.drain(node, options).await();
                        if (result.status() != DrainResult.Status.DRAINED) {
                            throw new IllegalStateException("naive drain of " + node + " ended " + result.status() + ": " + result.why());
                        }
                        bench.ops.uncordon(node);
                    }
                    naiveSeconds = (System.nanoTime() - start) / 1e9 * scale;
                    Map<String, Integer> naiveMoves = movesPerVmi(bench);
                    naiveMade = naiveMoves.values().stream().mapToInt(Integer::intValue).sum();
                    naiveTwice = (int) naiveMoves.values().stream().filter(c -> c > 1).count();
                }
            }
            out.printf(Locale.ROOT, "node after node: %d migrations, %d VMs moved more than once, %.1f s%n",
                    naiveMade, naiveTwice, naiveSeconds);
        } else {
            out.println("node after node: skipped");
        }
        out.printf(Locale.ROOT, "load average at end: %.2f%n", ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
        return new Report(preview.migrations(), preview.movedMoreThanOnce().size(), preview.seconds(), made, twice, seconds,
                usable, share, perMinute, gibPerSecond, naiveMade, naiveTwice, naiveSeconds);
    }

    /** {@code per-node} VMIs on each node, placed one node at a time; then every node schedulable. */
    private static void populate(DrainBenchmark.Bench bench, List<String> nodes, Sizes sizes) throws Exception {
        int loaded = sizes.uneven() ? nodes.size() / 2 : nodes.size();
        for (String node : nodes.subList(0, loaded)) {
            bench.place(node, sizes.perNode(), sizes.memory());
        }
        bench.uncordonAll();
    }

    /** Succeeded migrations per VMI, as the cluster keeps them. */
    private static Map<String, Integer> movesPerVmi(DrainBenchmark.Bench bench) {
        Map<String, Integer> moves = new HashMap<>();
        for (VirtualMachineInstanceMigration m : bench.client.resources(VirtualMachineInstanceMigration.class)
                .inNamespace(NAMESPACE).list().getItems()) {
            if (m.phase().orElse(null) == MigrationPhase.SUCCEEDED) {
                moves.merge(m.getSpec().getVmiName(), 1, Integer::sum);
            }
        }
        return moves;
    }

    private MaintenanceBenchmark() {
    }
}
