package dev.drainboard.controller.maintenance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.drainboard.maintenance.MaintenancePlan;
import dev.drainboard.maintenance.MaintenancePlanSpec;
import dev.drainboard.maintenance.MaintenancePlanSpec.AfterDrain;
import dev.drainboard.maintenance.MaintenancePlanStatus;
import dev.drainboard.maintenance.MaintenancePlanStatus.NodePhase;
import dev.drainboard.maintenance.MaintenancePlanStatus.NodeStatus;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * What a maintenance plan leaves behind when its leader, the plan itself or one of its nodes goes away mid-run
 * (docs/maintenance.md, "When things go away").
 */
class MaintenancePlanEdgeCasesTest {

    static final List<String> NODES = List.of("node01", "node02");
    static final String READY = "example.com/upgraded";

    @TempDir
    Path workDir;

    @Test
    @DisplayName("a leader that dies right after a cordon, before it wrote the status: the next pass still owns the cordon and uncordons")
    void leaderDiesAfterTheCordon() throws Exception {
        AtomicBoolean died = new AtomicBoolean();
        try (MaintenanceTestCluster c = new MaintenanceTestCluster(workDir, actions -> dyingAfterFirstCordon(actions, died))) {
            NODES.forEach(c::node);
            c.create(new MaintenancePlan("crash", new MaintenancePlanSpec(NODES, null, 1, null, null)));
            await().atMost(Duration.ofMinutes(2)).until(() -> c.plan("crash").phase().finished());
            MaintenancePlanStatus status = c.plan("crash").getStatus();
            assertThat(died).isTrue();
            assertThat(c.plan("crash").phase()).as(status.message()).isEqualTo(MaintenancePlanStatus.Phase.Succeeded);
            assertThat(status.nodes()).allSatisfy(n -> assertThat(n.cordonedByPlan()).as(n.name()).isTrue());
            assertThat(c.client.nodes().list().getItems()).noneMatch(MaintenancePlanIntegrationTest::cordoned);
        }
    }

    @Test
    @DisplayName("a plan deleted while a node it cordoned waits: the node is uncordoned before the plan goes")
    void planDeletedMidRun() throws Exception {
        try (MaintenanceTestCluster c = new MaintenanceTestCluster(workDir)) {
            NODES.forEach(c::node);
            c.create(new MaintenancePlan("deleted", new MaintenancePlanSpec(NODES, null, 1, AfterDrain.waitForAnnotation(READY), null)));
            String held = awaitAfterDrain(c, "deleted").name();
            assertThat(c.plan("deleted").getMetadata().getFinalizers()).contains(MaintenancePlan.FINALIZER);
            assertThat(c.client.nodes().withName(held).get().getSpec().getUnschedulable()).isTrue();

            c.client.resources(MaintenancePlan.class).withName("deleted").delete();
            await().atMost(MaintenanceTestCluster.WAIT).until(() -> c.plan("deleted") == null);
            assertThat(c.client.nodes().list().getItems()).noneMatch(MaintenancePlanIntegrationTest::cordoned);
        }
    }

    @Test
    @DisplayName("a finished plan holds no finalizer: kubectl delete needs no controller")
    void finishedPlanLetsGo() throws Exception {
        try (MaintenanceTestCluster c = new MaintenanceTestCluster(workDir)) {
            NODES.forEach(c::node);
            c.create(new MaintenancePlan("done", new MaintenancePlanSpec(NODES, null, 1, null, null)));
            await().atMost(Duration.ofMinutes(2)).until(() -> c.plan("done").phase().finished()
                    && (c.plan("done").getMetadata().getFinalizers() == null || c.plan("done").getMetadata().getFinalizers().isEmpty()));
            assertThat(c.plan("done").phase()).isEqualTo(MaintenancePlanStatus.Phase.Succeeded);
        }
    }

    @Test
    @DisplayName("nodes deleted mid-plan (one after its drain, one before its turn): each Skipped with why, the plan ends")
    void nodesDeletedMidPlan() throws Exception {
        try (MaintenanceTestCluster c = new MaintenanceTestCluster(workDir)) {
            NODES.forEach(c::node);
            c.create(new MaintenancePlan("shrinking", new MaintenancePlanSpec(NODES, null, 1, AfterDrain.waitForAnnotation(READY), null)));
            String drained = awaitAfterDrain(c, "shrinking").name();
            String waiting = NODES.stream().filter(n -> !n.equals(drained)).findFirst().orElseThrow();
            c.client.nodes().withName(drained).delete();
            c.client.nodes().withName(waiting).delete();

            await().atMost(MaintenanceTestCluster.WAIT).until(() -> c.plan("shrinking").phase().finished());
            MaintenancePlanStatus status = c.plan("shrinking").getStatus();
            assertThat(c.plan("shrinking").phase()).isEqualTo(MaintenancePlanStatus.Phase.Failed);
            assertThat(status.nodes()).allSatisfy(n -> assertThat(n.phase()).as(n.name()).isEqualTo(NodePhase.Skipped));
            assertThat(node(status, drained).message()).isEqualTo("node " + drained + " was deleted from the cluster after its drain");
            assertThat(node(status, waiting).message()).isEqualTo("node " + waiting + " was deleted from the cluster before its turn");
            assertThat(status.message()).startsWith("0 of 2 nodes maintained; not maintained: ");
        }
    }

