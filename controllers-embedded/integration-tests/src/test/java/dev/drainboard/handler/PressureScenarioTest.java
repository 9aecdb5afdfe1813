package dev.drainboard.handler;

import dev.drainboard.simulation.SimulationKnobs;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.drainboard.cluster.EmbeddedCluster;
import dev.drainboard.cluster.EmbeddedClusterOptions;
import dev.drainboard.controlplane.ControlPlane;
import dev.drainboard.kubevirt.api.VirtualMachineInstance;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The built-in {@code pressure} scenario does what its header promises: after the two kubectl steps it names
 * (uncordon node02, annotate node01 with 6Gi of system memory) the kubelet evicts VMs until node01 is above its
 * soft threshold again, and those VMs live on, on node02.
 */
class PressureScenarioTest {

    private static final Duration WAIT = Duration.ofSeconds(90);

    @TempDir
    Path workDir;

    @Test
    void pushingNode01OverItsSoftThresholdMovesTheKubeletsVictimsToNode02() throws Exception {
        try (EmbeddedCluster cluster = EmbeddedCluster.start(EmbeddedClusterOptions.defaults().withScenario("pressure")
                .withPort(0).withKubeconfigOut(workDir.resolve("kubeconfig")))) {
            Config config = Config.fromKubeconfig(Files.readString(cluster.kubeconfig()));
            try (KubernetesClient client = new KubernetesClientBuilder().withConfig(config).build();
                 KubernetesClient handlerClient = new KubernetesClientBuilder().withConfig(config).build();
                 NodeHandler handler = new NodeHandler(handlerClient, cluster.hypervisors());
                 ControlPlane plane = ControlPlane.builder(config).withoutLeaderElection().build()) {
                handler.start();
                plane.start();
                await().atMost(WAIT).until(() -> vmis(client).size() == 6 && vmis(client).stream().allMatch(v ->
                        v.getStatus() != null && "Running".equals(v.getStatus().getPhase()) && v.isMigratable()));
                assertThat(vmis(client)).allSatisfy(v -> assertThat(v.getStatus().getNodeName()).isEqualTo("node01"));

                client.nodes().withName("node02").patch(PatchContext.of(PatchType.JSON_MERGE), "{\"spec\":{\"unschedulable\":null}}");
                client.nodes().withName("node01").patch(PatchContext.of(PatchType.JSON_MERGE),
                        "{\"metadata\":{\"annotations\":{\"sim.drainboard.dev/system-memory-usage\":\"6Gi\"}}}");

                // 24Gi − (16Gi of guests + 6 × 256Mi) − 6Gi = 512Mi available: alpha (1.25Gi) and bravo (2.25Gi), the
                // first two in the kubelet's order, must go before more than 3500Mi is available again.
                await().atMost(WAIT).until(() -> onNode(client).getOrDefault("node02", List.of()).equals(List.of("alpha", "bravo")));
                // "No third victim" holds at once, before the kubelet has even looked at the relieved node: wait until
                // both victims' launcher pods have ended, then until the eviction manager has made a round after that.
                await().atMost(WAIT).until(() -> launchersOnNode01(client, "alpha", "bravo").stream().allMatch(PressureScenarioTest::ended));
                awaitEvictionManagerRound(client, "observer");
                assertThat(kubeletEvents(client, "node01", "EvictionThresholdMet")).as("one eviction per victim").isEqualTo(2);
                assertThat(onNode(client).get("node01")).containsExactly("charlie", "delta", "echo", "foxtrot");
                assertThat(vmis(client)).allSatisfy(v -> assertThat(v.getStatus().getPhase()).isEqualTo("Running"));
            }
        }
    }

    /**
     * Waits until the simulated kubelets' eviction manager has checked every node in a round that began after now: a
     * new cordoned node with an unreadable eviction threshold is reported (a Warning event) in the first round that
     * lists it, and that round checks the other nodes as well.
     */
    private static void awaitEvictionManagerRound(KubernetesClient client, String observer) {
        client.nodes().resource(new NodeBuilder().withNewMetadata().withName(observer)
                .addToAnnotations(SimulationKnobs.EVICTION_HARD, "memory.available>10Mi").endMetadata()
                .withNewSpec().withUnschedulable(true).endSpec().build()).create();
        await().atMost(WAIT).until(() -> kubeletEvents(client, observer, "InvalidEvictionConfiguration") > 0);
    }

    /** Events of this reason the kubelet recorded about a node (node events go to {@code default}). */
    private static long kubeletEvents(KubernetesClient client, String node, String reason) {
        return client.v1().events().inNamespace("default").list().getItems().stream()
                .filter(e -> "Node".equals(e.getInvolvedObject().getKind()) && node.equals(e.getInvolvedObject().getName())
                        && reason.equals(e.getReason()))
                .count();
    }

    private static List<Pod> launchersOnNode01(KubernetesClient client, String... vmis) {
        return client.pods().inNamespace("pressure").list().getItems().stream()
                .filter(p -> "node01".equals(p.getSpec().getNodeName()) && p.getMetadata().getLabels() != null
                        && List.of(vmis).contains(p.getMetadata().getLabels().get("vm.kubevirt.io/name")))
                .toList();
    }

    private static boolean ended(Pod pod) {
        String phase = pod.getStatus() == null ? null : pod.getStatus().getPhase();
        return "Succeeded".equals(phase) || "Failed".equals(phase);
    }

    private static List<VirtualMachineInstance> vmis(KubernetesClient client) {
        return client.resources(VirtualMachineInstance.class).inNamespace("pressure").list().getItems();
    }

    private static Map<String, List<String>> onNode(KubernetesClient client) {
        return vmis(client).stream().filter(v -> v.getStatus() != null && v.getStatus().getNodeName() != null
                        && v.getStatus().getEvacuationNodeName() == null)
                .collect(Collectors.groupingBy(v -> v.getStatus().getNodeName(), java.util.TreeMap::new,
                        Collectors.mapping(v -> v.getMetadata().getName(), Collectors.collectingAndThen(Collectors.toList(),
                                l -> l.stream().sorted().toList()))));
    }
}
