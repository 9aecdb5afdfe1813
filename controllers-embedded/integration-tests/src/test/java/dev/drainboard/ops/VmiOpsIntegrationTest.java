package dev.drainboard.ops;

import dev.drainboard.kubevirt.DrainboardAnnotations;
import dev.drainboard.kubevirt.KubeVirtConditions;
import dev.drainboard.kubevirt.KubeVirtProfile;
import dev.drainboard.kubevirt.api.KubeVirt;
import dev.drainboard.kubevirt.api.MigrationPhase;
import dev.drainboard.kubevirt.api.VirtualMachineInstance;
import dev.drainboard.kubevirt.api.VirtualMachineInstanceMigration;
import dev.drainboard.simulation.SimulationKnobs;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.Map;

import static dev.drainboard.ops.OpsTestCluster.WAIT;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

@DisplayName("Cancel evacuation, migrate and cancel migration on the embedded cluster with Drainboard's control plane")
class VmiOpsIntegrationTest {

    static final String NODES = """
            apiVersion: v1
            kind: Node
            metadata: {name: node01, labels: {kubernetes.io/hostname: node01}}
            ---
            apiVersion: v1
            kind: Node
            metadata: {name: node02, labels: {kubernetes.io/hostname: node02}}
            ---
            apiVersion: v1
            kind: Namespace
            metadata: {name: demo}
            """;

    /** A VMI; {@code pinned} keeps it (and any migration target) on node01, {@code annotations} is a YAML flow map. */
    static String vmi(String name, boolean pinned, String annotations) {
        return """
                ---
                apiVersion: kubevirt.io/v1
                kind: VirtualMachineInstance
                metadata: {name: %s, namespace: demo, annotations: %s}
                spec:
                  evictionStrategy: LiveMigrate
                  %s
                  networks:
                  - name: default
                    pod: {}
                  domain:
                    memory: {guest: 1Gi}
                    resources: {requests: {memory: 1Gi}}
                    devices:
                      interfaces:
                      - name: default
                        masquerade: {}
                  volumes:
                  - name: rootdisk
                    containerDisk: {image: quay.io/containerdisks/alpine:3.20}
                """.formatted(name, annotations, pinned ? "nodeSelector: {kubernetes.io/hostname: node01}" : "");
    }

    @TempDir
    Path dir;

    @Test
    @DisplayName("cancel-evacuation is refused while the node carries the drain taint, clears the mark once it is gone")
    void cancelEvacuationWaitsForTheTaint() throws Exception {
        try (OpsTestCluster c = OpsTestCluster.start(dir, NODES + vmi("vm1", true, "{}"))) {
            c.awaitRunningLauncher("demo", "vm1");
            assertThat(c.ops.cancelEvacuation("demo", "vm1").changed()).isFalse();
            assertThat(c.ops.cancelEvacuation("demo", "vm1").message()).contains("not marked for evacuation");

            c.ops.nodes().addKubeVirtDrainTaint("node01");
            c.client.resources(VirtualMachineInstance.class).inNamespace("demo").withName("vm1").patch(PatchContext.of(PatchType.JSON),
                    "[{\"op\":\"add\",\"path\":\"/status/evacuationNodeName\",\"value\":\"node01\"}]");

            assertThatThrownBy(() -> c.ops.cancelEvacuation("demo", "vm1"))
                    .isInstanceOfSatisfying(OpsException.class, e -> assertThat(e.kind()).isEqualTo(OpsException.Kind.REFUSED))
                    .hasMessageContaining("node node01, which still carries the drain taint kubevirt.io/drain:NoSchedule");
            assertThat(c.vmi("demo", "vm1").getStatus().getEvacuationNodeName()).isEqualTo("node01");

            c.ops.nodes().removeKubeVirtDrainTaint("node01");
            VmiChange cancelled = c.ops.cancelEvacuation("demo", "vm1");
            assertThat(cancelled.changed()).isTrue();
            assertThat(cancelled.message()).isEqualTo("virtualmachineinstance/vm1 evacuation from node node01 cancelled");
            VirtualMachineInstance vmi = c.vmi("demo", "vm1");
            assertThat(vmi.isMarkedForEviction()).isFalse();
            assertThat(vmi.getStatus().getPhase()).isEqualTo("Running");
            assertThat(vmi.getStatus().getNodeName()).isEqualTo("node01");
        }
    }

    @Test
    @DisplayName("on KubeVirt 1.8 cancel-evacuation goes through virt-api's evacuate/cancel and clears the mark")
    void cancelEvacuationThroughVirtApiOnV18() throws Exception {
        try (OpsTestCluster c = OpsTestCluster.start(dir, NODES + vmi("vm1", true, "{}") + """
                ---
                apiVersion: kubevirt.io/v1
                kind: KubeVirt
                metadata: {name: kubevirt, namespace: kubevirt}
                spec: {}
                """)) {
            c.client.resources(KubeVirt.class).inNamespace("kubevirt").withName("kubevirt").subresource("status")
                    .patch(PatchContext.of(PatchType.JSON_MERGE), "{\"status\":{\"observedKubeVirtVersion\":\"v1.8.1\"}}");
            await().atMost(WAIT).until(() -> c.plane.controllers().orElseThrow().clusterConfig().current().profile()
                    == KubeVirtProfile.V1_7);
            c.awaitRunningLauncher("demo", "vm1");
            c.client.resources(VirtualMachineInstance.class).inNamespace("demo").withName("vm1").patch(PatchContext.of(PatchType.JSON),
                    "[{\"op\":\"add\",\"path\":\"/status/evacuationNodeName\",\"value\":\"node01\"}]");

            VmiChange cancelled = c.ops.cancelEvacuation("demo", "vm1");

            assertThat(cancelled.changed()).isTrue();
            assertThat(cancelled.message()).isEqualTo("virtualmachineinstance/vm1 evacuation from node node01 cancelled");
            assertThat(c.vmi("demo", "vm1").isMarkedForEviction()).isFalse();
            // A VMI that is not there: NOT_FOUND.
            assertThatThrownBy(() -> c.ops.cancelEvacuation("demo", "nothere"))
                    .isInstanceOfSatisfying(OpsException.class, e -> assertThat(e.kind()).isEqualTo(OpsException.Kind.NOT_FOUND));
        }
    }

