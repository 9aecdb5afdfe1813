package dev.drainboard.ui.vmis;

import dev.drainboard.ui.common.Badge;
import dev.drainboard.ui.model.VmiRow;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.time.Instant;
import java.time.ZoneOffset;

import static org.assertj.core.api.Assertions.assertThat;

class EvacuationStateTest {

    private static final Instant NOW = Instant.parse("2026-11-22T10:00:00Z");

    @ParameterizedTest(name = "[{index}] evacuation={0} deadline={1} lost={2} -> {3}")
    @CsvSource(delimiter = '|', textBlock = """
            ''     | ''                   | ''                      | ''                              | NEUTRAL | false | 0
            node02 | ''                   | ''                      | from node02                     | WARNING | false | 1
            node02 | 2026-11-22T10:01:35Z | ''                      | kill in 1m 35s                  | WARNING | true  | 2
            ''     | 2026-11-22T10:00:09Z | ''                      | kill in 9s                      | WARNING | true  | 2
            node02 | 2026-11-22T10:01:35Z | killed before migrating | Lost to node pressure           | DANGER  | false | 3
            ''     | ''                   | killed before migrating | Lost to node pressure           | DANGER  | false | 3
            """)
    void saysWhatTheEvictionDid(String evacuation, String deadline, String lost, String text, Badge.Tone tone,
                                boolean counting, int rank) {
        VmiRow vmi = new VmiRow("demo", "db", "Running", "node02", "LiveMigrate", "VMI", "True", "", evacuation, "",
                "", "2026-11-22T09:00:00Z", deadline, lost);
        EvacuationState state = EvacuationState.of(vmi, NOW, ZoneOffset.UTC);
        assertThat(state.text()).isEqualTo(text);
        assertThat(state.tone()).isEqualTo(tone);
        assertThat(state.counting()).isEqualTo(counting);
        assertThat(state.rank()).isEqualTo(rank);
        if (!lost.isEmpty()) {
            assertThat(state.tip()).isEqualTo(lost);
        } else if (!evacuation.isEmpty() && deadline.isEmpty()) {
            assertThat(state.tip()).contains("leave node02");
        }
    }
}
