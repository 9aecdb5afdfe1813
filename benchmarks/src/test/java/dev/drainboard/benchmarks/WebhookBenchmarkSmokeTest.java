package dev.drainboard.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/** A one-second run at a low rate: proves the benchmark works and every answer is right, measures nothing. */
class WebhookBenchmarkSmokeTest {

    @Test
    void runsAndEveryAnswerIsRight() throws Exception {
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        WebhookBenchmark.Report report = WebhookBenchmark.run(50, 1, 2, 0, new PrintStream(printed, true, StandardCharsets.UTF_8));

        assertThat(report.requests()).isEqualTo(50);
        assertThat(report.errors()).isZero();
        assertThat(report.p99Millis()).isPositive();
        assertThat(printed.toString(StandardCharsets.UTF_8)).contains("latency from due time: p50 ");
    }
}
