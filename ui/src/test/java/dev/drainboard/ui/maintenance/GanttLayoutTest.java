package dev.drainboard.ui.maintenance;

import dev.drainboard.ui.model.MaintenancePlanRow.NodeLane;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.List;

import static dev.drainboard.ui.maintenance.Plans.T0;
import static org.assertj.core.api.Assertions.assertThat;

class GanttLayoutTest {

    @Test
    void aPreviewHasPredictedBarsOnlyInThePlannersOrder() {
        var layout = GanttLayout.of(Plans.preview(), T0);
        assertThat(layout.lanes()).extracting(l -> l.node().name()).containsExactly("node01", "node02");
        assertThat(layout.lanes()).extracting(GanttLayout.Lane::predicted).containsExactly(
                new GanttLayout.Bar(0, 60, GanttLayout.Kind.PREDICTED), new GanttLayout.Bar(60, 120, GanttLayout.Kind.PREDICTED));
        assertThat(layout.lanes()).allSatisfy(l -> assertThat(l.actual()).isEmpty());
        assertThat(layout.now()).isNull();
        assertThat(layout.span()).isGreaterThan(120);
    }

    @Test
    void actualBarsAreTheClusterClockTimesTheTimeScale() {
        // A rehearsal at time scale 10: node01 drained in 3 s of the cluster's clock (30 real seconds), then 2 s
        // (20 real) of after-drain step; node02 started at 6 s (60 real) and is draining now, at 9 s (90 real).
        var plan = Plans.plan("p", "Running", "Run", T0, null, 10, List.of(
                new NodeLane("node01", 1, "Done", 0, 60, T0, T0.plusSeconds(3), T0.plusSeconds(5), 2, 2, true, ""),
                new NodeLane("node02", 2, "Draining", 60, 60, T0.plusSeconds(6), null, null, 2, 1, true, "")));
        var layout = GanttLayout.of(plan, T0.plusSeconds(9));
        assertThat(layout.lanes().get(0).actual()).containsExactly(
                new GanttLayout.Bar(0, 30, GanttLayout.Kind.DONE), new GanttLayout.Bar(30, 50, GanttLayout.Kind.DONE));
        assertThat(layout.lanes().get(1).actual()).containsExactly(new GanttLayout.Bar(60, 90, GanttLayout.Kind.DRAINING));
        assertThat(layout.now()).isEqualTo(90.0);
        assertThat(layout.lanes()).noneMatch(GanttLayout.Lane::late);
    }

    @Test
    void aNodeThatTakesLongerThanPredictedIsLateAndStretchesTheAxis() {
        var plan = Plans.plan("p", "Running", "Run", T0, null, 1, List.of(
                new NodeLane("node01", 1, "AfterDrain", 0, 60, T0, T0.plusSeconds(50), null, 2, 2, true, "")));
        var layout = GanttLayout.of(plan, T0.plusSeconds(200));
        assertThat(layout.lanes().getFirst().actual()).containsExactly(new GanttLayout.Bar(0, 50, GanttLayout.Kind.DRAINING),
                new GanttLayout.Bar(50, 200, GanttLayout.Kind.AFTER_DRAIN));
        assertThat(layout.lanes().getFirst().late()).isTrue();
        assertThat(layout.span()).isGreaterThanOrEqualTo(200);
    }

    @Test
    void anEndedPlanStopsAtItsEndNotAtNow() {
        var plan = Plans.plan("p", "Failed", "Run", T0, T0.plusSeconds(40), 1, List.of(
                new NodeLane("node01", 1, "Failed", 0, 60, T0, null, null, 2, 0, true, "evictions refused")));
        var layout = GanttLayout.of(plan, T0.plusSeconds(5000));
        assertThat(layout.lanes().getFirst().actual()).containsExactly(new GanttLayout.Bar(0, 40, GanttLayout.Kind.FAILED));
        assertThat(layout.now()).isNull();
    }

    @ParameterizedTest
    @CsvSource({"40, 5", "100, 15", "240, 30", "241, 60", "3000, 600", "30000, 7200"})
    void ticksAreRoundAndFew(double span, double step) {
        assertThat(GanttLayout.tickStep(span)).isEqualTo(step);
    }

    @ParameterizedTest
    @CsvSource({"0, 0", "30, 30 s", "60, 1 min", "90, 1 min 30 s", "3600, 1 h", "5400, 1 h 30"})
    void tickLabels(double seconds, String text) {
        assertThat(GanttLayout.tick(seconds)).isEqualTo(text);
    }
}
