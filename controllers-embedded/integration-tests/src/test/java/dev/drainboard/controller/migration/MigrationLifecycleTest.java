package dev.drainboard.controller.migration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.drainboard.kubevirt.KubeVirtLabels;
import dev.drainboard.kubevirt.DeschedulerAnnotations;
import dev.drainboard.kubevirt.api.VirtualMachineInstance;
import dev.drainboard.kubevirt.api.VirtualMachineInstanceMigration;
import dev.drainboard.kubevirt.api.VirtualMachineInstanceMigrationSpec;
import dev.drainboard.runtime.ControllerLoops;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.policy.v1.EvictionBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/** Migrations over their whole life on the embedded cluster: cancel before hand-off, the descheduler mark, clean-up. */
@DisplayName("migration lifecycle: cancel before hand-off, descheduler annotation, the 5 newest finished VMIMs kept")
class MigrationLifecycleTest {

    @TempDir
    Path workDir;

    static boolean marked(Pod pod) {
        return DeschedulerAnnotations.evictionInProgress(pod);
    }

    @Test
    @DisplayName("an evacuation marks its source pod for the descheduler; deleting the VMIM before hand-off removes the target pod and the mark, the VM stays")
    void cancelBeforeHandOff() throws Exception {
        try (MigrationTestCluster c = new MigrationTestCluster(workDir, MigrationTimings.defaults())) {
            c.node("node01", Map.of());
            c.createVmi("vm", "LiveMigrate", Map.of());
            c.awaitRunningMigratable("vm");
            Pod source = c.client.pods().inNamespace("default").list().getItems().getFirst();
            // No other node: the target pod stays Pending, so the migration never gets past Scheduling.
            c.client.nodes().withName("node01").patch(PatchContext.of(PatchType.JSON_MERGE),
                    "{\"spec\":{\"taints\":[{\"key\":\"kubevirt.io/drain\",\"effect\":\"NoSchedule\"}]}}");
            await().atMost(MigrationTestCluster.WAIT).until(() -> c.migrations().stream()
                    .anyMatch(m -> "Scheduling".equals(m.getStatus() == null ? null : m.getStatus().getPhase())));
            VirtualMachineInstanceMigration vmim = c.migrations().getFirst();
            await().atMost(MigrationTestCluster.WAIT).until(() -> marked(c.client.pods().inNamespace("default")
                    .withName(source.getMetadata().getName()).get()));
            List<Pod> targets = targetPods(c, vmim);
            assertThat(targets).hasSize(1);
            // Lift the taint first, so the evacuation controller does not start the next attempt meanwhile.
            c.client.nodes().withName("node01").patch(PatchContext.of(PatchType.JSON_MERGE), "{\"spec\":{\"taints\":null}}");

            c.client.resources(VirtualMachineInstanceMigration.class).inNamespace("default").withName(vmim.getMetadata().getName()).delete();

            await().atMost(MigrationTestCluster.WAIT).untilAsserted(() -> {
                assertThat(targetPods(c, vmim)).allMatch(p -> p.getMetadata().getDeletionTimestamp() != null);
                assertThat(c.client.resources(VirtualMachineInstanceMigration.class).inNamespace("default")
                        .withName(vmim.getMetadata().getName()).get()).isNull(); // finalizer released
                assertThat(marked(c.client.pods().inNamespace("default").withName(source.getMetadata().getName()).get())).isFalse();
            });
            VirtualMachineInstance vmi = c.vmi("vm");
            assertThat(vmi.getStatus().getPhase()).isEqualTo("Running");
            assertThat(vmi.getStatus().getNodeName()).isEqualTo("node01");
            assertThat(vmi.getStatus().getMigrationState()).isNull(); // never handed off
        }
    }

    @Test
    @DisplayName("an eviction the descheduler sends (KubeVirt v1.9): the VMI names it as the source, its VMIM gets priority system-maintenance, the name goes once the VMI moved")
    void deschedulerEviction() throws Exception {
        try (MigrationTestCluster c = new MigrationTestCluster(workDir, MigrationTimings.defaults())) {
            c.kubeVirtVersion("v1.9.0", dev.drainboard.kubevirt.KubeVirtProfile.V1_9); // priorities come with the queue
            c.node("node01", Map.of());
            c.node("node02", Map.of());
            c.createVmi("vm", "LiveMigrate", Map.of("team", "storage"));
            c.awaitRunningMigratable("vm");
            Pod source = c.client.pods().inNamespace("default").list().getItems().getFirst();
            String from = source.getSpec().getNodeName();

            // Refused with 429 (the evacuation starts); fabric8 retries a 429 later, which the answer then reflects.
            c.client.pods().inNamespace("default").withName(source.getMetadata().getName()).evict(
                    new EvictionBuilder().withNewMetadata().withName(source.getMetadata().getName()).withNamespace("default")
                            .addToAnnotations("requested-by", "sigs.k8s.io/descheduler").endMetadata().build());

            await().atMost(MigrationTestCluster.WAIT).untilAsserted(() -> assertThat(c.migrations())
                    .singleElement().satisfies(m -> assertThat(m.getSpec().getPriority()).isEqualTo("system-maintenance")));
            await().atMost(MigrationTestCluster.WAIT).untilAsserted(() -> {
                VirtualMachineInstance vmi = c.vmi("vm");
                assertThat(vmi.getStatus().getNodeName()).isNotEqualTo(from);
                assertThat(vmi.getMetadata().getAnnotations()).containsEntry("team", "storage")
                        .doesNotContainKey("kubevirt.io/eviction-source");
            });
        }
    }

