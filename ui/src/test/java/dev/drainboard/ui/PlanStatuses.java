package dev.drainboard.ui;

import dev.drainboard.maintenance.MaintenancePlan;
import dev.drainboard.maintenance.MaintenancePlanStatus;
import dev.drainboard.maintenance.MaintenancePlanStatus.NodePhase;
import dev.drainboard.maintenance.MaintenancePlanStatus.NodeStatus;
import dev.drainboard.ops.MaintenancePlans;
import dev.drainboard.ops.maintenance.MaintenancePlanPreview;
import io.fabric8.kubernetes.client.KubernetesClient;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;

/**
 * Writes a plan's status as its executor (the controllers' leader) would, from the planner's own preview: the console
 * tests follow a plan through Running, Paused and its end without depending on the executor's timing.
 */
final class PlanStatuses {

    private PlanStatuses() {
    }

    /** Where each node is: the first {@code done} nodes are Done, the next one is in {@code current}, the rest Waiting. */
    static void write(KubernetesClient client, String plan, MaintenancePlanStatus.Phase phase, int done, NodePhase current,
                      Instant started, boolean finished) {
        MaintenancePlan mp = client.resources(MaintenancePlan.class).withName(plan).get();
        MaintenancePlanPreview preview = new MaintenancePlans(client).preview(mp.getSpec());
        List<NodeStatus> nodes = new ArrayList<>();
        int made = 0;
        Instant t = started;
        for (int i = 0; i < preview.nodes().size(); i++) {
            var n = preview.nodes().get(i);
            long took = Math.max(20, Math.round(n.predictedSeconds() * (i % 2 == 0 ? 1.1 : 0.9)));
            if (i < done) {
                Instant end = t.plusSeconds(took);
                nodes.add(new NodeStatus(n.name(), n.batch(), n.isSkipped() ? NodePhase.Skipped : NodePhase.Done, !n.isSkipped(),
                        n.predictedStartSeconds(), n.predictedSeconds(), (double) took, n.isSkipped() ? null : ts(t),
                        n.isSkipped() ? null : ts(end.minusSeconds(took / 4)), n.isSkipped() ? null : ts(end),
                        n.migrations().size(), n.migrations().size(), n.skipped()));
                made += n.migrations().size();
                t = n.isSkipped() ? t : end;
            } else if (i == done && current != null) {
                int half = n.migrations().size() / 2;
                nodes.add(new NodeStatus(n.name(), n.batch(), current, true, n.predictedStartSeconds(), n.predictedSeconds(),
                        null, ts(t), null, null, n.migrations().size(), half, null));
                made += half;
            } else {
                nodes.add(new NodeStatus(n.name(), n.batch(), n.isSkipped() && finished ? NodePhase.Skipped : NodePhase.Waiting,
                        false, n.predictedStartSeconds(), n.predictedSeconds(), null, null, null, null, n.migrations().size(), 0,
                        n.skipped()));
            }
        }
        int migrations = made;
        Instant end = t;
        client.resources(MaintenancePlan.class).withName(plan).editStatus(p -> {
            p.setStatus(new MaintenancePlanStatus(phase, phase == MaintenancePlanStatus.Phase.Paused ? "paused by the operator" : null,
                    1.0, done + "/" + preview.nodes().size(), preview.toStatus(), nodes, migrations, ts(started),
                    finished ? ts(end) : null));
            return p;
        });
    }

    private static String ts(Instant t) {
        return t.truncatedTo(ChronoUnit.SECONDS).toString();
    }
}