    @Test
    @DisplayName("migrate moves a running migratable VMI to another node; a non-migratable one is refused with the reason")
    void migrateMovesTheVmi() throws Exception {
        try (OpsTestCluster c = OpsTestCluster.start(dir, NODES + vmi("vm1", false, "{}")
                + vmi("stuck", false, "{" + SimulationKnobs.LIVE_MIGRATABLE + ": \"false\"}"))) {
            c.awaitRunningLauncher("demo", "vm1");
            c.awaitRunningLauncher("demo", "stuck");
            String source = c.vmi("demo", "vm1").getStatus().getNodeName();

            VmiChange started = c.ops.migrate("demo", "vm1");
            assertThat(started.changed()).isTrue();
            assertThat(started.name()).startsWith("kubevirt-migrate-vm-");
            VirtualMachineInstanceMigration vmim = c.client.resources(VirtualMachineInstanceMigration.class)
                    .inNamespace("demo").withName(started.name()).get();
            assertThat(vmim.getSpec().getVmiName()).isEqualTo("vm1");
            assertThat(vmim.getMetadata().getAnnotations())
                    .containsEntry(DrainboardAnnotations.MIGRATION_CAUSE, DrainboardAnnotations.CAUSE_USER_REQUEST);

            await().atMost(WAIT).until(() -> {
                VirtualMachineInstance vmi = c.vmi("demo", "vm1");
                return "Running".equals(vmi.getStatus().getPhase()) && vmi.getStatus().getNodeName() != null
                        && !source.equals(vmi.getStatus().getNodeName());
            });
            await().atMost(WAIT).until(() -> c.client.resources(VirtualMachineInstanceMigration.class).inNamespace("demo")
                    .withName(started.name()).get().phase().orElse(null) == MigrationPhase.SUCCEEDED);

            assertThatThrownBy(() -> c.ops.migrate("demo", "stuck"))
                    .isInstanceOfSatisfying(OpsException.class, e -> assertThat(e.kind()).isEqualTo(OpsException.Kind.REFUSED))
                    .hasMessageContaining("VMI demo/stuck is not live-migratable: " + KubeVirtConditions.REASON_NOT_MIGRATABLE);
            assertThat(c.client.resources(VirtualMachineInstanceMigration.class).inNamespace("demo").list().getItems())
                    .noneMatch(m -> "stuck".equals(m.getSpec().getVmiName()));
            assertThatThrownBy(() -> c.ops.migrate("demo", "nothere"))
                    .isInstanceOfSatisfying(OpsException.class, e -> assertThat(e.kind()).isEqualTo(OpsException.Kind.NOT_FOUND));
        }
    }

    @Test
    @DisplayName("cancel-migration of a running migration removes the VMIM; the VMI keeps running on its source node")
    void cancelMigrationKeepsTheVmiWhereItWas() throws Exception {
        try (OpsTestCluster c = OpsTestCluster.start(dir, NODES + vmi("vm1", false, "{}"))) {
            c.awaitRunningLauncher("demo", "vm1");
            String source = c.vmi("demo", "vm1").getStatus().getNodeName();
            // 1Gi at 4Mi/s: the transfer takes minutes, so it is still running when cancelled.
            c.client.nodes().withName(source).edit(n -> {
                n.getMetadata().setAnnotations(Map.of(SimulationKnobs.LINK_SPEED, "4Mi"));
                return n;
            });

            String name = c.ops.migrate("demo", "vm1").name();
            assertThatThrownBy(() -> c.ops.migrate("demo", "vm1"))
                    .hasMessageContaining("VMI demo/vm1 already has an unfinished migration: " + name);
            await().atMost(WAIT).until(() -> c.client.resources(VirtualMachineInstanceMigration.class).inNamespace("demo")
                    .withName(name).get().phase().orElse(null) == MigrationPhase.RUNNING);

            VmiChange cancelled = c.ops.cancelMigration("demo", name);
            assertThat(cancelled.changed()).isTrue();
            await().atMost(WAIT).until(() -> c.client.resources(VirtualMachineInstanceMigration.class).inNamespace("demo")
                    .withName(name).get() == null);
            await().atMost(WAIT).untilAsserted(() -> {
                VirtualMachineInstance vmi = c.vmi("demo", "vm1");
                assertThat(vmi.getStatus().getPhase()).isEqualTo("Running");
                assertThat(vmi.getStatus().getNodeName()).isEqualTo(source);
            });
            assertThatThrownBy(() -> c.ops.cancelMigration("demo", name))
                    .isInstanceOfSatisfying(OpsException.class, e -> assertThat(e.kind()).isEqualTo(OpsException.Kind.NOT_FOUND));
        }
    }
}
