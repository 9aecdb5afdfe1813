package dev.drainboard.benchmarks;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;

/** Runs every phase of the benchmark with tiny sizes: proves it works, measures nothing. */
class ApiServerBenchmarkSmokeTest {

    @Test
    void everyPhaseRunsAndReportsItsFigures() throws Exception {
        BenchmarkSizes sizes = BenchmarkSizes.smoke();
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        PrintStream out = new PrintStream(printed, true, StandardCharsets.UTF_8);

        BenchmarkReport report = ApiServerBenchmark.run(sizes, out);
        report.print(out, sizes);

        assertThat(report.objectsCreated()).isEqualTo(sizes.nodes() + sizes.pods() + sizes.customObjects());
        assertThat(report.listedPods()).isEqualTo(sizes.bigNamespacePods());
        assertThat(report.createsPerSecond()).isPositive();
        assertThat(report.getP50Millis()).isPositive();
        assertThat(report.watchP99Millis()).isPositive();
        assertThat(printed.toString(StandardCharsets.UTF_8))
                .contains("creates/s: ", "GET p50: ", "list " + sizes.bigNamespacePods() + " pods", "watchers: p50");
    }
}
