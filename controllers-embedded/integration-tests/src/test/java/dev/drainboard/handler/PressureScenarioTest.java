package dev.drainboard.handler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.drainboard.cluster.EmbeddedCluster;
import dev.drainboard.cluster.EmbeddedClusterOptions;
import dev.drainboard.controlplane.ControlPlane;
import dev.drainboard.kubevirt.api.VirtualMachineInstance;
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
                assertThat(onNode(client).get("node01")).containsExactly("charlie", "delta", "echo", "foxtrot");
                assertThat(vmis(client)).allSatisfy(v -> assertThat(v.getStatus().getPhase()).isEqualTo("Running"));
            }
        }
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
