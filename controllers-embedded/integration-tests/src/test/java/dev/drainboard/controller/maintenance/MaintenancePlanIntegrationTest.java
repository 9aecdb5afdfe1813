package dev.drainboard.controller.maintenance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.drainboard.kubevirt.DrainboardAnnotations;
import dev.drainboard.kubevirt.KubeVirtProfile;
import dev.drainboard.kubevirt.api.MigrationPhase;
import dev.drainboard.kubevirt.api.VirtualMachineInstance;
import dev.drainboard.kubevirt.api.VirtualMachineInstanceMigration;
import dev.drainboard.maintenance.MaintenancePlan;
import dev.drainboard.maintenance.MaintenancePlanSpec;
import dev.drainboard.maintenance.MaintenancePlanStatus;
import dev.drainboard.maintenance.MaintenancePlanStatus.NodePhase;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** Maintenance plans executed by the controllers on the embedded cluster, end to end. */
class MaintenancePlanIntegrationTest {

    static final List<String> NODES = List.of("node01", "node02", "node03", "node04");

    @TempDir
    Path workDir;

    @Test
    @DisplayName("4 nodes × 3 VMs, maxUnavailable 1: each node drained and uncordoned once, every VM running, migrations as planned")
    void rollingMaintenance() throws Exception {
        try (MaintenanceTestCluster c = new MaintenanceTestCluster(workDir)) {
            c.kubeVirtVersion("v1.6.0", KubeVirtProfile.V1_6);
            NODES.forEach(c::node);
            List<String> vms = twelveVms(c);

            c.create(new MaintenancePlan("rolling", new MaintenancePlanSpec(NODES, null, 1, null, null)));
            await().atMost(Duration.ofMinutes(5)).until(() -> c.plan("rolling").phase().finished());
            MaintenancePlan plan = c.plan("rolling");
            MaintenancePlanStatus status = plan.getStatus();
            assertThat(plan.phase()).as(status.message()).isEqualTo(MaintenancePlanStatus.Phase.Succeeded);
            assertThat(status.progress()).isEqualTo("4/4");
            assertThat(status.plan().batches()).hasSize(4).allSatisfy(b -> assertThat(b).hasSize(1));
            assertThat(status.nodes()).allSatisfy(n -> {
                assertThat(n.phase()).isEqualTo(NodePhase.Done);
                assertThat(n.cordonedByPlan()).isTrue();
                assertThat(n.actualSeconds()).isNotNull().isPositive();
                assertThat(n.drainedAt()).isNotNull();
            });
            // Each node cordoned exactly once, and schedulable again at the end.
            assertThat(c.cordons).containsOnlyKeys(NODES).allSatisfy((node, times) -> assertThat(times).as(node).isEqualTo(1));
            for (Node n : c.client.nodes().list().getItems()) {
                assertThat(n.getSpec().getUnschedulable()).as(n.getMetadata().getName()).isNotEqualTo(Boolean.TRUE);
            }
            for (String vm : vms) {
                VirtualMachineInstance v = c.vmi(vm);
                assertThat(v.getStatus().getPhase()).as(vm).isEqualTo("Running");
            }
            List<VirtualMachineInstanceMigration> made = c.migrations().stream()
                    .filter(m -> m.phase().orElse(null) == MigrationPhase.SUCCEEDED).toList();
            assertThat(made).hasSize(status.plan().migrations());
            assertThat(status.migrationsMade()).isEqualTo(status.plan().migrations());
            // No empty node to start with: the first node's 3 VMs move twice, the rest once.
            assertThat(status.plan().migrations()).isEqualTo(15);
            assertThat(status.plan().movedMoreThanOnce()).hasSize(3);
            // The plan's own migrations went where it said (KubeVirt ≥ 1.6: addedNodeSelector).
            for (VirtualMachineInstanceMigration m : made) {
                Map<String, String> a = m.getMetadata().getAnnotations();
                assertThat(a).containsEntry(DrainboardAnnotations.MAINTENANCE_PLAN, "rolling")
                        .containsEntry(DrainboardAnnotations.MIGRATION_CAUSE, "maintenance plan");
                assertThat(m.getSpec().getAddedNodeSelector()).containsEntry("kubernetes.io/hostname",
                        m.getStatus().getMigrationState().getTargetNode());
            }
            Map<String, Integer> moves = new HashMap<>();
            made.forEach(m -> moves.merge(m.getSpec().getVmiName(), 1, Integer::sum));
            status.plan().vms().forEach(v -> assertThat(moves.get(v.name())).as(v.name()).isEqualTo(v.hops().size() - 1));
        }
    }

