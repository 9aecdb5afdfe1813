package dev.drainboard.cluster.e2e;

import dev.drainboard.controlplane.LocalControlPlane;
import dev.drainboard.testing.RequiresKubectl;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The real kubectl and VirtualMachinePools on the embedded cluster with the control plane running, as
 * {@code drainboard serve} runs it: a pool keeps its VMs ({@code <pool>-0 …}) and brings a deleted one back under
 * its name; {@code kubectl scale vmpool/NAME} scales through the scale subresource; KubeVirt's events.
 */
@DisplayName("kubectl and VirtualMachinePools")
@RequiresKubectl
class KubectlPoolTest {

    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final String POOL = """
            apiVersion: pool.kubevirt.io/v1alpha1
            kind: VirtualMachinePool
            metadata: {name: %s, namespace: default}
            spec:
              replicas: 3
              selector:
                matchLabels: {pool: %s}
              %s
              virtualMachineTemplate:
                metadata:
                  labels: {pool: %s}
                spec:
                  runStrategy: Always
                  template:
                    metadata:
                      labels: {pool: %s}
                    spec:
                      domain: {devices: {}, memory: {guest: 256Mi}}
                      volumes: [{name: root, containerDisk: {image: quay.io/containerdisks/cirros}}]
            """;

    @TempDir
    static Path workDir;
    static E2eCluster cluster;
    static Kubectl kubectl;
    static LocalControlPlane plane;

    @BeforeAll
    static void start() throws Exception {
        cluster = E2eCluster.startWithKubectl(null, workDir);
        kubectl = cluster.kubectl();
        Config config = Config.fromKubeconfig(Files.readString(cluster.cluster().kubeconfig()));
        try (KubernetesClient client = new KubernetesClientBuilder().withConfig(config).build()) {
        }
        plane = LocalControlPlane.start(config, cluster.cluster().hypervisors(), true);
        kubectl.apply("""
                apiVersion: v1
                kind: Node
                metadata: {name: node01}
                """);
    }

    @AfterAll
    static void stop() {
        if (plane != null) {
            plane.close();
        }
        if (cluster != null) {
            cluster.close();
        }
    }

    private static List<String> vms(String pool) {
        return kubectl.succeed("get", "vms", "-l", "pool=" + pool, "-o", "jsonpath={range .items[*]}{.metadata.name}{\"\\n\"}{end}")
                .stdout().lines().sorted().toList();
    }

    private static void awaitStatus(String pool, int replicas, int ready) {
        await().atMost(WAIT).until(() -> (replicas + "/" + ready).equals(kubectl.succeed("get", "vmpool", pool, "-o",
                "jsonpath={.status.replicas}/{.status.readyReplicas}").stdout()));
    }

    @Test
    @DisplayName("a pool of 3 keeps 3 VMs: a deleted one comes back under its name, running again")
    void keepsItsVms() {
        kubectl.apply(POOL.formatted("web", "web", "", "web", "web"));
        await().atMost(WAIT).until(() -> vms("web").equals(List.of("web-0", "web-1", "web-2")));
        awaitStatus("web", 3, 3);
        assertThat(kubectl.succeed("get", "vm", "web-1", "-o", "jsonpath={.metadata.ownerReferences[0].kind}/{.metadata.ownerReferences[0].name}/{.metadata.labels.kubevirt\\.io/vm-pool-revision-name}")
                .stdout()).isEqualTo("VirtualMachinePool/web/web-1");
        String uid = kubectl.succeed("get", "vm", "web-1", "-o", "jsonpath={.metadata.uid}").stdout();

        kubectl.succeed("delete", "vm", "web-1", "--wait=false");

        await().atMost(WAIT).until(() -> {
            String now = kubectl.run("get", "vm", "web-1", "-o", "jsonpath={.metadata.uid}").stdout();
            return !now.isEmpty() && !now.equals(uid);
        });
        await().atMost(WAIT).until(() -> vms("web").equals(List.of("web-0", "web-1", "web-2")));
        awaitStatus("web", 3, 3);
        String events = kubectl.succeed("get", "events", "--field-selector", "involvedObject.name=web,involvedObject.kind=VirtualMachinePool",
                "-o", "jsonpath={range .items[*]}{.reason}: {.message}{\"\\n\"}{end}").stdout();
        assertThat(events).contains("SuccessfulCreate: Created VM default/web-0", "SuccessfulCreate: Created VM default/web-1");
    }

