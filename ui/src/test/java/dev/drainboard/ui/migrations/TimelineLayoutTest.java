package dev.drainboard.ui.migrations;

import dev.drainboard.ui.model.MigrationRow;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static dev.drainboard.ui.migrations.Rows.T0;
import static dev.drainboard.ui.migrations.Rows.migration;
import static org.assertj.core.api.Assertions.assertThat;

class TimelineLayoutTest {

    private static final Instant NOW = T0.plusSeconds(600);
    private static final Instant FROM = NOW.minusSeconds(300);

    /**
     * Bars on one node as "start-end" (seconds after T0; end "-" while in flight) and the slot each one gets, in
     * the same order; the lane needs as many slots as the highest one used.
     */
    @ParameterizedTest(name = "{0} → slots {1}")
    @CsvSource(delimiter = '|', value = {
            "400-420                         | 0",
            "400-420, 420-440, 440--         | 0, 0, 0",                 // back to back: one slot reused
            "400-460, 410-430, 435-450       | 0, 1, 1",                 // the second slot frees up, is reused
            "400-460, 410-470, 420-480       | 0, 1, 2",                 // three at once: three rows
            "400--, 410--, 500-520           | 0, 1, 2",                 // two in flight keep their slots
    })
    void parallelMigrationsFromOneNodeStackInSlots(String bars, String slots) {
        List<MigrationRow> rows = new ArrayList<>();
        String[] specs = bars.split(",");
        for (int i = 0; i < specs.length; i++) {
            String spec = specs[i].strip();
            int dash = spec.indexOf('-');
            int start = Integer.parseInt(spec.substring(0, dash));
            String end = spec.substring(dash + 1);
            boolean flying = end.equals("-");
            rows.add(migration("m" + i, "vm" + i, flying ? "Running" : "Succeeded", "node01", start,
                    flying ? null : Integer.parseInt(end)));
        }

        List<TimelineLayout.Lane> lanes = TimelineLayout.layout(rows, FROM, NOW, r -> "");

        assertThat(lanes).hasSize(1);
        List<Integer> expected = java.util.Arrays.stream(slots.split(",")).map(String::strip).map(Integer::parseInt).toList();
        assertThat(lanes.getFirst().bars().stream().map(TimelineLayout.Bar::slot).toList()).isEqualTo(expected);
        assertThat(lanes.getFirst().slots()).isEqualTo(expected.stream().mapToInt(Integer::intValue).max().orElseThrow() + 1);
    }

    @Test
    void oneLanePerSourceNodeInNameOrderWithInFlightCounts() {
        List<MigrationRow> rows = List.of(
                migration("a", "vm-a", "Running", "node03", 500, null),
                migration("b", "vm-b", "Succeeded", "node01", 400, 450),
                migration("c", "vm-c", "Failed", "node03", 420, 430),
                migration("d", "vm-d", "Scheduling", "", 590, null));

        List<TimelineLayout.Lane> lanes = TimelineLayout.layout(rows, FROM, NOW, r -> Map.of("vm-d", "node02").getOrDefault(r.vmi(), ""));

        assertThat(lanes).extracting(TimelineLayout.Lane::node).containsExactly("node01", "node02", "node03");
        assertThat(lanes).extracting(TimelineLayout.Lane::inFlight).containsExactly(0, 1, 1);
        assertThat(lanes.get(2).bars()).extracting(TimelineLayout.Bar::outcome)
                .containsExactly(TimelineLayout.Outcome.FAILED, TimelineLayout.Outcome.RUNNING);
        assertThat(lanes.get(1).bars().getFirst().outcome()).isEqualTo(TimelineLayout.Outcome.PENDING);
    }

    @Test
    void anInFlightBarRunsToNowAndOldOnesLeaveTheWindow() {
        List<MigrationRow> rows = List.of(
                migration("old", "vm-old", "Succeeded", "node01", 10, 200),      // ended before the window
                migration("edge", "vm-edge", "Succeeded", "node01", 200, 320),   // ends inside it
                migration("now", "vm-now", "Running", "node02", 590, null),
                migration("unknown", "vm-x", "Pending", "", 595, null));

        List<TimelineLayout.Lane> lanes = TimelineLayout.layout(rows, FROM, NOW, r -> "");

        assertThat(lanes).extracting(TimelineLayout.Lane::node)
                .containsExactly(TimelineLayout.UNKNOWN_NODE, "node01", "node02");
        assertThat(lanes.get(1).bars()).extracting(b -> b.row().name()).containsExactly("edge");
        assertThat(lanes.get(2).bars().getFirst().end()).isEqualTo(NOW);
    }
}
