package dev.drainboard.benchmarks;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;

/** Runs the control plane benchmark with tiny sizes (controllers in their own JVM): proves it works, measures nothing. */
class ControlPlaneBenchmarkSmokeTest {

    @Test
    void everyVmiRunsAndTheFiguresAreReported() throws Exception {
        ScaleSizes sizes = ScaleSizes.smoke();
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        PrintStream out = new PrintStream(printed, true, StandardCharsets.UTF_8);

        ScaleReport report = ControlPlaneBenchmark.run(sizes, out);
        report.print(out);

        assertThat(report.vmis() + report.vms()).isEqualTo(sizes.totalVmis());
        assertThat(report.secondsToAllRunning()).isPositive().isGreaterThanOrEqualTo(report.secondsFromLeader());
        assertThat(report.controllerHeapUsedMiB()).isPositive().isLessThanOrEqualTo(report.controllerHeapMaxMiB());
        assertThat(report.controllerFigures()).anyMatch(f -> f.startsWith("vmi-controller reconciles="))
                .anyMatch(f -> f.startsWith("vm-controller reconciles="));
        assertThat(printed.toString(StandardCharsets.UTF_8))
                .contains("all-Running: ", "throughput: ", "controllers' heap in use after GC: ");
    }
}