    @Test
    @DisplayName("kubectl scale vmpool/NAME --replicas=5 scales out with the next indexes, then in by the sort policy")
    void scalesWithKubectl() {
        kubectl.apply(POOL.formatted("api", "api", "scaleInStrategy: {proactive: {selectionPolicy: {sortPolicy: DescendingOrder}}}", "api", "api"));
        await().atMost(WAIT).until(() -> vms("api").size() == 3);
        awaitStatus("api", 3, 3);

        assertThat(kubectl.succeed("scale", "vmpool/api", "--replicas=5").stdout())
                .isEqualTo("virtualmachinepool.pool.kubevirt.io/api scaled\n");
        await().atMost(WAIT).until(() -> vms("api").equals(List.of("api-0", "api-1", "api-2", "api-3", "api-4")));
        awaitStatus("api", 5, 5);
        assertThat(kubectl.succeed("get", "vmpool", "api", "-o", "jsonpath={.status.labelSelector}").stdout()).isEqualTo("pool=api");

        kubectl.succeed("scale", "vmpool", "api", "--replicas=2");
        await().atMost(WAIT).until(() -> vms("api").equals(List.of("api-0", "api-1")));
        awaitStatus("api", 2, 2);
        String events = kubectl.succeed("get", "events", "--field-selector", "involvedObject.name=api,involvedObject.kind=VirtualMachinePool",
                "-o", "jsonpath={range .items[*]}{.reason}: {.message}{\"\\n\"}{end}").stdout();
        assertThat(events).containsPattern("SuccessfulDelete: Deleted VM default/api-4 with uid [0-9a-f-]+ from pool");
    }

    @Test
    @DisplayName("a paused pool does not scale and says so (ReplicaPaused, 'Pool is paused'); resumed, it catches up")
    void pauseAndResume() {
        kubectl.apply(POOL.formatted("batch", "batch", "", "batch", "batch"));
        await().atMost(WAIT).until(() -> vms("batch").size() == 3);

        kubectl.succeed("patch", "vmpool", "batch", "--type=merge", "-p", "{\"spec\":{\"paused\":true}}");
        await().atMost(WAIT).until(() -> "True/SuccessfulPaused/Pool controller is paused".equals(kubectl.succeed("get", "vmpool", "batch", "-o",
                "jsonpath={.status.conditions[?(@.type==\"ReplicaPaused\")].status}/{.status.conditions[?(@.type==\"ReplicaPaused\")].reason}"
                        + "/{.status.conditions[?(@.type==\"ReplicaPaused\")].message}").stdout()));
        kubectl.succeed("scale", "vmpool/batch", "--replicas=4");
        kubectl.succeed("delete", "vm", "batch-0", "--wait=true");
        assertThat(vms("batch")).as("paused: nothing created, not even the deleted one").containsExactly("batch-1", "batch-2");

        kubectl.succeed("patch", "vmpool", "batch", "--type=merge", "-p", "{\"spec\":{\"paused\":false}}");
        await().atMost(WAIT).until(() -> vms("batch").equals(List.of("batch-0", "batch-1", "batch-2", "batch-3")));
        await().atMost(WAIT).until(() -> kubectl.succeed("get", "vmpool", "batch", "-o",
                "jsonpath={.status.conditions[?(@.type==\"ReplicaPaused\")].status}").stdout().isEmpty());
        String events = kubectl.succeed("get", "events", "--field-selector", "involvedObject.name=batch,involvedObject.kind=VirtualMachinePool",
                "-o", "jsonpath={range .items[*]}{.reason}: {.message}{\"\\n\"}{end}").stdout();
        assertThat(events).contains("SuccessfulPaused: Pool is paused", "SuccessfulResume: Pool is unpaused",
                "SuccessfulCreate: Created VM default/batch-3");
    }
}
