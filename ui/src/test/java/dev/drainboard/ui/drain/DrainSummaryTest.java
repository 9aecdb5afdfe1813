package dev.drainboard.ui.drain;

import dev.drainboard.ops.DrainProgress;
import dev.drainboard.ops.DrainResult;
import dev.drainboard.ops.PodOutcome;
import dev.drainboard.ops.PodPreview;
import dev.drainboard.ops.PodProgress;
import dev.drainboard.ops.PodState;
import dev.drainboard.ui.drain.DrainSummary.EndState;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

class DrainSummaryTest {

    @ParameterizedTest(name = "[{index}] {0} -> {1}")
    @CsvSource(delimiter = '|', textBlock = """
            DRAINED                   | DRAINED
            DRAINED,DRAINED           | DRAINED
            DRAINED,RUNNING           | RUNNING
            DRAINED,FAILED            | FAILED
            CANCELLED,TIMED_OUT       | TIMED_OUT
            TIMED_OUT,FAILED          | FAILED
            DRAINED,CANCELLED         | CANCELLED
            """)
    void severalNodesNeverEndDrainedAfterAFailure(String nodes, EndState overall) {
        assertThat(DrainSummary.overall(Arrays.stream(nodes.split(",")).map(EndState::valueOf).toList())).isEqualTo(overall);
    }

    @ParameterizedTest(name = "[{index}] ''{0}''")
    @CsvSource(delimiter = '|', nullValues = "null", textBlock = """
            ''      | 0
            0       | 0
            90s     | 90000
            5m      | 300000
            1h30m   | 5400000
            1.5h    | 5400000
            250ms   | 250
            90      | null
            5 m     | null
            soon    | null
            -1s     | null
            """)
    void timeoutsReadAsGoDurations(String text, Long millis) {
        assertThat(DrainSummary.parseTimeout(text)).isEqualTo(Optional.ofNullable(millis).map(Duration::ofMillis));
    }

    @ParameterizedTest(name = "[{index}] {0} -> {1}")
    @CsvSource(delimiter = '|', nullValues = "null", textBlock = """
            GONE,GONE,PENDING         | null      | 0.6666
            GONE,WAITING_FOR_MIGRATION| null      | 0.5
            GONE,BLOCKED              | TIMED_OUT | 0.5
            GONE,GONE                 | DRAINED   | 1.0
            ''                        | DRAINED   | 1.0
            """)
    void theBarIsPodsGoneAndFullOnlyWhenDrained(String states, DrainResult.Status status, double fraction) {
        List<PodProgress> pods = new ArrayList<>();
        int i = 0;
        for (String s : states.isEmpty() ? new String[0] : states.split(",")) {
            PodPreview preview = new PodPreview("demo", "p" + i, "uid" + i, PodOutcome.EVICTED, "evicted", null, null, null);
            pods.add(new PodProgress("demo", "p" + i, "uid" + i, PodState.valueOf(s), 1, 201, "", preview, Instant.now()));
            i++;
        }
        Optional<DrainResult> result = Optional.ofNullable(status).map(st -> new DrainResult("node01", st, "why", pods));
        DrainProgress progress = new DrainProgress("node01", status == null ? DrainProgress.Phase.EVICTING : DrainProgress.Phase.ENDED,
                null, pods, Instant.now(), result);
        assertThat(DrainSummary.fraction(progress)).isCloseTo(fraction, org.assertj.core.data.Offset.offset(0.001));
    }

    @ParameterizedTest(name = "[{index}] {0}")
    @CsvSource(delimiter = '|', textBlock = """
            BLOCKED_BY_PDB             | DANGER
            BLOCKED_NOT_MIGRATABLE     | DANGER
            NEEDS_IGNORE_DAEMONSETS    | DANGER
            LIVE_MIGRATION             | ACCENT
            EVICTED_VMI_LOST           | WARNING
            SKIPPED_DAEMONSET          | NEUTRAL
            EVICTED                    | SUCCESS
            """)
    void blockersAreRed(PodOutcome outcome, dev.drainboard.ui.common.Badge.Tone tone) {
        assertThat(DrainSummary.outcomeTone(outcome)).isEqualTo(tone);
    }
}
