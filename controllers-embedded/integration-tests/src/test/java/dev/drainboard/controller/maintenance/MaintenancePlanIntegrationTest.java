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
            // maxUnavailable 1: the next node is cordoned only after the one before is uncordoned (docs/maintenance.md).
            assertThat(c.mostCordoned).as("nodes cordoned at one time").hasValue(1);
            assertThat(c.client.nodes().list().getItems()).noneMatch(MaintenancePlanIntegrationTest::cordoned);
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
    @DisplayName("KubeVirt ≤ 1.4 (no KubeVirt CR: the default profile): the plan's migrations carry no target, the scheduler places them, the plan completes")
    void olderReleaseWithoutTargets() throws Exception {
        try (MaintenanceTestCluster c = new MaintenanceTestCluster(workDir)) {
            List<String> nodes = List.of("node01", "node02", "node03");
            nodes.forEach(c::node);
            for (int i = 1; i <= 3; i++) {
                c.createVmi("vm0" + i, "1Gi");
            }
            for (int i = 1; i <= 3; i++) {
                c.awaitRunningMigratable("vm0" + i);
            }
            c.create(new MaintenancePlan("seeds", new MaintenancePlanSpec(nodes, null, 1, null, null)));
            await().atMost(Duration.ofMinutes(5)).until(() -> c.plan("seeds").phase().finished());
            MaintenancePlanStatus status = c.plan("seeds").getStatus();
            assertThat(c.plan("seeds").phase()).as(status.message()).isEqualTo(MaintenancePlanStatus.Phase.Succeeded);
            List<VirtualMachineInstanceMigration> ours = c.migrations().stream().filter(m -> m.getMetadata().getAnnotations() != null
                    && "seeds".equals(m.getMetadata().getAnnotations().get(DrainboardAnnotations.MAINTENANCE_PLAN))).toList();
            assertThat(ours).isNotEmpty().allSatisfy(m -> assertThat(m.getSpec().getAddedNodeSelector()).isNullOrEmpty());
            assertThat(c.client.nodes().list().getItems()).noneMatch(MaintenancePlanIntegrationTest::cordoned);
            for (int i = 1; i <= 3; i++) {
                assertThat(c.vmi("vm0" + i).getStatus().getPhase()).isEqualTo("Running");
            }
        }
    }

    @Test
    @DisplayName("the controllers restarted in the middle of a node's drain: the new leader carries the plan on from its status")
    void survivesARestart() throws Exception {
        try (MaintenanceTestCluster c = new MaintenanceTestCluster(workDir)) {
            c.kubeVirtVersion("v1.6.0", KubeVirtProfile.V1_6);
            NODES.forEach(c::node);
            twelveVms(c);
            c.create(new MaintenancePlan("restarted", new MaintenancePlanSpec(NODES, null, 1, null, null)));
            await().atMost(MaintenanceTestCluster.WAIT).until(() -> c.plan("restarted").getStatus() != null
                    && c.plan("restarted").getStatus().nodes().get(1).phase() == NodePhase.Draining);
            c.restartControllers();
            await().atMost(Duration.ofMinutes(5)).until(() -> c.plan("restarted").phase().finished());
            MaintenancePlanStatus status = c.plan("restarted").getStatus();
            assertThat(c.plan("restarted").phase()).as(status.message()).isEqualTo(MaintenancePlanStatus.Phase.Succeeded);
            assertThat(status.nodes()).allSatisfy(n -> assertThat(n.phase()).isEqualTo(NodePhase.Done));
            assertThat(c.cordons).allSatisfy((node, times) -> assertThat(times).as(node).isEqualTo(1));
            assertThat(c.client.nodes().list().getItems()).noneMatch(MaintenancePlanIntegrationTest::cordoned);
            long made = c.migrations().stream().filter(m -> m.phase().orElse(null) == MigrationPhase.SUCCEEDED).count();
            assertThat(made).isEqualTo(status.plan().migrations().longValue());
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
            assertThat(c.client.nodes().list().getItems()).noneMatch(MaintenancePlanIntegrationTest::cordoned);
            await().atMost(MaintenanceTestCluster.WAIT).until(() -> c.migrations().stream().allMatch(VirtualMachineInstanceMigration::isFinal)
                    && c.client.resources(VirtualMachineInstance.class).inNamespace("default").list().getItems().stream()
                    .allMatch(v -> "Running".equals(v.getStatus().getPhase()) && v.getStatus().getEvacuationNodeName() == null));
        }
    }

    static void action(MaintenanceTestCluster c, String plan, String action) {
        c.client.resources(MaintenancePlan.class).withName(plan).patch(PatchContext.of(PatchType.JSON_MERGE),
                "{\"spec\":{\"action\":\"" + action + "\"}}");
    }

    static boolean cordoned(Node n) {
        return n.getSpec() != null && Boolean.TRUE.equals(n.getSpec().getUnschedulable());
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
