package dev.drainboard.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * A one-second run at a low rate against the real webhook: proves the benchmark works and that every answer is the
 * right one (the plain pod, the None VMI and the marked External VMI allowed; the non-migratable LiveMigrate VMI
 * refused with 429), measures nothing.
 */
class WebhookBenchmarkSmokeTest {

    @Test
    void runsAndEveryAnswerIsRight() throws Exception {
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        WebhookBenchmark.Report report = WebhookBenchmark.run(50, 1, 2, 0, new PrintStream(printed, true, StandardCharsets.UTF_8));

        assertThat(report.problems()).as("problems").isEmpty();
        assertThat(report.requests()).isEqualTo(50);
        assertThat(report.answered()).isEqualTo(50);
        assertThat(report.wrongAnswers()).isZero();
        assertThat(report.failedRequests()).isZero();
        // Requests cycle through the four cases; request i with i % 4 == 2 asks about the VMI that cannot migrate.
        assertThat(report.rightAnswers()).isEqualTo(Map.of("allowed", 38L, "denied 429", 12L));
        assertThat(report.passed()).isTrue();
        assertThat(report.p99Millis()).isPositive();
        assertThat(printed.toString(StandardCharsets.UTF_8)).contains("latency from due time: p50 ").doesNotContain("FAILED");
    }
}
