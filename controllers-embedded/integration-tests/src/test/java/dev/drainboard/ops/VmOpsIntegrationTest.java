package dev.drainboard.ops;

import dev.drainboard.kubevirt.api.VirtualMachine;
import dev.drainboard.kubevirt.api.VirtualMachineInstance;
import dev.drainboard.kubevirt.api.VirtualMachineInstanceMigration;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static dev.drainboard.ops.OpsTestCluster.WAIT;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

@DisplayName("VM start/stop/restart through virt-api's subresources and migration to a chosen node, with Drainboard's control plane")
class VmOpsIntegrationTest {

    private static final String NODES = """
            apiVersion: v1
            kind: Node
            metadata: {name: node01, labels: {kubernetes.io/hostname: node01}}
            status: {capacity: {cpu: "8", memory: 16Gi, pods: "110"}, allocatable: {cpu: "8", memory: 16Gi, pods: "110"}}
            ---
            apiVersion: v1
            kind: Node
            metadata: {name: node02, labels: {kubernetes.io/hostname: node02}}
            status: {capacity: {cpu: "8", memory: 16Gi, pods: "110"}, allocatable: {cpu: "8", memory: 16Gi, pods: "110"}}
            ---
            apiVersion: v1
            kind: Node
            metadata: {name: node03, labels: {kubernetes.io/hostname: node03}}
            spec: {unschedulable: true}
            ---
            apiVersion: v1
            kind: Namespace
            metadata: {name: demo}
            """;

    private static String vm(String name, String runStrategy) {
        return """
                ---
                apiVersion: kubevirt.io/v1
                kind: VirtualMachine
                metadata: {name: %s, namespace: demo}
                spec:
                  runStrategy: %s
                  template:
                    spec:
                      evictionStrategy: LiveMigrate
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
                """.formatted(name, runStrategy);
    }

    @TempDir
    Path dir;

    @Test
    @DisplayName("a Halted VM starts, restarts with a new VMI, stops; virt-api's refusals come back as they are")
    void startRestartStop() throws Exception {
        try (OpsTestCluster c = OpsTestCluster.start(dir, NODES + vm("web", "Halted") + vm("db", "Manual"))) {
            assertThatThrownBy(() -> c.ops.vm("demo", "web", VmOps.Action.RESTART))
                    .isInstanceOfSatisfying(OpsException.class, e -> assertThat(e.kind()).isEqualTo(OpsException.Kind.REFUSED))
                    .hasMessage("Operation cannot be fulfilled on virtualmachine.kubevirt.io \"web\": RunStategy Halted does not support manual restart requests");

            assertThat(c.ops.vm("demo", "web", VmOps.Action.START).message()).isEqualTo("virtualmachine/web started");
            assertThat(c.client.resources(VirtualMachine.class).inNamespace("demo").withName("web").get().getSpec().getRunStrategy())
                    .isEqualTo("Always");
            c.awaitRunningLauncher("demo", "web");
            String first = c.vmi("demo", "web").getMetadata().getUid();
            assertThatThrownBy(() -> c.ops.vm("demo", "web", VmOps.Action.START))
                    .hasMessage("Operation cannot be fulfilled on virtualmachine.kubevirt.io \"web\": VM is already running");

            c.ops.vm("demo", "web", VmOps.Action.RESTART);
            await().atMost(WAIT).until(() -> {
                VirtualMachineInstance vmi = c.vmi("demo", "web");
                return vmi != null && !vmi.getMetadata().getUid().equals(first) && "Running".equals(vmi.getStatus().getPhase());
            });
            await().atMost(WAIT).until(() -> {
                var status = c.client.resources(VirtualMachine.class).inNamespace("demo").withName("web").get().getStatus();
                return status.getStateChangeRequests() == null || status.getStateChangeRequests().isEmpty();
            });

            c.ops.vm("demo", "web", VmOps.Action.STOP);
            await().atMost(WAIT).until(() -> c.vmi("demo", "web") == null);
            await().atMost(WAIT).until(() -> "Stopped".equals(c.client.resources(VirtualMachine.class).inNamespace("demo")
                    .withName("web").get().getStatus().getPrintableStatus()));

            // Manual: start and stop are requests the VM controller acts on; the run strategy stays Manual
            assertThatThrownBy(() -> c.ops.vm("demo", "db", VmOps.Action.STOP))
                    .hasMessage("Operation cannot be fulfilled on virtualmachine.kubevirt.io \"db\": VM is not running");
            c.ops.vm("demo", "db", VmOps.Action.START);
            c.awaitRunningLauncher("demo", "db");
            c.ops.vm("demo", "db", VmOps.Action.STOP);
            await().atMost(WAIT).until(() -> c.vmi("demo", "db") == null);
            // The VM controller writes the VM's status after it sees the VMI gone.
            await().atMost(WAIT).until(() -> "Stopped".equals(c.client.resources(VirtualMachine.class).inNamespace("demo")
                    .withName("db").get().getStatus().getPrintableStatus()));
            assertThat(c.client.resources(VirtualMachine.class).inNamespace("demo").withName("db").get().getSpec().getRunStrategy())
                    .isEqualTo("Manual");
        }
    }

