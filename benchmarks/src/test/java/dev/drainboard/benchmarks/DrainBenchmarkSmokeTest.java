package dev.drainboard.benchmarks;

import dev.drainboard.testing.KubectlRequirement;
import dev.drainboard.testing.RequiresKubectl;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;

/** Runs the drain benchmark with tiny sizes (small guests, few VMIs): proves every drain ends DRAINED, measures nothing. */
class DrainBenchmarkSmokeTest {

    @Test
    void everyDrainEndsDrainedAndTheFiguresAreReported() throws Exception {
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        DrainBenchmark.Report report = DrainBenchmark.run(DrainBenchmark.Sizes.smoke(),
                new PrintStream(printed, true, StandardCharsets.UTF_8));

        assertThat(report.oneNodeSeconds()).isPositive();
        assertThat(report.meanMigrationSeconds()).isPositive();
        assertThat(report.mostInFlight()).isBetween(1, DrainBenchmark.CLUSTER_LIMIT);
        assertThat(report.busyShare()).isBetween(0.0, 1.0);
        assertThat(report.kubectlSeconds()).isNaN();
        // Both denominators, for both parts: the observed migrations' and the physical one (the goals').
        assertThat(report.oneNodeRatio()).isPositive().isFinite();
        assertThat(report.oneNodePhysicalIdealSeconds()).isPositive().isFinite();
        assertThat(report.oneNodePhysicalRatio()).isPositive().isFinite();
        assertThat(report.allNodesObservedRatio()).isPositive().isFinite();
        assertThat(report.allNodesPhysicalIdealSeconds()).isPositive().isFinite();
        assertThat(report.allNodesPhysicalRatio()).isPositive().isFinite();
        // A drain cannot beat the links: every VMI's memory has to cross one.
        assertThat(report.oneNodePhysicalRatio()).isGreaterThan(1);
        assertThat(report.allNodesPhysicalRatio()).isGreaterThan(1);
        assertThat(printed.toString(StandardCharsets.UTF_8)).contains(
                "one node: time / ideal from observed migrations", "one node: physical ideal 4 × (128 MiB at 512 MiB/s, dirty 0 MiB/s: 0.25 s)",
                "one node: time / physical ideal", "(goal ≤ 1.05: the goal is on this ratio)",
                "2 nodes: time / ideal from observed migrations", "2 nodes: physical ideal 6 × (128 MiB at 512 MiB/s, dirty 0 MiB/s: 0.25 s)",
                "2 nodes: time / physical ideal", "(goal ≥ 95 %: the goal is on this share)",
                "migration slots busy", "kubectl drain: skipped",
                "history: 2 VMIs migrated node05 → node04", "history: 2 VMIs migrated node04 → node03",
                "one node: preview's estimate", "(2 VMIs migrated before it)", "2 nodes: preview's estimate");
        // The preview's estimate of each measured drain is reported (its accuracy is measured at full size only).
        assertThat(report.oneNodeEstimateSeconds()).isPositive().isFinite();
        assertThat(report.allNodesEstimateSeconds()).isPositive().isFinite();
        assertThat(report.oneNodeEstimateError()).isFinite();
    }

    /**
     * Part 3 with two VMIs (one round of migrations; part 2 left out): the real kubectl drains the node, its first
     * evictions refused while the VMIs migrate and retried after 5 s.
     */
    @RequiresKubectl
    @Test
    void kubectlDrainsTheNodeAndItsTimeIsReported() throws Exception {
        String kubectl = KubectlRequirement.require().toString();
        DrainBenchmark.Sizes smoke = DrainBenchmark.Sizes.smoke();
        DrainBenchmark.Sizes sizes = new DrainBenchmark.Sizes(2, smoke.nodes(), smoke.perNode(), smoke.memory(),
                kubectl, 0);
        ByteArrayOutputStream printed = new ByteArrayOutputStream();

        DrainBenchmark.Report report = DrainBenchmark.run(sizes, false, new PrintStream(printed, true, StandardCharsets.UTF_8));

        assertThat(report.kubectlSeconds()).as(printed.toString(StandardCharsets.UTF_8)).isPositive().isFinite();
        assertThat(report.kubectlRatio()).isPositive().isFinite();
        assertThat(printed.toString(StandardCharsets.UTF_8)).containsPattern("kubectl drain: [0-9.]+ s \\(last line: node/node01 drained\\)");
    }

    /**
     * On KubeVirt v1.9's drain path (the migration priority queue: every VMIM created at once, the migration controller
     * holding them to the limits): the drain still ends DRAINED within the limits, and the run says which release.
     */
    @Test
    void runsOnTheV19ProfileWhenAsked() throws Exception {
        System.setProperty(DrainFixtures.KUBEVIRT_VERSION_PROPERTY, "v1.9.0");
        try {
            ByteArrayOutputStream printed = new ByteArrayOutputStream();
            DrainBenchmark.Report report = DrainBenchmark.run(DrainBenchmark.Sizes.smoke(), false,
                    new PrintStream(printed, true, StandardCharsets.UTF_8));
            assertThat(report.oneNodeSeconds()).isPositive();
            assertThat(report.oneNodePhysicalRatio()).isGreaterThan(1).isFinite();
            assertThat(printed.toString(StandardCharsets.UTF_8)).contains("KubeVirt version the cluster reports: v1.9.0");
        } finally {
            System.clearProperty(DrainFixtures.KUBEVIRT_VERSION_PROPERTY);
        }
    }
}
