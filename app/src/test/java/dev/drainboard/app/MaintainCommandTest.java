package dev.drainboard.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.drainboard.cluster.EmbeddedCluster;
import dev.drainboard.cluster.EmbeddedClusterOptions;
import dev.drainboard.controlplane.LocalControlPlane;
import dev.drainboard.kubevirt.KubeVirtProfile;
import dev.drainboard.kubevirt.api.KubeVirt;
import dev.drainboard.kubevirt.api.VirtualMachineInstance;
import dev.drainboard.maintenance.MaintenancePlan;
import dev.drainboard.testing.RequiresKubectl;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.utils.Serialization;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * {@code drainboard maintain} on the embedded cluster with the controllers running (KubeVirt 1.6): the dry run's plan
 * and exit codes, a live run to the end read back with the real kubectl, and a cluster where no controllers run.
 */
@DisplayName("drainboard maintain: plan, run, follow")
@RequiresKubectl
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class MaintainCommandTest {

    private static final Duration WAIT = Duration.ofSeconds(120);
    private static final List<String> NODES = List.of("node01", "node02", "node03");

    @TempDir
    static Path dir;
    static EmbeddedCluster cluster;
    static LocalControlPlane plane;
    static KubernetesClient client;
    static String kubeconfig;

    @BeforeAll
    static void start() throws Exception {
        cluster = EmbeddedCluster.start(EmbeddedClusterOptions.defaults().withPort(0).withKubeconfigOut(dir.resolve("kubeconfig")));
        kubeconfig = cluster.kubeconfig().toString();
        Config config = Config.fromKubeconfig(Files.readString(cluster.kubeconfig()));
        client = new KubernetesClientBuilder().withConfig(config).build();
        plane = LocalControlPlane.start(config, cluster.hypervisors(), true);
        client.resources(KubeVirt.class).resource(Serialization.unmarshal("""
                apiVersion: kubevirt.io/v1
                kind: KubeVirt
                metadata: {name: kubevirt, namespace: kubevirt}
                spec: {}
                """, KubeVirt.class)).create();
        client.resources(KubeVirt.class).inNamespace("kubevirt").withName("kubevirt").subresource("status")
                .patch(PatchContext.of(PatchType.JSON_MERGE), "{\"status\":{\"observedKubeVirtVersion\":\"v1.6.0\"}}");
        await().atMost(WAIT).until(() -> plane.controllers().orElseThrow().isLeader()
                && plane.controllers().orElseThrow().clusterConfig().current().profile() == KubeVirtProfile.V1_6);
        for (String node : NODES) {
            client.nodes().resource(new NodeBuilder().withNewMetadata().withName(node).endMetadata().build()).create();
            await().atMost(WAIT).until(() -> cluster.hypervisors().serves(node));
        }
        for (int i = 1; i <= 3; i++) {
            vmi("vm0" + i, "LiveMigrate");
        }
        await().atMost(WAIT).until(() -> client.resources(VirtualMachineInstance.class).inNamespace("default").list().getItems()
                .stream().allMatch(v -> v.getStatus() != null && "Running".equals(v.getStatus().getPhase()) && v.isMigratable()));
    }

    @AfterAll
    static void stop() {
        if (client != null) {
            client.close();
        }
        if (plane != null) {
            plane.close();
        }
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    @Order(1)
    @DisplayName("--dry-run prints the order, each VM's hops and the estimate, writes nothing; exit 3 once a VM would be stranded")
    void dryRun() throws Exception {
        OperatorCommandsTest.Run run = OperatorCommandsTest.run("maintain", "node01", "node02", "node03", "--dry-run", "--kubeconfig", kubeconfig);
        assertThat(run.exitCode()).as(run.out() + run.err()).isZero();
        // One VM per node, no empty node: the first node's VM goes to a node maintained later and moves twice.
        assertThat(run.out()).startsWith("Plan: 3 nodes in 3 batches, 4 migrations, about ").contains("batch 1  node/",
                "batch 3  node/", "Moved more than once:", "1 move", "2 moves");
        assertThat(client.resources(MaintenancePlan.class).list().getItems()).isEmpty();
        assertThat(client.nodes().list().getItems()).noneMatch(n -> n.getSpec() != null && Boolean.TRUE.equals(n.getSpec().getUnschedulable()));

        OperatorCommandsTest.Run json = OperatorCommandsTest.run("maintain", "--selector", "kubernetes.io/hostname in (node01,node02)",
                "--dry-run", "-o", "json", "--max-unavailable", "2", "--kubeconfig", kubeconfig);
        assertThat(json.exitCode()).as(json.err()).isZero();
        JsonNode plan = new ObjectMapper().readTree(json.out());
        assertThat(plan.path("batches")).hasSize(1);
        assertThat(plan.path("batches").get(0)).extracting(JsonNode::asText).containsExactlyInAnyOrder("node01", "node02");
        assertThat(plan.path("migrations").asInt()).isEqualTo(2);

        vmi("vm-external", "External");
        try {
            await().atMost(WAIT).until(() -> running("vm-external"));
            OperatorCommandsTest.Run stranded = OperatorCommandsTest.run("maintain", "node01", "node02", "node03", "--dry-run",
                    "--kubeconfig", kubeconfig);
            assertThat(stranded.exitCode()).as(stranded.out() + stranded.err()).isEqualTo(MaintainCommand.EXIT_STRANDED);
            assertThat(stranded.out()).contains("Stranded (cannot move):", "default/vm-external on node/", "eviction strategy External",
                    "  skipped: VMI default/vm-external cannot move");
        } finally {
            client.resources(VirtualMachineInstance.class).inNamespace("default").withName("vm-external").delete();
            await().atMost(WAIT).until(() -> client.resources(VirtualMachineInstance.class).inNamespace("default")
                    .withName("vm-external").get() == null && client.pods().inNamespace("default").list().getItems().stream()
                    .noneMatch(p -> p.getMetadata().getName().contains("vm-external")));
        }
    }

    @Test
    @Order(2)
    @DisplayName("bad invocations: exit 2 with the reason; a node that does not exist: exit 1")
    void badInvocations() {
        assertThat(OperatorCommandsTest.run("maintain", "--dry-run", "--kubeconfig", kubeconfig).exitCode()).isEqualTo(2);
        OperatorCommandsTest.Run both = OperatorCommandsTest.run("maintain", "node01", "--selector", "a=b", "--kubeconfig", kubeconfig);
        assertThat(both.exitCode()).isEqualTo(2);
        assertThat(both.err()).contains("give NODEs or --selector, not both");
        OperatorCommandsTest.Run after = OperatorCommandsTest.run("maintain", "node01", "--after-drain", "reboot", "--kubeconfig", kubeconfig);
        assertThat(after.exitCode()).isEqualTo(2);
        assertThat(after.err()).contains("Invalid value for option '--after-drain': 'reboot' (none, pause=DURATION or wait-for-annotation=KEY)");
        assertThat(OperatorCommandsTest.run("maintain", "node01", "--max-unavailable", "0", "--kubeconfig", kubeconfig).exitCode()).isEqualTo(2);
        OperatorCommandsTest.Run missing = OperatorCommandsTest.run("maintain", "node09", "--dry-run", "--kubeconfig", kubeconfig);
        assertThat(missing.exitCode()).isEqualTo(1);
        assertThat(missing.err()).isEqualTo("drainboard maintain: node \"node09\" not found\n");
    }

    @Test
    @Order(3)
    @DisplayName("a live run: the plan is created, followed to Succeeded (exit 0); kubectl get mp shows it done")
    void liveRun() throws Exception {
        OperatorCommandsTest.Run run = OperatorCommandsTest.run("maintain", "node01", "node02", "node03", "--name", "roll",
                "--after-drain", "pause=1s", "--kubeconfig", kubeconfig);
        assertThat(run.exitCode()).as(run.out() + run.err()).isZero();
        assertThat(run.out()).startsWith("maintenanceplan/roll created; the leader of the controllers executes it\n")
                .contains("node/node01 Done: maintained; uncordoned (took ", "Succeeded: every node maintained: 4 migrations (4 planned)",
                        "migrations: 4 made, 4 planned");
        String table = kubectl("get", "mp");
        assertThat(table.lines().findFirst().orElseThrow()).contains("NAME", "PHASE", "NODES", "MIGRATIONS", "AGE");
        assertThat(table).containsPattern("roll\\s+Succeeded\\s+3/3\\s+4\\s");
        assertThat(client.nodes().list().getItems()).noneMatch(n -> n.getSpec() != null && Boolean.TRUE.equals(n.getSpec().getUnschedulable()));
    }

    @Test
    @Order(4)
    @DisplayName("no controllers running: the command says so after a short wait and exits 1; the plan stays")
    void noControllers() throws Exception {
        try (EmbeddedCluster bare = EmbeddedCluster.start(EmbeddedClusterOptions.defaults().withPort(0)
                .withKubeconfigOut(dir.resolve("bare-kubeconfig")));
             KubernetesClient bareClient = new KubernetesClientBuilder()
                     .withConfig(Config.fromKubeconfig(Files.readString(bare.kubeconfig()))).build()) {
            bareClient.nodes().resource(new NodeBuilder().withNewMetadata().withName("node01").endMetadata().build()).create();
            OperatorCommandsTest.Run run = OperatorCommandsTest.run("maintain", "node01", "--name", "lonely",
                    "--controllers-wait", "2s", "--kubeconfig", bare.kubeconfig().toString());
            assertThat(run.exitCode()).isEqualTo(1);
            assertThat(run.err()).startsWith("drainboard maintain: no controllers have picked up maintenanceplan/lonely after 2s: "
                    + "start the console or `drainboard controllers` on this cluster");
            assertThat(bareClient.resources(MaintenancePlan.class).withName("lonely").get()).isNotNull();
        }
    }

    private static void vmi(String name, String strategy) {
        client.resources(VirtualMachineInstance.class).resource(Serialization.unmarshal("""
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
                """.formatted(name, strategy), VirtualMachineInstance.class)).create();
    }

    private static boolean running(String name) {
        VirtualMachineInstance v = client.resources(VirtualMachineInstance.class).inNamespace("default").withName(name).get();
        return v != null && v.getStatus() != null && "Running".equals(v.getStatus().getPhase());
    }

    private static String kubectl(String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("kubectl", "--kubeconfig", kubeconfig, "--cache-dir", dir.resolve("kube-cache").toString()));
        command.addAll(List.of(args));
        Process p = new ProcessBuilder(command).redirectErrorStream(false).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(err).isZero();
        return out;
    }
}
