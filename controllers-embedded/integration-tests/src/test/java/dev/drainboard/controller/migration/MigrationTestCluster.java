package dev.drainboard.controller.migration;

import static org.awaitility.Awaitility.await;

import dev.drainboard.cluster.EmbeddedCluster;
import dev.drainboard.cluster.EmbeddedClusterOptions;
import dev.drainboard.controlplane.ControlPlane;
import dev.drainboard.controlplane.LocalControlPlane;
import dev.drainboard.kubevirt.KubeVirtProfile;
import dev.drainboard.kubevirt.api.KubeVirt;
import dev.drainboard.handler.NodeHandler;
import dev.drainboard.kubevirt.api.VirtualMachineInstance;
import dev.drainboard.kubevirt.api.VirtualMachineInstanceMigration;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.utils.Serialization;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * The whole control plane on the embedded cluster, as {@code drainboard serve} runs it: the controllers (no leader
 * election, shortened migration timings when asked) and the simulated nodes' handler.
 */
final class MigrationTestCluster implements AutoCloseable {

    static final Duration WAIT = Duration.ofSeconds(60);

    final EmbeddedCluster cluster;
    final KubernetesClient client;
    final ControlPlane plane;
    final NodeHandler handler;
    private final KubernetesClient handlerClient;

    MigrationTestCluster(Path workDir, MigrationTimings timings) throws Exception {
        cluster = EmbeddedCluster.start(EmbeddedClusterOptions.defaults().withPort(0).withKubeconfigOut(workDir.resolve("kubeconfig")));
        Config config = Config.fromKubeconfig(Files.readString(cluster.kubeconfig()));
        client = new KubernetesClientBuilder().withConfig(config).build();
        // Before the controllers start, so their MigrationPolicy informer lists at once.
        handlerClient = new KubernetesClientBuilder().withConfig(config).build();
        handler = new NodeHandler(handlerClient, cluster.hypervisors());
        handler.start();
        // As virt-controller's service account, as drainboard serve runs them (LocalControlPlane).
        plane = ControlPlane.builder(LocalControlPlane.asVirtController(config)).withoutLeaderElection().migrationTimings(timings).build();
        plane.start();
    }

    void node(String name, Map<String, String> annotations) {
        client.nodes().resource(new NodeBuilder().withNewMetadata().withName(name).withAnnotations(annotations).endMetadata().build()).create();
        await().atMost(WAIT).until(() -> cluster.hypervisors().serves(name));
    }

    /** A running, migratable VMI (container disk, 1 GiB guest) with this eviction strategy. */
    VirtualMachineInstance createVmi(String name, String strategy, Map<String, String> annotations) {
        VirtualMachineInstance vmi = Serialization.unmarshal("""
                apiVersion: kubevirt.io/v1
                kind: VirtualMachineInstance
                metadata: {name: %s, namespace: default}
                spec:
                  evictionStrategy: %s
                  networks:
                  - name: default
                    pod: {}
                  domain:
                    devices:
                      interfaces:
                      - name: default
                        masquerade: {}
                    memory: {guest: 1Gi}
                  volumes: [{name: root, containerDisk: {image: quay.io/containerdisks/cirros}}]
                """.formatted(name, strategy), VirtualMachineInstance.class);
        vmi.getMetadata().setAnnotations(annotations.isEmpty() ? null : annotations);
        return client.resources(VirtualMachineInstance.class).resource(vmi).create();
    }

    /** A KubeVirt CR whose status reports {@code version}; returns once the controllers run that release's profile. */
    void kubeVirtVersion(String version, KubeVirtProfile expected) {
        KubeVirt kv = Serialization.unmarshal("""
                apiVersion: kubevirt.io/v1
                kind: KubeVirt
                metadata: {name: kubevirt, namespace: kubevirt}
                spec: {}
                """, KubeVirt.class);
        client.resources(KubeVirt.class).resource(kv).create();
        client.resources(KubeVirt.class).inNamespace("kubevirt").withName("kubevirt").subresource("status")
                .patch(io.fabric8.kubernetes.client.dsl.base.PatchContext.of(io.fabric8.kubernetes.client.dsl.base.PatchType.JSON_MERGE),
                        "{\"status\":{\"observedKubeVirtVersion\":\"" + version + "\"}}");
        await().atMost(WAIT).until(() -> plane.clusterConfig().current().profile() == expected);
    }

    VirtualMachineInstance vmi(String name) {
        return client.resources(VirtualMachineInstance.class).inNamespace("default").withName(name).get();
    }

    void awaitRunningMigratable(String name) {
        await().atMost(WAIT).until(() -> {
            VirtualMachineInstance v = vmi(name);
            return v != null && v.getStatus() != null && "Running".equals(v.getStatus().getPhase()) && v.isMigratable();
        });
    }

    List<VirtualMachineInstanceMigration> migrations() {
        return client.resources(VirtualMachineInstanceMigration.class).inNamespace("default").list().getItems();
    }

    @Override
    public void close() {
        plane.close();
        handler.close();
        handlerClient.close();
        client.close();
        cluster.close();
    }
}
