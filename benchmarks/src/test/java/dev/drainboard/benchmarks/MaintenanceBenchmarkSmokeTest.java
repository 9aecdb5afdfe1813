package dev.drainboard.benchmarks;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;

/** Runs the maintenance benchmark with tiny sizes: the plan succeeds as predicted, the naive drains end; measures nothing. */
class MaintenanceBenchmarkSmokeTest {

    @Test
    void thePlanAndTheNaiveDrainsEndAndTheFiguresAreReported() throws Exception {
        String before = System.getProperty(DrainFixtures.KUBEVIRT_VERSION_PROPERTY);
        System.setProperty(DrainFixtures.KUBEVIRT_VERSION_PROPERTY, "v1.9.0");
        try {
            ByteArrayOutputStream printed = new ByteArrayOutputStream();
            MaintenanceBenchmark.Report report = MaintenanceBenchmark.run(MaintenanceBenchmark.Sizes.smoke(), true,
                    new PrintStream(printed, true, StandardCharsets.UTF_8));
            // 3 nodes × 2 VMIs, no empty node: the first node's 2 VMIs move twice.
            assertThat(report.predictedMigrations()).isEqualTo(8);
            assertThat(report.planMigrations()).isEqualTo(report.predictedMigrations());
            assertThat(report.planMovedMoreThanOnce()).isEqualTo(report.predictedMovedMoreThanOnce()).isEqualTo(2);
            assertThat(report.planSeconds()).isPositive();
            assertThat(report.slotShare()).isBetween(0.0, 1.0);
            assertThat(report.usableSlots()).isEqualTo(2);
            assertThat(report.naiveMigrations()).isGreaterThanOrEqualTo(6);
            assertThat(report.naiveSeconds()).isPositive();
            assertThat(printed.toString(StandardCharsets.UTF_8)).contains("plan: 8 migrations made (8 predicted)",
                    "|actual − predicted| / actual", "usable migration slots busy", "node after node: ");
        } finally {
            if (before == null) {
                System.clearProperty(DrainFixtures.KUBEVIRT_VERSION_PROPERTY);
            } else {
                System.setProperty(DrainFixtures.KUBEVIRT_VERSION_PROPERTY, before);
            }
        }
    }
}
