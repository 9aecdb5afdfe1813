package dev.drainboard.benchmarks;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Runs the cold-drain benchmark with tiny sizes through the built {@code ./drainboard} launcher (serve and drain as
 * processes, as an operator runs them): proves the drain exits 0 and the figures are reported, measures nothing.
 */
class ColdDrainBenchmarkSmokeTest {

    @Test
    void aColdCliDrainEndsAndItsRatioIsReported() throws Exception {
        Path launcher = Path.of(System.getProperty("drainboard.launcher", "../drainboard")).toAbsolutePath().normalize();
        assertThat(launcher).as("the ./drainboard launcher (mvn verify packages app/ before benchmarks/)").isExecutable();
        ByteArrayOutputStream printed = new ByteArrayOutputStream();

        List<ColdDrainBenchmark.Run> runs = ColdDrainBenchmark.run(ColdDrainBenchmark.Sizes.smoke(), launcher,
                new PrintStream(printed, true, StandardCharsets.UTF_8));

        assertThat(runs).hasSize(1);
        ColdDrainBenchmark.Run run = runs.getFirst();
        assertThat(run.migrations()).isEqualTo(ColdDrainBenchmark.Sizes.smoke().vmis());
        // 2 × 16 MiB at 64 MiB/s over 2 slots: the links need 0.25 s, and the drain cannot beat them.
        assertThat(run.idealSeconds()).isEqualTo(0.25);
        assertThat(run.ratio()).isGreaterThan(1).isFinite();
        assertThat(run.firstMigrationSeconds()).isPositive().isLessThan(run.wallSeconds());
        assertThat(printed.toString(StandardCharsets.UTF_8)).contains("cold drain of 2 VMIs × 16 MiB at 64 MiB/s",
                "physical ideal 0.25 s", "launch → first migration starts", "last migration ends → exit");
    }

    /** The same cold drain on KubeVirt v1.9's path (the serve process reads the version from the scenario's KubeVirt CR). */
    @Test
    void aColdCliDrainEndsOnTheV19Profile() throws Exception {
        Path launcher = Path.of(System.getProperty("drainboard.launcher", "../drainboard")).toAbsolutePath().normalize();
        assertThat(launcher).as("the ./drainboard launcher (mvn verify packages app/ before benchmarks/)").isExecutable();
        System.setProperty(DrainFixtures.KUBEVIRT_VERSION_PROPERTY, "v1.9.0");
        try {
            assertThat(ColdDrainBenchmark.scenario(ColdDrainBenchmark.Sizes.smoke()))
                    .contains("kind: KubeVirt", "observedKubeVirtVersion: \"v1.9.0\"");
            List<ColdDrainBenchmark.Run> runs = ColdDrainBenchmark.run(ColdDrainBenchmark.Sizes.smoke(), launcher,
                    new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
            assertThat(runs.getFirst().migrations()).isEqualTo(ColdDrainBenchmark.Sizes.smoke().vmis());
            assertThat(runs.getFirst().ratio()).isGreaterThan(1).isFinite();
        } finally {
            System.clearProperty(DrainFixtures.KUBEVIRT_VERSION_PROPERTY);
        }
    }
}
