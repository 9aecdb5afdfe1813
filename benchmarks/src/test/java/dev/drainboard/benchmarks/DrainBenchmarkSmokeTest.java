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
}