    @Test
    @DisplayName("migrate to a chosen node: a node that fits gets the VMI; a cordoned node is refused with the scheduler's reason")
    void migrateToAChosenNode() throws Exception {
        try (OpsTestCluster c = OpsTestCluster.start(dir, NODES + vm("web", "Always"))) {
            c.cluster.setKubeVirtVersion("v1.6.2");
            c.awaitRunningLauncher("demo", "web");
            String source = c.vmi("demo", "web").getStatus().getNodeName();
            String other = source.equals("node01") ? "node02" : "node01";

            List<MigrationTargets.Fit> fits = c.ops.migrationTargets("demo", "web");
            assertThat(fits).extracting(MigrationTargets.Fit::node).containsExactly("node01", "node02", "node03");
            assertThat(fits).filteredOn(f -> f.node().equals(other)).singleElement().extracting(MigrationTargets.Fit::fits).isEqualTo(true);
            assertThat(fits).filteredOn(f -> f.node().equals(source)).singleElement()
                    .extracting(MigrationTargets.Fit::why).isEqualTo("the VMI runs on this node");
            MigrationTargets.Fit cordoned = fits.stream().filter(f -> f.node().equals("node03")).findFirst().orElseThrow();
            assertThat(cordoned.fits()).isFalse();
            assertThat(cordoned.why()).contains("unschedulable");

            assertThatThrownBy(() -> c.ops.migrateTo("demo", "web", "node03"))
                    .isInstanceOfSatisfying(OpsException.class, e -> assertThat(e.kind()).isEqualTo(OpsException.Kind.REFUSED))
                    .hasMessageStartingWith("virtualmachineinstance \"web\" does not fit on node node03: ");
            assertThat(c.client.resources(VirtualMachineInstanceMigration.class).inNamespace("demo").list().getItems()).isEmpty();

            VmiChange started = c.ops.migrateTo("demo", "web", other);
            VirtualMachineInstanceMigration vmim = c.client.resources(VirtualMachineInstanceMigration.class).inNamespace("demo")
                    .withName(started.name()).get();
            assertThat(vmim.getSpec().getAddedNodeSelector()).isEqualTo(Map.of("kubernetes.io/hostname", other));
            await().atMost(WAIT).until(() -> other.equals(c.vmi("demo", "web").getStatus().getNodeName()));
        }
    }

    @Test
    @DisplayName("before KubeVirt 1.6 migrating to a chosen node is not offered: refused, nothing created")
    void notBeforeOneSix() throws Exception {
        try (OpsTestCluster c = OpsTestCluster.start(dir, NODES + vm("web", "Always"))) {
            c.cluster.setKubeVirtVersion("v1.5.1");
            c.awaitRunningLauncher("demo", "web");
            assertThatThrownBy(() -> c.ops.migrateTo("demo", "web", "node02"))
                    .hasMessage("migrating to a chosen node needs KubeVirt 1.6 or later (the migration's addedNodeSelector); this cluster runs KubeVirt 1.5");
            assertThat(c.client.resources(VirtualMachineInstanceMigration.class).inNamespace("demo").list().getItems()).isEmpty();
        }
    }
}
