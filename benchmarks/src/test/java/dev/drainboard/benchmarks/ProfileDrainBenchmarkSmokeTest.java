package dev.drainboard.benchmarks;

import dev.drainboard.testing.KubectlRequirement;
import dev.drainboard.testing.RequiresKubectl;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The per-profile kubectl-vs-Drainboard benchmark at a tiny size: every drain ends drained and a ratio is printed per profile. */
class ProfileDrainBenchmarkSmokeTest {

    @RequiresKubectl
    @Test
    void everyProfileDrainsBothWaysAndPrintsTheRatio() throws Exception {
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        List<ProfileDrainBenchmark.Row> rows = ProfileDrainBenchmark.run(
                ProfileDrainBenchmark.Sizes.smoke(KubectlRequirement.require().toString()), new PrintStream(printed, true, StandardCharsets.UTF_8));

        String text = printed.toString(StandardCharsets.UTF_8);
        assertThat(rows).as(text).hasSize(ProfileDrainBenchmark.VERSIONS.size());
        assertThat(rows).allSatisfy(r -> {
            assertThat(r.kubectlSeconds()).isPositive().isFinite();
            assertThat(r.drainboardSeconds()).isPositive().isFinite();
        });
        assertThat(text).contains("| KubeVirt | profile | VMIs | kubectl drain | drainboard drain | kubectl ÷ drainboard |");
    }
}
