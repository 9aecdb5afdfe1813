package dev.drainboard.ops;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.drainboard.controller.migration.MigrationSlots;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.List;

@DisplayName("time left of a running drain: live progress for the transfers under way, the slot schedule for the rest")
class TimeLeftDecisionTest {

    private static final long GI = 1L << 30;
    private static final long MI = 1L << 20;
    private static final MigrationSlots.Limits DEFAULTS = new MigrationSlots.Limits(5, 2);

    static TimeLeftDecision.Move running(String node, long remaining, long throughput) {
        return new TimeLeftDecision.Move(node, true, remaining, throughput, GI, 512 * MI);
    }

    static TimeLeftDecision.Move waiting(String node) {
        return new TimeLeftDecision.Move(node, false, -1, 0, GI, 512 * MI);
    }

    @Test
    @DisplayName("nothing left: 0")
    void none() {
        assertThat(TimeLeftDecision.secondsLeft(List.of(), DEFAULTS)).isZero();
    }

    @Test
    @DisplayName("one transfer under way: bytes left over the throughput it reports, not its memory over the bandwidth")
    void liveProgress() {
        assertThat(TimeLeftDecision.secondsLeft(List.of(running("node01", 256 * MI, 128 * MI)), DEFAULTS)).isEqualTo(2.0);
    }

    @Test
    @DisplayName("no throughput reported yet: bytes left over its bandwidth; nothing reported yet: its memory")
    void fallbacks() {
        assertThat(TimeLeftDecision.secondsLeft(List.of(running("node01", 256 * MI, 0)), DEFAULTS)).isEqualTo(0.5);
        assertThat(TimeLeftDecision.secondsLeft(List.of(running("node01", -1, 0)), DEFAULTS)).isEqualTo(2.0);
    }

    @Test
    @DisplayName("2 per node: two under way (1 s and 2 s left), two waiting behind them start as each slot frees")
    void waitingBehindTheNodeLimit() {
        List<TimeLeftDecision.Move> moves = List.of(waiting("node01"), running("node01", 512 * MI, 512 * MI),
                waiting("node01"), running("node01", GI, 512 * MI));
        // slot 1: 1 s + 2 s = 3 s; slot 2: 2 s + 2 s = 4 s
        assertThat(TimeLeftDecision.secondsLeft(moves, DEFAULTS)).isEqualTo(4.0);
    }

    @ParameterizedTest(name = "limits {0}/cluster {1}/node, 4 waiting on two nodes → {2} s")
    @CsvSource({"5, 2, 2.0", "1, 2, 8.0", "2, 1, 4.0", "5, 1, 4.0"})
    @DisplayName("waiting ones follow DrainEstimate's schedule through the cluster's and the node's slots")
    void slots(int perCluster, int perNode, double seconds) {
        List<TimeLeftDecision.Move> moves = List.of(waiting("node01"), waiting("node01"), waiting("node02"), waiting("node02"));
        assertThat(TimeLeftDecision.secondsLeft(moves, new MigrationSlots.Limits(perCluster, perNode))).isCloseTo(seconds, within(1e-9));
    }

    @Test
    @DisplayName("before anything started the time left is the preview's estimate (one model, DrainEstimate)")
    void sameAsTheEstimate() {
        List<TimeLeftDecision.Move> moves = List.of(waiting("node01"), waiting("node01"), waiting("node01"));
        double estimate = DrainEstimate.of(moves.stream().map(TimeLeftDecision.Move::transfer).toList(), DEFAULTS).total();
        assertThat(TimeLeftDecision.secondsLeft(moves, DEFAULTS)).isEqualTo(estimate).isEqualTo(4.0);
    }

    @ParameterizedTest(name = "{0} s → {1}")
    @CsvSource(delimiter = '|', value = {
            "0     | less than a second left",
            "0.2   | ~1 s left",
            "40    | ~40 s left",
            "60    | ~1 min left",
            "159.1 | ~2 min 40 s left",
            "3725  | ~1 h 2 min left",
    })
    @DisplayName("in words, rounded up")
    void text(double seconds, String text) {
        assertThat(TimeLeftDecision.text(seconds)).isEqualTo(text);
    }
}
