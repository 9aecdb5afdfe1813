package dev.drainboard.handler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.drainboard.cluster.EmbeddedCluster;
import dev.drainboard.cluster.EmbeddedClusterOptions;
import dev.drainboard.units.Quantities;
import dev.drainboard.controlplane.ControlPlane;
import dev.drainboard.hypervisor.StopReason;
import dev.drainboard.kubevirt.api.KubeVirt;
import dev.drainboard.kubevirt.api.VirtualMachineInstance;
import dev.drainboard.kubevirt.api.VirtualMachineInstanceMigration;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.utils.Serialization;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * The node-pressure proposal's functional test in the embedded cluster: a node filled with LiveMigrate VMs is pushed
 * past its soft memory threshold (the proposal's kubelet values, with a 1 s soft grace period to keep the test short).
 * With the gate on, the kubelet's victims migrate and their launcher pods end only after the migration succeeded; with
 * the gate off, they are shut down.
 */
class NodePressureEvictionFunctionalTest {

    private static final Duration WAIT = Duration.ofSeconds(90);
    private static final List<String> VMS = List.of("vm-a", "vm-b", "vm-c");
    private static final String FULL = "node01";
    private static final String SPARE = "node02";

    @TempDir
    Path workDir;

    @Test
    void gateOnTheEvictedVmsMigrateAndTheirPodsEndOnlyAfterwards() throws Exception {
        try (PressureCluster c = new PressureCluster(workDir, true)) {
            c.fillAndPush();

            for (String vm : VMS) {
                await().atMost(WAIT).until(() -> SPARE.equals(c.vmi(vm).getStatus().getNodeName())
                        && c.vmi(vm).getStatus().getEvacuationNodeName() == null);
            }
            Node node = c.client.nodes().withName(FULL).get();
            assertThat(node.getStatus().getConditions()).anySatisfy(cond -> {
                assertThat(cond.getType()).isEqualTo("MemoryPressure");
                assertThat(cond.getStatus()).isEqualTo("True");
            });
            assertThat(node.getSpec().getTaints()).anySatisfy(t -> {
                assertThat(t.getKey()).isEqualTo("node.kubernetes.io/memory-pressure");
                assertThat(t.getEffect()).isEqualTo("NoSchedule");
            });
            for (String vm : VMS) {
                VirtualMachineInstance vmi = c.vmi(vm);
                assertThat(vmi.getStatus().getPhase()).isEqualTo("Running");
                assertThat(vmi.getMetadata().getAnnotations()).doesNotContainKeys(
                        "drainboard.dev/node-pressure-deadline", "drainboard.dev/lost-to-node-pressure");
                // The source launcher was evicted by the kubelet and exited by itself (0, not SIGKILL's 137): its
                // domain had migrated away before the kill.
                Pod source = c.launcherOn(vmi, FULL);
                await().atMost(WAIT).until(() -> "Failed".equals(c.pod(source).getStatus().getPhase()));
                Pod ended = c.pod(source);
                assertThat(ended.getStatus().getReason()).isEqualTo("Evicted");
                assertThat(ended.getStatus().getMessage()).startsWith("The node was low on resource: memory. Threshold quantity: 3500Mi");
                assertThat(ended.getStatus().getContainerStatuses().getFirst().getState().getTerminated().getExitCode()).isZero();
                assertThat(ended.getStatus().getConditions()).anySatisfy(cond -> {
                    assertThat(cond.getType()).isEqualTo("DisruptionTarget");
                    assertThat(cond.getReason()).isEqualTo("TerminationByKubelet");
                });
                assertThat(c.cluster.hypervisors().forNode(FULL).orElseThrow().domain(vmi.getMetadata().getUid()))
                        .hasValueSatisfying(d -> assertThat(d.stopReason()).isEqualTo(StopReason.MIGRATED));
                assertThat(c.reasonsFor(vm)).contains("NodePressureEvacuation", "Migrated").doesNotContain("ShuttingDown");
            }
            List<VirtualMachineInstanceMigration> vmims = c.client.resources(VirtualMachineInstanceMigration.class)
                    .inNamespace("default").list().getItems();
            assertThat(vmims).hasSize(3).allSatisfy(m -> {
                assertThat(m.getStatus().getPhase()).isEqualTo("Succeeded");
                assertThat(m.getMetadata().getAnnotations()).containsEntry("drainboard.dev/migration-cause", "node-pressure eviction");
            });
        }
    }

    @Test
    void gateOffTheEvictedVmsAreShutDown() throws Exception {
        try (PressureCluster c = new PressureCluster(workDir, false)) {
            c.fillAndPush();

            for (String vm : VMS) {
                await().atMost(WAIT).until(() -> "Succeeded".equals(c.vmi(vm).getStatus().getPhase()));
                assertThat(c.vmi(vm).getStatus().getNodeName()).isEqualTo(FULL);
                assertThat(c.vmi(vm).getStatus().getEvacuationNodeName()).isNull();
                assertThat(c.reasonsFor(vm)).contains("ShuttingDown", "Stopped").doesNotContain("NodePressureEvacuation");
            }
            // Each launcher was the kubelet's victim (its Evicted event stays); the pod itself ends Failed/Evicted,
            // unless the VMI controller deleted it first, as it deletes the pods of a finished VMI.
            for (String pod : c.launchers.values()) {
                assertThat(c.kubeletEventsFor(pod)).contains("Evicted");
                Pod now = c.client.pods().inNamespace("default").withName(pod).get();
                if (now != null && "Failed".equals(now.getStatus().getPhase())) {
                    assertThat(now.getStatus().getReason()).isEqualTo("Evicted");
                }
            }
            assertThat(c.client.resources(VirtualMachineInstanceMigration.class).inNamespace("default").list().getItems()).isEmpty();
        }
    }

    /** The embedded cluster, the control plane and the node handler, as {@code drainboard serve} runs them. */
    static final class PressureCluster implements AutoCloseable {
        final EmbeddedCluster cluster;
        final KubernetesClient client;
        final ControlPlane plane;
        final NodeHandler handler;
        private final KubernetesClient handlerClient;
        /** VMI name → its launcher pod on node01, before the push. */
        final Map<String, String> launchers = new java.util.TreeMap<>();

        PressureCluster(Path workDir, boolean gate) throws Exception {
            cluster = EmbeddedCluster.start(EmbeddedClusterOptions.defaults().withPort(0).withKubeconfigOut(workDir.resolve("kubeconfig")));
            Config config = Config.fromKubeconfig(Files.readString(cluster.kubeconfig()));
            client = new KubernetesClientBuilder().withConfig(config).build();
            // The embedded cluster has KubeVirt's install namespace (with virt-controller's service account) from its start.
            client.resources(KubeVirt.class).resource(Serialization.unmarshal("""
                    {"apiVersion":"kubevirt.io/v1","kind":"KubeVirt","metadata":{"name":"kubevirt","namespace":"kubevirt"},
                     "spec":{"configuration":{"developerConfiguration":{"featureGates":[%s]}}}}"""
                    .formatted(gate ? "\"NodePressureEvictionLiveMigration\"" : ""), KubeVirt.class)).create();
            handlerClient = new KubernetesClientBuilder().withConfig(config).build();
            handler = new NodeHandler(handlerClient, cluster.hypervisors());
            handler.start();
            plane = ControlPlane.builder(config).withoutLeaderElection().build();
            plane.start();
        }

        /**
         * Three LiveMigrate VMs on node01 (the proposal's kubelet values), a spare node, then node01 pushed below
         * 3500Mi.
         */
        void fillAndPush() {
            node(FULL, Map.of(
                    "sim.drainboard.dev/eviction-soft", "memory.available<3500Mi",
                    "sim.drainboard.dev/eviction-soft-grace-period", "memory.available=1s",
                    "sim.drainboard.dev/eviction-max-pod-grace-period", "300",
                    "sim.drainboard.dev/eviction-hard", "memory.available<10Mi"));
            for (String vm : VMS) {
                createVmi(vm);
            }
            for (String vm : VMS) {
                await().atMost(WAIT).until(() -> {
                    VirtualMachineInstance v = vmi(vm);
                    return v != null && v.getStatus() != null && "Running".equals(v.getStatus().getPhase()) && v.isMigratable();
                });
            }
            for (String vm : VMS) {
                launchers.put(vm, launcherOn(vmi(vm), FULL).getMetadata().getName());
            }
            node(SPARE, Map.of());
            // Three launchers use 3 × (1Gi + 256Mi); leave 100Mi available, so all three must go to end the pressure.
            long capacity = Quantities.whole(client.nodes().withName(FULL).get().getStatus().getCapacity().get("memory").toString());
            long system = capacity - 3 * (1280L << 20) - (100L << 20);
            client.nodes().withName(FULL).edit(n -> {
                n.getMetadata().getAnnotations().put("sim.drainboard.dev/system-memory-usage", Long.toString(system));
                return n;
            });
        }

        void node(String name, Map<String, String> annotations) {
            client.nodes().resource(new NodeBuilder().withNewMetadata().withName(name).withAnnotations(annotations).endMetadata().build()).create();
            await().atMost(WAIT).until(() -> cluster.hypervisors().serves(name)
                    && client.nodes().withName(name).get().getStatus().getCapacity() != null);
        }

        void createVmi(String name) {
            VirtualMachineInstance vmi = Serialization.unmarshal("""
                    apiVersion: kubevirt.io/v1
                    kind: VirtualMachineInstance
                    metadata: {name: %s, namespace: default}
                    spec:
                      evictionStrategy: LiveMigrate
                      networks: [{name: default, pod: {}}]
                      domain: {devices: {interfaces: [{name: default, masquerade: {}}]}, memory: {guest: 1Gi}}
                      volumes: [{name: root, containerDisk: {image: quay.io/containerdisks/cirros}}]
                    """.formatted(name), VirtualMachineInstance.class);
            client.resources(VirtualMachineInstance.class).resource(vmi).create();
        }

        VirtualMachineInstance vmi(String name) {
            return client.resources(VirtualMachineInstance.class).inNamespace("default").withName(name).get();
        }

        Pod launcherOn(VirtualMachineInstance vmi, String node) {
            return client.pods().inNamespace("default").withLabel("kubevirt.io/created-by", vmi.getMetadata().getUid())
                    .list().getItems().stream().filter(p -> node.equals(p.getSpec().getNodeName())).findFirst().orElseThrow();
        }

        Pod pod(Pod pod) {
            return client.pods().inNamespace("default").withName(pod.getMetadata().getName()).get();
        }

        List<String> reasonsFor(String vmi) {
            return client.v1().events().inNamespace("default").list().getItems().stream()
                    .filter(e -> vmi.equals(e.getInvolvedObject().getName()) && "VirtualMachineInstance".equals(e.getInvolvedObject().getKind()))
                    .map(Event::getReason).toList();
        }

        List<String> kubeletEventsFor(String pod) {
            return client.v1().events().inNamespace("default").list().getItems().stream()
                    .filter(e -> pod.equals(e.getInvolvedObject().getName()) && "Pod".equals(e.getInvolvedObject().getKind()))
                    .map(Event::getReason).toList();
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
}
