package dev.drainboard.benchmarks;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.regex.Matcher;

import static org.assertj.core.api.Assertions.assertThat;

/** How the start-up benchmark reads the console's milestone lines and sums the runs up. */
class ConsoleStartupBenchmarkTest {

    @Test
    void readsTheConsolesMilestoneLines() {
        assertThat(ConsoleStartupBenchmark.FIRST_FRAME.matcher("drainboard: first frame after 812 ms").find()).isTrue();
        Matcher populated = ConsoleStartupBenchmark.POPULATED.matcher("drainboard: demo populated after 2380 ms (4 nodes, 12 VMIs, CPU 6120 ms)");
        assertThat(populated.find()).isTrue();
        assertThat(populated.group(1)).isEqualTo("2380");
        assertThat(populated.group(3)).isEqualTo("12");
        assertThat(populated.group(4)).isEqualTo("6120");
        // The first sync's line is not the demo's.
        assertThat(ConsoleStartupBenchmark.POPULATED.matcher("drainboard: cluster populated after 2140 ms (4 nodes, 8 VMIs)").find()).isFalse();
    }

    @Test
    void theMedianOfAnEvenCountIsTheMeanOfTheMiddleTwo() {
        assertThat(ConsoleStartupBenchmark.median(List.of(5L, 1L, 3L))).isEqualTo(3);
        assertThat(ConsoleStartupBenchmark.median(List.of(4L, 1L, 3L, 10L))).isEqualTo(3);
    }
}
