package dev.drainboard.handler;

import dev.drainboard.cluster.EmbeddedCluster;
import dev.drainboard.cluster.EmbeddedClusterOptions;
import dev.drainboard.cluster.hypervisor.SimulatedHypervisors;
import dev.drainboard.controlplane.ControlPlane;
import dev.drainboard.controlplane.LocalControlPlane;
import dev.drainboard.hypervisor.MigrationProgress;
import dev.drainboard.kubevirt.DrainboardAnnotations;
import dev.drainboard.kubevirt.api.KubeVirt;
import dev.drainboard.kubevirt.api.VirtualMachineInstance;
import dev.drainboard.kubevirt.api.VirtualMachineInstanceMigration;
import dev.drainboard.simulation.SimulationKnobs;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.utils.Serialization;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * An embedded cluster started with time scale 10 (as {@code serve --time-scale 10}): the controllers read the scale
 * from the KubeVirt CR only, and a live migration takes a tenth of its real time (1 GiB over a 512 MiB/s link: 2 s
 * real, 0.2 s here) while a migration that makes no progress is aborted at a tenth of {@code progressTimeout}, its
 * message speaking real seconds as the copied cluster would. Durations are the hypervisor's own (its transfer's start
 * and end), not the test's wall clock.
 */
@DisplayName("time scale 10: a migration in a tenth of its time, KubeVirt's progress timeout at a tenth too")
class TimeScaleIntegrationTest {

    private static final Duration WAIT = Duration.ofSeconds(90);
    private static final double SCALE = 10;

    @TempDir
    Path dir;

    @Test
    void migrationsAndTimeoutsRunTenTimesFaster() throws Exception {
        try (EmbeddedCluster cluster = EmbeddedCluster.start(EmbeddedClusterOptions.defaults().withPort(0)
                .withKubeconfigOut(dir.resolve("kubeconfig")).withTimeScale(SCALE))) {
            Config config = Config.fromKubeconfig(Files.readString(cluster.kubeconfig()));
            try (KubernetesClient client = new KubernetesClientBuilder().withConfig(config).build();
                 KubernetesClient handlerClient = new KubernetesClientBuilder().withConfig(config).build();
                 NodeHandler handler = new NodeHandler(handlerClient, cluster.hypervisors())) {
                handler.start();
                ControlPlane plane = ControlPlane.builder(LocalControlPlane.asVirtController(config)).withoutLeaderElection().build();
                plane.start();
                try {
                    KubeVirt kv = client.resources(KubeVirt.class).inNamespace("kubevirt").withName("kubevirt").get();
                    assertThat(kv.getMetadata().getAnnotations()).containsEntry(DrainboardAnnotations.TIME_SCALE, "10");
                    client.resources(KubeVirt.class).inNamespace("kubevirt").withName("kubevirt").patch(PatchContext.of(PatchType.JSON_MERGE),
                            "{\"spec\":{\"configuration\":{\"migrations\":{\"progressTimeout\":30}}}}");
                    await().atMost(WAIT).until(() -> plane.clusterConfig().current().timeScale() == SCALE
                            && plane.clusterConfig().current().migrations().progressTimeout() == 30);

                    node(client, cluster, "node01", Map.of());
                    node(client, cluster, "node02", Map.of());
                    VirtualMachineInstance vmi = createVmi(client);
                    await().atMost(WAIT).until(() -> running(client) != null);
                    String from = running(client).getStatus().getNodeName();
                    String uid = running(client).getMetadata().getUid();

                    MigrationProgress done = migrate(client, cluster, "first", from, uid);
                    assertThat(done.state()).isEqualTo(MigrationProgress.State.COMPLETED);
                    Duration took = Duration.between(done.startedAt(), done.endedAt());
                    // 1 GiB at 512 MiB/s is 2 s of real time: 0.2 s here (unscaled it would be 2 s).
                    assertThat(took).isBetween(Duration.ofMillis(195), Duration.ofMillis(1000));
                    await().atMost(WAIT).until(() -> running(client) != null && !from.equals(running(client).getStatus().getNodeName()));

                    // A link that carries nothing: no progress, so KubeVirt's progress timeout (30 s) aborts it at 3 s.
                    String stuckOn = running(client).getStatus().getNodeName();
                    client.nodes().withName(stuckOn).edit(n -> {
                        n.getMetadata().getAnnotations().put(SimulationKnobs.LINK_SPEED, "0");
                        return n;
                    });
                    MigrationProgress stuck = migrate(client, cluster, "second", stuckOn, uid);
                    assertThat(stuck.state()).isEqualTo(MigrationProgress.State.FAILED);
                    assertThat(Duration.between(stuck.startedAt(), stuck.endedAt()))
                            .as("the progress timeout, scaled").isBetween(Duration.ofSeconds(3), Duration.ofSeconds(10));
                    assertThat(stuck.failureReason()).matches("Aborting migration: stuck for 3\\d seconds");
                    await().atMost(WAIT).untilAsserted(() -> assertThat(client.resources(VirtualMachineInstanceMigration.class)
                            .inNamespace("default").withName("second").get().getStatus().getPhase()).isEqualTo("Failed"));
                } finally {
                    plane.close();
                }
            }
        }
    }

    private static void node(KubernetesClient client, EmbeddedCluster cluster, String name, Map<String, String> annotations) {
        client.nodes().resource(new NodeBuilder().withNewMetadata().withName(name).withAnnotations(annotations).endMetadata().build()).create();
        await().atMost(WAIT).until(() -> cluster.hypervisors().serves(name));
    }

    private static VirtualMachineInstance createVmi(KubernetesClient client) {
        return client.resources(VirtualMachineInstance.class).resource(Serialization.unmarshal("""
                apiVersion: kubevirt.io/v1
                kind: VirtualMachineInstance
                metadata: {name: vm, namespace: default}
                spec:
                  evictionStrategy: LiveMigrate
                  networks: [{name: default, pod: {}}]
                  domain:
                    devices: {interfaces: [{name: default, masquerade: {}}]}
                    memory: {guest: 1Gi}
                  volumes: [{name: root, containerDisk: {image: quay.io/containerdisks/cirros}}]
                """, VirtualMachineInstance.class)).create();
    }

    private static VirtualMachineInstance running(KubernetesClient client) {
        VirtualMachineInstance v = client.resources(VirtualMachineInstance.class).inNamespace("default").withName("vm").get();
        return v != null && v.getStatus() != null && "Running".equals(v.getStatus().getPhase()) && v.isMigratable() ? v : null;
    }

    /** Creates a VMIM and returns the source hypervisor's account of the transfer once it has ended. */
    private static MigrationProgress migrate(KubernetesClient client, EmbeddedCluster cluster, String name, String source, String uid) {
        client.resources(VirtualMachineInstanceMigration.class).resource(Serialization.unmarshal("""
                apiVersion: kubevirt.io/v1
                kind: VirtualMachineInstanceMigration
                metadata: {name: %s, namespace: default}
                spec: {vmiName: vm}
                """.formatted(name), VirtualMachineInstanceMigration.class)).create();
        var hypervisor = SimulatedHypervisors.of(cluster.hypervisors(), source);
        await().atMost(WAIT).until(() -> hypervisor.migration(uid).map(p -> p.state() != MigrationProgress.State.RUNNING
                && p.startedAt() != null && p.endedAt() != null).orElse(false));
        return hypervisor.migration(uid).orElseThrow();
    }
}