    @Test
    @DisplayName("a batch of two nodes: its migrations are created one of each node in turn, so the nodes share the slots")
    void batchMigrationsCreatedRoundRobin() throws Exception {
        List<String> from = new java.util.concurrent.CopyOnWriteArrayList<>();
        try (MaintenanceTestCluster c = new MaintenanceTestCluster(workDir, actions -> recordingMigrations(actions, from))) {
            // Three VMIs on node01, then two on node02 (node01 cordoned meanwhile).
            c.node("node01");
            List<String> vmis = List.of("vm-a", "vm-b", "vm-c", "vm-d", "vm-e");
            vmis.subList(0, 3).forEach(name -> c.createVmi(name, "64Mi"));
            vmis.subList(0, 3).forEach(c::awaitRunningMigratable);
            c.node("node02");
            unschedulable(c, "node01", true);
            vmis.subList(3, 5).forEach(name -> c.createVmi(name, "64Mi"));
            vmis.subList(3, 5).forEach(c::awaitRunningMigratable);
            unschedulable(c, "node01", false);
            java.util.Map<String, Long> onNode = vmis.stream().collect(java.util.stream.Collectors.groupingBy(
                    name -> c.vmi(name).getStatus().getNodeName(), java.util.stream.Collectors.counting()));
            assertThat(onNode).isEqualTo(java.util.Map.of("node01", 3L, "node02", 2L));
            c.node("node03"); // where they go: outside the plan

            c.create(new MaintenancePlan("batch", new MaintenancePlanSpec(NODES, null, 2, null, null)));
            await().atMost(Duration.ofMinutes(2)).until(() -> c.plan("batch").phase().finished());
            assertThat(c.plan("batch").phase()).as(c.plan("batch").getStatus().message()).isEqualTo(MaintenancePlanStatus.Phase.Succeeded);

            // Round-robin: while both nodes have migrations left, no node gets two in a row.
            int alternating = 2 * (int) Math.min(onNode.get("node01"), onNode.get("node02"));
            assertThat(from).hasSize(vmis.size());
            for (int i = 1; i < alternating; i++) {
                assertThat(from.get(i)).as("migration %d of %s", i, from).isNotEqualTo(from.get(i - 1));
            }
        }
    }

    private static NodeStatus awaitAfterDrain(MaintenanceTestCluster c, String plan) {
        await().atMost(MaintenanceTestCluster.WAIT).until(() -> afterDrain(c.plan(plan)).isPresent());
        return afterDrain(c.plan(plan)).orElseThrow();
    }

    private static Optional<NodeStatus> afterDrain(MaintenancePlan plan) {
        return plan.getStatus() == null ? Optional.empty()
                : plan.getStatus().nodes().stream().filter(n -> n.phase() == NodePhase.AfterDrain).findFirst();
    }

    private static NodeStatus node(MaintenancePlanStatus status, String name) {
        return status.nodes().stream().filter(n -> n.name().equals(name)).findFirst().orElseThrow();
    }

    private static void unschedulable(MaintenanceTestCluster c, String node, boolean value) {
        c.client.nodes().withName(node).patch(io.fabric8.kubernetes.client.dsl.base.PatchContext.of(
                io.fabric8.kubernetes.client.dsl.base.PatchType.JSON_MERGE), "{\"spec\":{\"unschedulable\":" + value + "}}");
    }

    /** The real actions; the node each migration leaves is added to {@code from}, in the order they are created. */
    private static MaintenanceActions recordingMigrations(MaintenanceActions real, List<String> from) {
        return (MaintenanceActions) Proxy.newProxyInstance(MaintenanceActions.class.getClassLoader(),
                new Class<?>[] {MaintenanceActions.class}, (proxy, method, args) -> {
                    if (method.getName().equals("migrate")) {
                        from.add((String) args[3]);
                    }
                    try {
                        return method.invoke(real, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
    }

    /** The real actions, except that the first cordon is followed by the process "dying": the pass ends there. */
    private static MaintenanceActions dyingAfterFirstCordon(MaintenanceActions real, AtomicBoolean died) {
        return (MaintenanceActions) Proxy.newProxyInstance(MaintenanceActions.class.getClassLoader(),
                new Class<?>[] {MaintenanceActions.class}, (proxy, method, args) -> {
                    Object result;
                    try {
                        result = method.invoke(real, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                    if (method.getName().equals("cordon") && died.compareAndSet(false, true)) {
                        throw new IllegalStateException("the leader died after cordoning " + args[0]);
                    }
                    return result;
                });
    }
}
