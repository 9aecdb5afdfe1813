package dev.drainboard.ui.vmis;

import dev.drainboard.ui.common.Badge;
import dev.drainboard.ui.model.VmiRow;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.time.Instant;
import java.time.ZoneOffset;

import static org.assertj.core.api.Assertions.assertThat;

class NodePressureTest {

    private static final Instant NOW = Instant.parse("2026-11-22T10:00:00Z");

    private static VmiRow vmi(String deadline, String lost) {
        return new VmiRow("demo", "db", "Running", "node02", "LiveMigrate", "VMI", "True", "", "node02", "", "Running",
                "2026-11-22T09:00:00Z", deadline, lost);
    }

    @ParameterizedTest(name = "[{index}] deadline {0} -> {1}")
    @CsvSource(delimiter = '|', textBlock = """
            2026-11-22T10:00:42Z     | kill in 42s
            2026-11-22T10:00:41.200Z | kill in 42s
            2026-11-22T10:05:05Z     | kill in 5m 05s
            2026-11-22T10:00:00.001Z | kill in 1s
            2026-11-22T10:00:00Z     | kill due
            2026-11-22T09:59:30Z     | kill due
            """)
    void aRaceCountsDownToTheKill(String deadline, String label) {
        NodePressure p = NodePressure.of(vmi(deadline, ""), NOW, ZoneOffset.UTC);
        assertThat(p.state()).isEqualTo(NodePressure.State.RACING);
        assertThat(p.label()).isEqualTo(label);
        assertThat(p.tone()).isEqualTo(Badge.Tone.WARNING);
        assertThat(p.detail()).contains("node02").contains("node-pressure eviction")
                .contains("kills its launcher at " + deadline.substring(11, 19)).contains("migration Running");
        assertThat(p.fact()).isEqualTo(p.detail()).doesNotContain("kill in");
    }

    @Test
    void theKillTimeIsShownInTheOperatorsZone() {
        NodePressure p = NodePressure.of(vmi("2026-11-22T10:00:42Z", ""), NOW, ZoneOffset.ofHours(2));
        assertThat(p.detail()).contains("at 12:00:42");
    }

    @Test
    void aLostVmiSaysSoWithTheHandlersMessageVerbatimEvenIfADeadlineIsLeft() {
        String message = "The VirtualMachineInstance was lost: the kubelet killed its launcher pod on node node02 "
                + "(node-pressure eviction) before the live migration finished";
        NodePressure p = NodePressure.of(vmi("2026-11-22T10:00:42Z", message), NOW, ZoneOffset.UTC);
        assertThat(p.state()).isEqualTo(NodePressure.State.LOST);
        assertThat(p.label()).isEqualTo("Lost to node pressure");
        assertThat(p.detail()).isEqualTo(message);
        assertThat(p.tone()).isEqualTo(Badge.Tone.DANGER);
    }

    @Test
    void anUnreadableDeadlineStillSaysARaceIsOn() {
        NodePressure p = NodePressure.of(vmi("soon", ""), NOW, ZoneOffset.UTC);
        assertThat(p.state()).isEqualTo(NodePressure.State.RACING);
        assertThat(p.label()).isEqualTo("Node pressure");
        assertThat(p.detail()).contains("kill time unreadable: soon");
    }

    @Test
    void anUntouchedVmiHasNoBadge() {
        NodePressure p = NodePressure.of(vmi("", ""), NOW, ZoneOffset.UTC);
        assertThat(p.state()).isEqualTo(NodePressure.State.NONE);
        assertThat(p.label()).isEmpty();
        assertThat(p.fact()).isEqualTo("not affected");
    }
}
