package dev.drainboard.ui.model;

import dev.drainboard.maintenance.MaintenancePlan;
import dev.drainboard.maintenance.MaintenancePlanSpec;
import dev.drainboard.maintenance.MaintenancePlanStatus;
import dev.drainboard.maintenance.MaintenancePlanStatus.NodePhase;
import dev.drainboard.maintenance.MaintenancePlanStatus.NodeStatus;
import dev.drainboard.maintenance.MaintenancePlanStatus.VmNote;
import dev.drainboard.ops.maintenance.MaintenancePlanPreview;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class MaintenancePlanRowTest {

    @Test
    void aPlanInTheClusterReadsItsSpecAndStatus() {
        MaintenancePlan plan = new MaintenancePlan("maintenance-ab12", new MaintenancePlanSpec(null, "pool=a", 2,
                MaintenancePlanSpec.AfterDrain.waitForAnnotation("example.com/upgraded"), MaintenancePlanSpec.Action.Pause));
        plan.setStatus(new MaintenancePlanStatus(MaintenancePlanStatus.Phase.Paused, "paused by the operator", 10.0, "1/2",
                new MaintenancePlanStatus.Plan(List.of(List.of("node01", "node02")), 4, 300.0,
                        List.of(new MaintenancePlanStatus.VmHops("demo", "a", List.of("node01", "node03", "node02"))),
                        List.of(new VmNote("demo", "a", "node03", "node03 is drained later")),
                        List.of(new VmNote("demo", "pinned", "node02", "no node matches its affinity"))),
                List.of(new NodeStatus("node01", 0, NodePhase.Done, true, 0.0, 150.0, 120.0, "2026-11-28T10:00:00Z",
                        "2026-11-28T10:00:10Z", "2026-11-28T10:00:12Z", 2, 2, null)),
                2, "2026-11-28T10:00:00Z", null));

        MaintenancePlanRow row = MaintenancePlanRow.of(plan);

        assertThat(row.name()).isEqualTo("maintenance-ab12");
        assertThat(row.phase()).isEqualTo("Paused");
        assertThat(row.action()).isEqualTo("Pause");
        assertThat(row.selector()).isEqualTo("pool=a");
        assertThat(row.maxUnavailable()).isEqualTo(2);
        assertThat(row.afterDrain()).isEqualTo("wait for annotation example.com/upgraded");
        assertThat(row.nodes()).singleElement().satisfies(n -> {
            assertThat(n.batch()).isEqualTo(1); // the status counts batches from 0, the console from 1
            assertThat(n.phase()).isEqualTo("Done");
            assertThat(n.drainedAt()).isEqualTo(Instant.parse("2026-11-28T10:00:10Z"));
        });
        assertThat(row.actualSeconds(Instant.parse("2026-11-28T10:00:30Z"))).isEqualTo(300.0); // 30 s × time scale 10
        assertThat(row.movedTwiceOrMore()).singleElement().satisfies(m -> {
            assertThat(m.vm()).isEqualTo("demo/a");
            assertThat(m.times()).isEqualTo(2);
            assertThat(m.why()).isEqualTo("node03 is drained later");
        });
        assertThat(row.stranded()).containsExactly(new MaintenancePlanRow.StrandedVm("demo/pinned", "on node02: no node matches its affinity"));
        assertThat(row.migrationsPredicted()).isEqualTo(4);
        assertThat(row.migrationsMade()).isEqualTo(2);
    }

    @Test
    void aPlanNotYetLookedAtIsPlanningWithNoNodes() {
        MaintenancePlanRow row = MaintenancePlanRow.of(new MaintenancePlan("p", new MaintenancePlanSpec(List.of("node01"), null, null, null, null)));
        assertThat(row.phase()).isEqualTo("Planning");
        assertThat(row.action()).isEqualTo("Run");
        assertThat(row.afterDrain()).isEqualTo("none");
        assertThat(row.nodes()).isEmpty();
        assertThat(row.startedAt()).isNull();
    }

    @Test
    void aPreviewSaysWhichNodesAreSkippedAndWhy() {
        var preview = new MaintenancePlanPreview(List.of(List.of("node01"), List.of("node02")), List.of(
                new MaintenancePlanPreview.NodePlan("node01", 0, null, 0, 40, List.of(
                        new MaintenancePlanPreview.Migration("demo", "a", "node01", "node03")), 0),
                new MaintenancePlanPreview.NodePlan("node02", 1, "demo/pinned cannot move", 40, 0, List.of(), 0)),
                List.of(new MaintenancePlanPreview.VmPlan("demo", "a", List.of("node01", "node03"))), 1, 40, List.of(),
                List.of(new VmNote("demo", "pinned", "node02", "cannot move")));
        var request = new MaintenanceRequest(List.of("node01", "node02"), "", 1, "Pause", "5m", "");
        MaintenancePlanRow row = MaintenancePlanRow.ofPreview(preview, request);
        assertThat(row.preview()).isTrue();
        assertThat(row.afterDrain()).isEqualTo("pause 5m");
        assertThat(row.nodes()).extracting(MaintenancePlanRow.NodeLane::phase).containsExactly("Waiting", "Skipped");
        assertThat(row.nodes().get(1).message()).isEqualTo("demo/pinned cannot move");
        assertThat(row.nodes().get(0).migrationsPredicted()).isEqualTo(1);
        assertThat(row.predictedSeconds()).isEqualTo(40);
    }

    @Test
    void theRequestBecomesTheSpec() {
        var spec = new MaintenanceRequest(List.of(), "pool=a", 3, "Pause", "1h30m", "").spec();
        assertThat(spec.nodes()).isNull();
        assertThat(spec.nodeSelector()).isEqualTo("pool=a");
        assertThat(spec.maxUnavailable()).isEqualTo(3);
        assertThat(spec.afterDrain()).isEqualTo(new MaintenancePlanSpec.AfterDrain(MaintenancePlanSpec.AfterDrain.Type.Pause, "1h30m", null));
        assertThat(spec.invalidBecause()).isNull();
    }
}
