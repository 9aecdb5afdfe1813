package dev.drainboard.controller.replicaset;

import static org.awaitility.Awaitility.await;

import dev.drainboard.cluster.EmbeddedCluster;
import dev.drainboard.cluster.EmbeddedClusterOptions;
import dev.drainboard.controlplane.ControlPlane;
import dev.drainboard.handler.NodeHandler;
import dev.drainboard.kubevirt.api.Condition;
import dev.drainboard.kubevirt.api.Conditions;
import dev.drainboard.kubevirt.api.VirtualMachineInstance;
import dev.drainboard.kubevirt.api.VirtualMachineInstanceReplicaSet;
import dev.drainboard.ops.Ops;
import io.fabric8.kubernetes.api.model.Event;
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
import java.util.Optional;

/**
 * An empty embedded cluster with simulated nodes, the whole control plane as {@code drainboard serve} runs it
 * (controllers without leader election, node handler), and {@link Ops} on it.
 */
final class ReplicaSetTestCluster implements AutoCloseable {

    static final Duration WAIT = Duration.ofSeconds(60);
    static final String NS = "default";

    final EmbeddedCluster cluster;
    final KubernetesClient client;
    final ControlPlane plane;
    final Ops ops;
    private final NodeHandler handler;
    private final KubernetesClient handlerClient;

    ReplicaSetTestCluster(Path workDir) throws Exception {
        cluster = EmbeddedCluster.start(EmbeddedClusterOptions.defaults().withPort(0).withKubeconfigOut(workDir.resolve("kubeconfig")));
        Config config = Config.fromKubeconfig(Files.readString(cluster.kubeconfig()));
        client = new KubernetesClientBuilder().withConfig(config).build();
        handlerClient = new KubernetesClientBuilder().withConfig(config).build();
        handler = new NodeHandler(handlerClient, cluster.hypervisors());
        handler.start();
        plane = ControlPlane.builder(config).withoutLeaderElection().build();
        plane.start();
        ops = Ops.connect(config);
    }

    void node(String name, Map<String, String> annotations) {
        client.nodes().resource(new NodeBuilder().withNewMetadata().withName(name).withAnnotations(annotations).endMetadata().build()).create();
        await().atMost(WAIT).until(() -> cluster.hypervisors().serves(name));
    }

    /** A set of {@code replicas} small VMIs (LiveMigrate, container disk) labelled {@code app=<name>}. */
    VirtualMachineInstanceReplicaSet createReplicaSet(String name, int replicas) {
        return client.resources(VirtualMachineInstanceReplicaSet.class).inNamespace(NS).resource(Serialization.unmarshal("""
                apiVersion: kubevirt.io/v1
                kind: VirtualMachineInstanceReplicaSet
                metadata: {name: %s}
                spec:
                  replicas: %d
                  selector: {matchLabels: {app: %s}}
                  template:
                    metadata: {labels: {app: %s}}
                    spec:
                      evictionStrategy: LiveMigrate
                      networks: [{name: default, pod: {}}]
                      domain: {devices: {interfaces: [{name: default, masquerade: {}}]}, memory: {guest: 256Mi}}
                      volumes: [{name: root, containerDisk: {image: quay.io/containerdisks/cirros}}]
                """.formatted(name, replicas, name, name), VirtualMachineInstanceReplicaSet.class)).create();
    }

    /** A VMI of no owner, labelled {@code app=<app>}, with these annotations. */
    VirtualMachineInstance createOrphan(String name, String app, Map<String, String> annotations) {
        VirtualMachineInstance vmi = Serialization.unmarshal("""
                apiVersion: kubevirt.io/v1
                kind: VirtualMachineInstance
                metadata: {name: %s, labels: {app: %s}}
                spec:
                  evictionStrategy: LiveMigrate
                  networks: [{name: default, pod: {}}]
                  domain: {devices: {interfaces: [{name: default, masquerade: {}}]}, memory: {guest: 1Gi}}
                  volumes: [{name: root, containerDisk: {image: quay.io/containerdisks/cirros}}]
                """.formatted(name, app), VirtualMachineInstance.class);
        vmi.getMetadata().setAnnotations(annotations.isEmpty() ? null : annotations);
        return client.resources(VirtualMachineInstance.class).inNamespace(NS).resource(vmi).create();
    }

    VirtualMachineInstanceReplicaSet replicaSet(String name) {
        return client.resources(VirtualMachineInstanceReplicaSet.class).inNamespace(NS).withName(name).get();
    }

    VirtualMachineInstance vmi(String name) {
        return client.resources(VirtualMachineInstance.class).inNamespace(NS).withName(name).get();
    }

    /** VMIs labelled {@code app=<app>}. */
    List<VirtualMachineInstance> vmis(String app) {
        return client.resources(VirtualMachineInstance.class).inNamespace(NS).withLabel("app", app).list().getItems();
    }

    /** VMIs the set controls that are not being deleted. */
    List<VirtualMachineInstance> owned(VirtualMachineInstanceReplicaSet rs) {
        return client.resources(VirtualMachineInstance.class).inNamespace(NS).list().getItems().stream()
                .filter(v -> ReplicaSetVmis.controlledBy(v, rs) && v.getMetadata().getDeletionTimestamp() == null)
                .toList();
    }

    Optional<Condition> condition(String rs, String type) {
        VirtualMachineInstanceReplicaSet now = replicaSet(rs);
        return now.getStatus() == null ? Optional.empty() : Conditions.find(now.getStatus().getConditions(), type);
    }

    /** Waits until status.replicas and status.readyReplicas both show n. */
    void awaitStatus(String rs, int replicas, int ready) {
        await().atMost(WAIT).until(() -> {
            var status = replicaSet(rs).getStatus();
            return status != null && Integer.valueOf(replicas).equals(status.getReplicas())
                    && Integer.valueOf(ready).equals(status.getReadyReplicas());
        });
    }

    List<Event> events(String involvedName) {
        return client.v1().events().inNamespace(NS).list().getItems().stream()
                .filter(e -> involvedName.equals(e.getInvolvedObject().getName())).toList();
    }

    boolean running(VirtualMachineInstance vmi) {
        return vmi != null && vmi.getStatus() != null && "Running".equals(vmi.getStatus().getPhase());
    }

    @Override
    public void close() {
        ops.close();
        plane.close();
        handler.close();
        handlerClient.close();
        client.close();
        cluster.close();
    }
}
