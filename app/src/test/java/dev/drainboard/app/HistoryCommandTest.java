package dev.drainboard.app;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.drainboard.cluster.EmbeddedCluster;
import dev.drainboard.cluster.EmbeddedClusterOptions;
import dev.drainboard.controlplane.LocalControlPlane;
import dev.drainboard.history.HistoryStore;
import dev.drainboard.kubevirt.api.VirtualMachineInstance;
import dev.drainboard.testing.RequiresKubectl;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static dev.drainboard.app.OperatorCommandsTest.run;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A drain on the demo cluster is recorded in the cluster: read back with the real kubectl and with
 * {@code drainboard history}; a cluster without the CRD says so and how to enable it.
 */
@DisplayName("drainboard history: a drain recorded, read with kubectl and drainboard history")
@RequiresKubectl
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class HistoryCommandTest {

    private static final Duration WAIT = Duration.ofSeconds(90);

    @TempDir
    static Path dir;
    static EmbeddedCluster cluster;
    static LocalControlPlane plane;
    static KubernetesClient client;
    static String kubeconfig;

    @BeforeAll
    static void start() throws Exception {
        cluster = EmbeddedCluster.start(EmbeddedClusterOptions.defaults().withScenario("demo").withPort(0)
                .withKubeconfigOut(dir.resolve("kubeconfig")));
        kubeconfig = cluster.kubeconfig().toString();
        Config config = Config.fromKubeconfig(Files.readString(cluster.kubeconfig()));
        plane = LocalControlPlane.start(config, cluster.hypervisors(), true);
        client = new KubernetesClientBuilder().withConfig(config).build();
        await().atMost(WAIT).until(() -> plane.controllers().orElseThrow().isLeader()
                && !client.resources(VirtualMachineInstance.class).inNamespace("demo").list().getItems().isEmpty()
                && client.resources(VirtualMachineInstance.class).inNamespace("demo").list().getItems().stream()
                .allMatch(v -> v.getStatus() != null && "Running".equals(v.getStatus().getPhase())));
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
    @DisplayName("a drain ends Drained in a DrainRecord: kubectl get drainrecords and history -o json/markdown show it")
    void drainRecorded() throws Exception {
        OperatorCommandsTest.Run empty = run("history", "--kubeconfig", kubeconfig);
        assertThat(empty.exitCode()).as(empty.err()).isZero();
        assertThat(empty.out()).isEqualTo("No drains recorded.\n");

        // The "database" VM's launcher: it live-migrates (which of the demo's other VMIs share its node, and whether
        // they can move, varies from run to run).
        VirtualMachineInstance database = client.resources(VirtualMachineInstance.class).inNamespace("demo").withName("database").get();
        String node = database.getStatus().getNodeName();
        OperatorCommandsTest.Run drain = run("drain", node, "--pod-selector", "kubevirt.io/created-by=" + database.getMetadata().getUid(),
                "--ignore-daemonsets", "--delete-emptydir-data", "--timeout", "120s", "--kubeconfig", kubeconfig);
        assertThat(drain.exitCode()).as(drain.out() + drain.err()).isZero();
        assertThat(drain.err()).doesNotContain("drain history is not kept");

        // The real kubectl reads what Drainboard wrote.
        JsonNode list = new ObjectMapper().readTree(kubectl("get", "drainrecords", "-o", "json"));
        assertThat(list.path("items")).hasSize(1);
        JsonNode record = list.path("items").get(0);
        String name = record.path("metadata").path("name").asText();
        assertThat(name).startsWith("drain-" + node + "-");
        assertThat(record.path("spec").path("kind").asText()).isEqualTo("Drain");
        assertThat(record.path("spec").path("nodes")).extracting(JsonNode::asText).containsExactly(node);
        assertThat(record.path("spec").path("startedBy").asText()).contains("@");
        assertThat(record.path("spec").has("estimateSeconds")).as(record.toString()).isTrue();
        JsonNode status = record.path("status");
        assertThat(status.path("result").asText()).as(status.toString()).isEqualTo("Drained");
        assertThat(status.path("endedAt").asText()).isNotEmpty();
        assertThat(status.path("durationSeconds").asDouble()).isPositive();
        assertThat(status.path("pods")).singleElement().satisfies(p -> {
            assertThat(p.path("state").asText()).isEqualTo("GONE");
            assertThat(p.path("node").asText()).isEqualTo(node);
            assertThat(p.path("vmi").asText()).isEqualTo("database");
            assertThat(p.path("outcome").asText()).isEqualTo("LIVE_MIGRATION");
        });
        List<String> migrating = new ArrayList<>();
        status.path("pods").forEach(p -> {
            if ("LIVE_MIGRATION".equals(p.path("outcome").asText())) {
                migrating.add(p.path("vmi").asText());
            }
        });
        List<String> migrated = new ArrayList<>();
        status.path("migrations").forEach(m -> {
            assertThat(m.path("phase").asText()).as(m.toString()).isEqualTo("Succeeded");
            assertThat(m.path("sourceNode").asText()).isEqualTo(node);
            assertThat(m.path("targetNode").asText()).isNotEqualTo(node).isNotEmpty();
            assertThat(m.path("bytes").asLong()).isPositive();
            migrated.add(m.path("vmi").asText());
        });
        assertThat(migrated).as("the VMI that live-migrated has its migration in the record").containsExactly("database");
        assertThat(migrating).containsExactly("database");

        String table = kubectl("get", "drainrecords");
        assertThat(table.lines().findFirst().orElseThrow()).contains("KIND", "NODES", "RESULT", "STARTED", "DURATION");
        assertThat(table).contains(name).contains("Drain").contains("Drained");

        OperatorCommandsTest.Run json = run("history", "-o", "json", "--kubeconfig", kubeconfig);
        assertThat(json.exitCode()).as(json.err()).isZero();
        JsonNode ours = new ObjectMapper().readTree(json.out());
        assertThat(ours.path("items")).hasSize(1);
        assertThat(ours.path("items").get(0).path("metadata").path("name").asText()).isEqualTo(name);
        assertThat(ours.path("items").get(0).path("status")).isEqualTo(status);

        OperatorCommandsTest.Run markdown = run("history", name, "-o", "markdown", "--kubeconfig", kubeconfig);
        assertThat(markdown.exitCode()).as(markdown.err()).isZero();
        assertThat(markdown.out()).startsWith("# Drain of " + node + ": Drained\n").contains("| Result | Drained |", "## Pods", "## Migrations");

        OperatorCommandsTest.Run listed = run("history", "--kubeconfig", kubeconfig);
        assertThat(listed.out()).contains(name, "Drain", node, "Drained");

        OperatorCommandsTest.Run missing = run("history", "drain-nothing", "--kubeconfig", kubeconfig);
        assertThat(missing.exitCode()).isEqualTo(1);
        assertThat(missing.err()).contains("\"drain-nothing\" not found");
        assertThat(run("history", "-o", "yaml", "--kubeconfig", kubeconfig).exitCode()).isEqualTo(2);
    }

    @Test
    @Order(Integer.MAX_VALUE) // last: it deletes the CRD of the shared cluster
    @DisplayName("the CRD deleted: a drain still runs, and says once that history is not kept and how to keep it")
    void drainWithoutTheCrd() {
        client.apiextensions().v1().customResourceDefinitions().withName("drainrecords.drainboard.dev").delete();
        await().atMost(WAIT).until(() -> client.apiextensions().v1().customResourceDefinitions()
                .withName("drainrecords.drainboard.dev").get() == null);
        OperatorCommandsTest.Run drain = run("drain", "node02", "--pod-selector", "app=nothing-matches",
                "--ignore-daemonsets", "--timeout", "60s", "--kubeconfig", kubeconfig);
        assertThat(drain.exitCode()).as(drain.out() + drain.err()).isZero();
        assertThat(drain.out()).contains("node/node02 drained");
        assertThat(drain.err()).containsOnlyOnce("warning: " + HistoryStore.NO_CRD_MESSAGE + "\n");
        client.nodes().withName("node02").edit(n -> {
            n.getSpec().setUnschedulable(null);
            return n;
        });
    }

    @Test
    @DisplayName("a cluster without the CRD: exit 1, and how to enable it")
    void noCrd() throws Exception {
        try (EmbeddedCluster bare = EmbeddedCluster.start(EmbeddedClusterOptions.defaults().withoutKubeVirtCrds()
                .withKubeconfigOut(dir.resolve("bare-kubeconfig")))) {
            OperatorCommandsTest.Run run = run("history", "--kubeconfig", bare.kubeconfig().toString());
            assertThat(run.exitCode()).isEqualTo(1);
            assertThat(run.err()).isEqualTo("drainboard history: " + HistoryStore.NO_CRD_MESSAGE + "\n");
        }
    }

    private static String kubectl(String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("kubectl", "--kubeconfig", kubeconfig));
        command.addAll(List.of(args));
        Process p = new ProcessBuilder(command).redirectErrorStream(false).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(err).isZero();
        return out;
    }
}
