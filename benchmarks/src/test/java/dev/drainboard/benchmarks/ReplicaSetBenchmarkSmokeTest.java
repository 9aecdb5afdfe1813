package dev.drainboard.benchmarks;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** Runs the replica set benchmark with 5 replicas, one round: proves the set gets to all Ready and to none, measures nothing. */
class ReplicaSetBenchmarkSmokeTest {

    @Test
    void scalesUpAndDownAndReportsTheFigures() throws Exception {
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        List<ReplicaSetBenchmark.Round> rounds = ReplicaSetBenchmark.run(ReplicaSetBenchmark.Sizes.smoke(),
                new PrintStream(printed, true, StandardCharsets.UTF_8));

        assertThat(rounds).singleElement().satisfies(r -> {
            assertThat(r.upSeconds()).isPositive();
            assertThat(r.upStatusSeconds()).isPositive();
            assertThat(r.downSeconds()).isPositive();
            assertThat(r.downStatusSeconds()).isPositive();
        });
        assertThat(printed.toString(StandardCharsets.UTF_8)).contains("round 1: 0 → 5 all Ready", "5 → 0 all gone", "median:");
    }
}
