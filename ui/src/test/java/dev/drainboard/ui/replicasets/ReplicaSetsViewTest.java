package dev.drainboard.ui.replicasets;

import dev.drainboard.ui.common.Badge;
import dev.drainboard.ui.model.ReplicaSetRow;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.assertj.core.api.Assertions.assertThat;

class ReplicaSetsViewTest {

    @ParameterizedTest(name = "[{index}] {0}/{1}/{2} paused={3} failure={4} -> {5}")
    @CsvSource(delimiter = '|', textBlock = """
            3 | 3 | 3 | false | ''            | Ready         | SUCCESS | —
            3 | 3 | 1 | false | ''            | Starting      | ACCENT  | —
            5 | 3 | 3 | false | ''            | Scaling up    | ACCENT  | —
            1 | 3 | 3 | false | ''            | Scaling down  | ACCENT  | —
            5 | 3 | 3 | true  | ''            | Paused        | WARNING | ReplicaPaused
            5 | 3 | 3 | false | FailureCreate | FailureCreate | DANGER  | FailureCreate: quota exceeded
            1 | 3 | 3 | true  | FailureDelete | FailureDelete | DANGER  | FailureDelete: quota exceeded
            """)
    void aFailureComesFirstThenPausedThenTheCounts(int desired, int current, int ready, boolean paused, String failure,
                                                   String state, Badge.Tone tone, String conditions) {
        ReplicaSetRow row = new ReplicaSetRow("demo", "workers", desired, current, ready, paused,
                paused ? "ReplicaPaused" : "", "", failure, failure.isEmpty() ? "" : "quota exceeded");
        assertThat(ReplicaSetsView.state(row)).isEqualTo(state);
        assertThat(ReplicaSetsView.stateTone(ReplicaSetsView.state(row))).isEqualTo(tone);
        assertThat(ReplicaSetsView.conditions(row)).isEqualTo(conditions);
        assertThat(ReplicaSetsView.facts(row)).anySatisfy(f -> {
            assertThat(f.getKey()).isEqualTo("Replica failure");
            assertThat(f.getValue()).isEqualTo(failure.isEmpty() ? "none" : failure + " — quota exceeded");
        });
    }
}
