package dev.drainboard.ui.maintenance;

import dev.drainboard.ui.model.MaintenancePlanRow;
import dev.drainboard.ui.model.MaintenancePlanRow.NodeLane;
import dev.drainboard.ui.model.MaintenancePlanRow.StrandedVm;
import dev.drainboard.ui.model.MaintenancePlanRow.VmMoves;

import java.time.Instant;
import java.util.List;

/** Plans for the tests: two batches of one node each, 60 s predicted per node. */
final class Plans {

    static final Instant T0 = Instant.parse("2026-11-28T10:00:00Z");

    private Plans() {
    }

    static NodeLane waiting(String node, int batch, double start, double seconds) {
        return new NodeLane(node, batch, "Waiting", start, seconds, null, null, null, 2, 0, false, "");
    }

    static MaintenancePlanRow preview() {
        return new MaintenancePlanRow("", MaintenancePlanRow.PREVIEW, "", "Run", List.of("node01", "node02"), "", 1, "none", 1,
                List.of(List.of("node01"), List.of("node02")),
                List.of(waiting("node01", 1, 0, 60), waiting("node02", 2, 60, 60)),
                List.of(new VmMoves("demo/a", List.of("node01", "node03"), ""),
                        new VmMoves("demo/b", List.of("node01", "node02", "node03"), "node02 was the only node with room")),
                List.of(), 3, 0, 120, null, null, null);
    }

    static MaintenancePlanRow plan(String name, String phase, String action, Instant started, Instant finished,
                                   double timeScale, List<NodeLane> nodes) {
        return new MaintenancePlanRow(name, phase, "", action, List.of("node01", "node02"), "", 1, "none", timeScale,
                List.of(List.of("node01"), List.of("node02")), nodes,
                List.of(new VmMoves("demo/a", List.of("node01", "node03"), "")),
                List.of(new StrandedVm("demo/pinned", "on node02: no other node matches its node selector")), 3, 1, 120,
                T0, started, finished);
    }

    static MaintenancePlanRow running(String name) {
        return plan(name, "Running", "Run", T0, null, 1, List.of(
                new NodeLane("node01", 1, "Draining", 0, 60, T0, null, null, 2, 1, true, ""),
                waiting("node02", 2, 60, 60)));
    }
}