    @Test
    @DisplayName("pause keeps the next node waiting; run resumes; abort cancels, uncordons what the plan cordoned, ends Aborted")
    void pauseAndAbort() throws Exception {
        try (MaintenanceTestCluster c = new MaintenanceTestCluster(workDir)) {
            c.kubeVirtVersion("v1.6.0", KubeVirtProfile.V1_6);
            NODES.forEach(c::node);
            twelveVms(c);
            c.create(new MaintenancePlan("paused", new MaintenancePlanSpec(NODES, null, 1, null, null)));
            await().atMost(MaintenanceTestCluster.WAIT).until(() -> c.plan("paused").getStatus() != null
                    && c.plan("paused").getStatus().nodes().stream().anyMatch(n -> n.phase() == NodePhase.Draining));
            action(c, "paused", "Pause");
            await().atMost(MaintenanceTestCluster.WAIT).until(() -> c.plan("paused").phase() == MaintenancePlanStatus.Phase.Paused);
            int started = startedNodes(c.plan("paused"));
            // While paused, no further node starts, even once the plan's migrations under way have ended.
            await().atMost(MaintenanceTestCluster.WAIT).until(() -> c.migrations().stream().allMatch(VirtualMachineInstanceMigration::isFinal));
            await().during(Duration.ofSeconds(3)).atMost(Duration.ofSeconds(10))
                    .until(() -> startedNodes(c.plan("paused")) == started && c.plan("paused").phase() == MaintenancePlanStatus.Phase.Paused);

            action(c, "paused", "Run");
            await().atMost(MaintenanceTestCluster.WAIT).until(() -> startedNodes(c.plan("paused")) > started);
            action(c, "paused", "Abort");
            await().atMost(MaintenanceTestCluster.WAIT).until(() -> c.plan("paused").phase() == MaintenancePlanStatus.Phase.Aborted);
            MaintenancePlanStatus status = c.plan("paused").getStatus();
            assertThat(status.finishedAt()).isNotNull();
            assertThat(status.nodes()).allSatisfy(n -> assertThat(n.phase()).isIn(NodePhase.Done, NodePhase.Skipped));
            assertThat(c.client.nodes().list().getItems()).allSatisfy(n ->
                    assertThat(n.getSpec().getUnschedulable()).as(n.getMetadata().getName()).isNotEqualTo(Boolean.TRUE));
            await().atMost(MaintenanceTestCluster.WAIT).until(() -> c.migrations().stream().allMatch(VirtualMachineInstanceMigration::isFinal)
                    && c.client.resources(VirtualMachineInstance.class).inNamespace("default").list().getItems().stream()
                    .allMatch(v -> "Running".equals(v.getStatus().getPhase()) && v.getStatus().getEvacuationNodeName() == null));
        }
    }

    static void action(MaintenanceTestCluster c, String plan, String action) {
        c.client.resources(MaintenancePlan.class).withName(plan).patch(PatchContext.of(PatchType.JSON_MERGE),
                "{\"spec\":{\"action\":\"" + action + "\"}}");
    }

    static int startedNodes(MaintenancePlan plan) {
        return (int) plan.getStatus().nodes().stream().filter(n -> n.phase() != NodePhase.Waiting).count();
    }

    /** Three 1Gi VMs per node, spread by the scheduler (it puts each on the least requested node). */
    static List<String> twelveVms(MaintenanceTestCluster c) {
        List<String> vms = new ArrayList<>();
        for (int i = 1; i <= 12; i++) {
            String name = "vm%02d".formatted(i);
            c.createVmi(name, "1Gi");
            vms.add(name);
        }
        vms.forEach(c::awaitRunningMigratable);
        Map<String, Integer> perNode = new HashMap<>();
        vms.forEach(v -> perNode.merge(c.vmi(v).getStatus().getNodeName(), 1, Integer::sum));
        assertThat(perNode).as("3 VMs on each node").containsOnlyKeys(NODES).allSatisfy((n, count) -> assertThat(count).isEqualTo(3));
        return vms;
    }
}
