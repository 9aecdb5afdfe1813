package dev.drainboard.benchmarks;

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
        assertThat(printed.toString(StandardCharsets.UTF_8)).contains("time / ideal", "migration slots busy", "kubectl drain: skipped");
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
}