    private static List<Pod> targetPods(MigrationTestCluster c, VirtualMachineInstanceMigration vmim) {
        return c.client.pods().inNamespace("default").withLabel(KubeVirtLabels.MIGRATION_JOB_UID, vmim.getMetadata().getUid())
                .list().getItems();
    }

    @Test
    @DisplayName("a target pod whose create timed out after it was written is not created again: one target pod, the migration succeeds")
    void targetPodCreateThatTimesOutAfterTheWrite() throws Exception {
        try (MigrationTestCluster c = new MigrationTestCluster(workDir, MigrationTimings.defaults())) {
            c.node("node01", Map.of());
            c.node("node02", Map.of());
            c.createVmi("vm", "LiveMigrate", Map.of());
            c.awaitRunningMigratable("vm");
            java.util.Set<String> targets = java.util.concurrent.ConcurrentHashMap.newKeySet();
            try (var watch = c.client.pods().inNamespace("default").withLabel(KubeVirtLabels.MIGRATION_JOB_UID)
                    .watch(new io.fabric8.kubernetes.client.Watcher<Pod>() {
                        @Override
                        public void eventReceived(Action action, Pod pod) {
                            targets.add(pod.getMetadata().getName());
                        }

                        @Override
                        public void onClose(io.fabric8.kubernetes.client.WatcherException cause) {
                        }
                    })) {
                c.cluster.faults().faultNext("POST", path -> path.endsWith("/namespaces/default/pods"),
                        dev.drainboard.cluster.apiserver.http.FaultInjection.Fault.TIMEOUT_AFTER_WRITE);
                VirtualMachineInstanceMigration m = new VirtualMachineInstanceMigration();
                m.setMetadata(new ObjectMetaBuilder().withNamespace("default").withName("move").build());
                m.setSpec(new VirtualMachineInstanceMigrationSpec("vm"));
                c.client.resources(VirtualMachineInstanceMigration.class).resource(m).create();
                await().atMost(MigrationTestCluster.WAIT).until(() -> {
                    VirtualMachineInstanceMigration now = c.client.resources(VirtualMachineInstanceMigration.class)
                            .inNamespace("default").withName("move").get();
                    return now != null && now.isFinal();
                });
                assertThat(c.cluster.faults().injected(dev.drainboard.cluster.apiserver.http.FaultInjection.Fault.TIMEOUT_AFTER_WRITE))
                        .as("the target pod's create answered 504 after it was done").isEqualTo(1);
                assertThat(c.client.resources(VirtualMachineInstanceMigration.class).inNamespace("default").withName("move").get()
                        .getStatus().getPhase()).isEqualTo("Succeeded");
                assertThat(targets).as("target pods ever seen").hasSize(1);
                assertThat(c.vmi("vm").getStatus().getPhase()).isEqualTo("Running");
            }
        }
    }

    @Test
    @DisplayName("seven migrations of one VMI back and forth between two nodes: each succeeds, the 5 newest finished VMIMs stay")
    void finishedMigrationsAreCollected() throws Exception {
        try (MigrationTestCluster c = new MigrationTestCluster(workDir, MigrationTimings.defaults())) {
            c.node("node01", Map.of());
            c.node("node02", Map.of());
            c.createVmi("vm", "LiveMigrate", Map.of());
            c.awaitRunningMigratable("vm");
            for (int i = 0; i < 7; i++) {
                String from = c.vmi("vm").getStatus().getNodeName();
                VirtualMachineInstanceMigration m = new VirtualMachineInstanceMigration();
                m.setMetadata(new ObjectMetaBuilder().withNamespace("default").withName("move-" + i).build());
                m.setSpec(new VirtualMachineInstanceMigrationSpec("vm"));
                c.client.resources(VirtualMachineInstanceMigration.class).resource(m).create();
                String name = "move-" + i;
                await().atMost(MigrationTestCluster.WAIT).until(() -> {
                    VirtualMachineInstanceMigration now = c.client.resources(VirtualMachineInstanceMigration.class)
                            .inNamespace("default").withName(name).get();
                    return now != null && now.isFinal();
                });
                assertThat(c.client.resources(VirtualMachineInstanceMigration.class).inNamespace("default").withName(name).get()
                        .getStatus().getPhase()).as(name + ": " + c.client.v1().events().inNamespace("default").list().getItems().stream()
                        .map(e -> e.getInvolvedObject().getName() + " " + e.getReason() + " " + e.getMessage()).toList())
                        .isEqualTo("Succeeded");
                assertThat(c.vmi("vm").getStatus().getNodeName()).isNotEqualTo(from);
            }
            await().atMost(MigrationTestCluster.WAIT).untilAsserted(() -> assertThat(c.migrations())
                    .extracting(m -> m.getMetadata().getName())
                    .containsExactlyInAnyOrder("move-2", "move-3", "move-4", "move-5", "move-6"));
            // Those five were seen while the clean-up could still be deleting; again once the controller is idle.
            ControllerLoops.awaitIdle(() -> c.plane.figures().stream().filter(f -> f.name().equals(MigrationController.NAME))
                    .findFirst().orElseThrow(), MigrationTestCluster.WAIT);
            assertThat(c.migrations()).extracting(m -> m.getMetadata().getName())
                    .containsExactlyInAnyOrder("move-2", "move-3", "move-4", "move-5", "move-6");
            assertThat(c.vmi("vm").getStatus().getPhase()).isEqualTo("Running");
        }
    }
}
