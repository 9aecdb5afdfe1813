package dev.drainboard.ui.drain;

import dev.drainboard.ops.DrainProgress;
import dev.drainboard.ops.DrainResult;
import dev.drainboard.ops.PodOutcome;
import dev.drainboard.ops.PodPreview;
import dev.drainboard.ops.PodProgress;
import dev.drainboard.ops.PodState;
import dev.drainboard.ui.common.Badge;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/** A node's bar says what its drain is doing, green only once drained, red after a failure or a timeout. */
class NodeStatusTest {

    @ParameterizedTest(name = "[{index}] {0} {1} {2}")
    @CsvSource(delimiter = '|', nullValues = "null", textBlock = """
            PREPARING | ''        | null      | Preparing | ACCENT  | -1.0 | PLAIN   | Reading the node's pods…
            CORDONING | ''        | null      | Cordoning | ACCENT  | -1.0 | PLAIN   | Cordoning…
            EVICTING  | GONE,BLOCKED | null   | Draining  | ACCENT  | 0.5  | PLAIN   | 1 of 2 pods gone · 1 blocked
            ENDED     | GONE,GONE | DRAINED   | Drained   | SUCCESS | 1.0  | SUCCESS | why
            ENDED     | GONE,BLOCKED | FAILED | Failed    | DANGER  | 0.5  | DANGER  | why
            ENDED     | BLOCKED   | TIMED_OUT | Timed out | DANGER  | 0.0  | DANGER  | why
            ENDED     | BLOCKED   | CANCELLED | Cancelled | WARNING | 0.0  | PLAIN   | why
            """)
    void aNodesBarFollowsItsDrain(DrainProgress.Phase phase, String states, DrainResult.Status status, String label,
                                  Badge.Tone tone, double fraction, NodeStatus.Bar bar, String line) {
        List<PodProgress> pods = new ArrayList<>();
        String[] each = states.isEmpty() ? new String[0] : states.split(",");
        for (int i = 0; i < each.length; i++) {
            PodPreview preview = new PodPreview("demo", "p" + i, "uid" + i, PodOutcome.EVICTED, "evicted", null, null, null);
            pods.add(new PodProgress("demo", "p" + i, "uid" + i, PodState.valueOf(each[i]), 1, 201, "", preview, Instant.now()));
        }
        Optional<DrainResult> result = Optional.ofNullable(status).map(s -> new DrainResult("node01", s, "why", pods));

        NodeStatus shown = NodeStatus.of(new DrainProgress("node01", phase, null, pods, Instant.now(), result));

        assertThat(shown).isEqualTo(new NodeStatus("node01", label, tone, fraction, bar, line));
    }
}
