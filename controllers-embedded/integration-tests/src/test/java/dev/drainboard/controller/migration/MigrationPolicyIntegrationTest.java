package dev.drainboard.controller.migration;

import dev.drainboard.hypervisor.MigrationProgress;
import dev.drainboard.kubevirt.api.MigrationState;
import dev.drainboard.kubevirt.api.VirtualMachineInstance;
import dev.drainboard.kubevirt.api.VirtualMachineInstanceMigration;
import dev.drainboard.ops.DrainOptions;
import dev.drainboard.ops.DrainResult;
import dev.drainboard.ops.Ops;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.utils.Serialization;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A MigrationPolicy on the embedded cluster decides a drain's migration: the migration controller picks the most
 * specific policy at the hand-off and writes its name and the resolved configuration on the VMI's migrationState;
 * the source node's handler transfers at the policy's bandwidth. The transfer's length is read from the simulated
 * hypervisor's own clock (start and end of the transfer), whose bytes can never move faster than the bandwidth
 * allows: a lower bound by causality, with no wall-clock guesswork.
 */
class MigrationPolicyIntegrationTest {

    @TempDir
    Path workDir;

    @Test
    void thePolicysBandwidthLimitsTheDrainsMigration() throws Exception {
        try (MigrationTestCluster c = new MigrationTestCluster(workDir, MigrationTimings.defaults())) {
            c.client.namespaces().withName("default").edit(ns -> {
                ns.getMetadata().setLabels(Map.of("team", "storage"));
                return ns;
            });
            // The less specific policy would let it go at 1 GiB/s; the one matching the namespace too wins.
            c.client.resource("""
                    apiVersion: migrations.kubevirt.io/v1alpha1
                    kind: MigrationPolicy
                    metadata: {name: a-fast}
                    spec:
                      selectors: {virtualMachineInstanceSelector: {app: archive}}
                      bandwidthPerMigration: 1Gi
                    """).create();
            c.client.resource("""
                    apiVersion: migrations.kubevirt.io/v1alpha1
                    kind: MigrationPolicy
                    metadata: {name: throttled}
                    spec:
                      selectors:
                        virtualMachineInstanceSelector: {app: archive}
                        namespaceSelector: {team: storage}
                      bandwidthPerMigration: 64Mi
                      completionTimeoutPerGiB: 800
                    """).create();
            c.node("node01", Map.of());
            VirtualMachineInstance created = c.client.resources(VirtualMachineInstance.class).inNamespace("default")
                    .resource(Serialization.unmarshal("""
                            apiVersion: kubevirt.io/v1
                            kind: VirtualMachineInstance
                            metadata: {name: archive, labels: {app: archive}}
                            spec:
                              evictionStrategy: LiveMigrate
                              domain: {devices: {interfaces: [{name: default, masquerade: {}}]}, memory: {guest: 256Mi}}
                              networks: [{name: default, pod: {}}]
                              volumes: [{name: root, containerDisk: {image: quay.io/containerdisks/cirros}}]
                            """, VirtualMachineInstance.class)).create();
            c.awaitRunningMigratable("archive");
            c.node("node02", Map.of());
            String uid = created.getMetadata().getUid();

            try (Ops ops = Ops.connect(Config.fromKubeconfig(Files.readString(c.cluster.kubeconfig())))) {
                DrainResult drained = ops.drain("node01", DrainOptions.defaults().withIgnoreDaemonSets(true)
                        .withTimeout(MigrationTestCluster.WAIT)).await();
                assertThat(drained.status()).as(drained.why()).isEqualTo(DrainResult.Status.DRAINED);
            }

            VirtualMachineInstance vmi = c.vmi("archive");
            assertThat(vmi.getStatus().getNodeName()).isEqualTo("node02");
            MigrationState state = vmi.getStatus().getMigrationState();
            assertThat(state.getCompleted()).isTrue();
            assertThat(state.getMigrationPolicyName()).isEqualTo("throttled");
            assertThat(state.getMigrationConfiguration().getBandwidthPerMigration().toString()).isEqualTo("64Mi");
            assertThat(state.getMigrationConfiguration().getCompletionTimeoutPerGiB()).isEqualTo(800);
            assertThat(state.getMigrationConfiguration().getProgressTimeout()).as("the cluster's default").isEqualTo(150);
            VirtualMachineInstanceMigration vmim = c.migrations().getFirst();
            await().atMost(MigrationTestCluster.WAIT).until(() -> c.migrations().getFirst().getStatus().getMigrationState() != null
                    && "throttled".equals(c.migrations().getFirst().getStatus().getMigrationState().getMigrationPolicyName()));
            assertThat(vmim.getStatus().getPhase()).isEqualTo("Succeeded");

            MigrationProgress transfer = c.cluster.hypervisors().forNode("node01").orElseThrow().migration(uid).orElseThrow();
            assertThat(transfer.state()).isEqualTo(MigrationProgress.State.COMPLETED);
            assertThat(transfer.totalBytes()).isEqualTo(256L << 20);
            // 256 MiB at 64 MiB/s: at least 4 s on the hypervisor's clock (the node's link, 512 MiB/s, would take 0.5 s).
            assertThat(Duration.between(transfer.startedAt(), transfer.endedAt())).isGreaterThanOrEqualTo(Duration.ofSeconds(4));
        }
    }

    @Test
    void withoutAMatchingPolicyTheClustersConfigurationIsWritten() throws Exception {
        try (MigrationTestCluster c = new MigrationTestCluster(workDir, MigrationTimings.defaults())) {
            c.client.resource("""
                    apiVersion: migrations.kubevirt.io/v1alpha1
                    kind: MigrationPolicy
                    metadata: {name: others}
                    spec:
                      selectors: {virtualMachineInstanceSelector: {app: other}}
                      bandwidthPerMigration: 1Mi
                    """).create();
            c.node("node01", Map.of());
            c.createVmi("plain", "LiveMigrate", Map.of());
            c.awaitRunningMigratable("plain");
            c.node("node02", Map.of());
            c.client.resource("""
                    apiVersion: kubevirt.io/v1
                    kind: VirtualMachineInstanceMigration
                    metadata: {name: move, namespace: default}
                    spec: {vmiName: plain}
                    """).create();

            await().atMost(MigrationTestCluster.WAIT).ignoreExceptions()
                    .until(() -> Boolean.TRUE.equals(c.vmi("plain").getStatus().getMigrationState().getCompleted()));
            MigrationState state = c.vmi("plain").getStatus().getMigrationState();
            assertThat(state.getMigrationPolicyName()).isNull();
            assertThat(state.getMigrationConfiguration().getBandwidthPerMigration().toString()).isEqualTo("0Mi");
            assertThat(state.getFailed()).isNull();
        }
    }
}
