package dev.drainboard.app;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.drainboard.cluster.EmbeddedCluster;
import dev.drainboard.cluster.EmbeddedClusterOptions;
import dev.drainboard.controlplane.LocalControlPlane;
import dev.drainboard.kubevirt.api.VirtualMachineInstance;
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

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static dev.drainboard.app.OperatorCommandsTest.run;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** The demo scenario as an operator meets it: drains that would strand VMIs are refused, with the scheduler's reason. */
@DisplayName("drain on the demo: blockers, exit code 3, JSON preview")
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class DrainBlockersCommandTest {

    private static final Duration WAIT = Duration.ofSeconds(90);
    private static final List<String> VMIS = List.of("database", "ledger", "cache", "ml-trainer", "scratch-worker", "appliance",
            "batch-runner", "legacy-erp");

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
                && VMIS.stream().allMatch(DrainBlockersCommandTest::running) && workers().size() == 3
                && workers().stream().allMatch(DrainBlockersCommandTest::running));
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

    static List<String> workers() {
        List<String> names = new ArrayList<>();
        client.resources(VirtualMachineInstance.class).inNamespace("demo").withLabel("app", "workers").list().getItems()
                .forEach(v -> names.add(v.getMetadata().getName()));
        return names;
    }

    static boolean running(String name) {
        VirtualMachineInstance vmi = client.resources(VirtualMachineInstance.class).inNamespace("demo").withName(name).get();
        return vmi != null && vmi.getStatus() != null && "Running".equals(vmi.getStatus().getPhase())
                && vmi.getStatus().getConditions() != null
                && vmi.getStatus().getConditions().stream().anyMatch(c -> "LiveMigratable".equals(c.getType()));
    }

    static String nodeOf(String vmi) {
        return client.resources(VirtualMachineInstance.class).inNamespace("demo").withName(vmi).get().getStatus().getNodeName();
    }

    static boolean cordoned(String node) {
        var spec = client.nodes().withName(node).get().getSpec();
        return spec != null && Boolean.TRUE.equals(spec.getUnschedulable());
    }

    @Test
    @DisplayName("node03's dry run exits 3 and names the three workers VMIs, with the scheduler's reason")
    void workersHaveNowhereToGo() {
        OperatorCommandsTest.Run run = run("drain", "node03", "--dry-run", "--ignore-daemonsets", "--delete-emptydir-data",
                "--kubeconfig", kubeconfig);
        assertThat(run.exitCode()).as(run.out() + run.err()).isEqualTo(3);
        for (String worker : workers()) {
            assertThat(run.out()).contains("VirtualMachineInstance demo/" + worker + ": its replacement has nowhere to run: "
                    + "0/4 nodes are available: 1 node(s) were unschedulable, 3 node(s) didn't match Pod's node affinity/selector.");
        }
    }

    @Test
    @DisplayName("-o json: the exact shape, the workers as blockers of node03")
    void json() throws Exception {
        OperatorCommandsTest.Run run = run("drain", "node03", "--dry-run", "-o", "json", "--ignore-daemonsets",
                "--delete-emptydir-data", "--kubeconfig", kubeconfig);
        assertThat(run.exitCode()).as(run.err()).isEqualTo(3);
        JsonNode root = new ObjectMapper().readTree(run.out());
        assertThat(fields(root)).containsExactly("nodes", "estimateSeconds");
        assertThat(root.path("nodes")).hasSize(1);
        JsonNode node = root.path("nodes").get(0);
        assertThat(fields(node)).containsExactly("name", "pods", "blockers", "estimateSeconds");
        assertThat(node.path("name").asText()).isEqualTo("node03");
        assertThat(node.path("pods")).isNotEmpty().allSatisfy(p -> assertThat(fields(p)).containsExactly("namespace", "name", "outcome", "reason"));
        assertThat(node.path("blockers")).allSatisfy(b -> assertThat(fields(b)).containsExactly("kind", "namespace", "name", "reason"));
        List<String> blocked = new ArrayList<>();
        node.path("blockers").forEach(b -> blocked.add(b.path("kind").asText() + " " + b.path("namespace").asText() + "/" + b.path("name").asText()));
        assertThat(blocked).containsAll(workers().stream().map(w -> "VirtualMachineInstance demo/" + w).toList());
        // Which VMIs node03 migrates varies from run to run (the scheduler spreads them): an integer, the only node's.
        assertThat(node.path("estimateSeconds").isIntegralNumber()).as(run.out()).isTrue();
        assertThat(root.path("estimateSeconds").asLong()).isEqualTo(node.path("estimateSeconds").asLong());
    }

    @Test
    @DisplayName("the External VMI's node: its dry run names it as a blocker; --external-handled lifts it")
    void external() {
        String node = nodeOf("appliance");
        OperatorCommandsTest.Run run = run("drain", node, "--dry-run", "--ignore-daemonsets", "--delete-emptydir-data",
                "--kubeconfig", kubeconfig);
        assertThat(run.out()).contains("VirtualMachineInstance demo/appliance: eviction strategy External: the drain marks VMI "
                + "appliance for evacuation and waits until something outside KubeVirt removes it");
        assertThat(run.exitCode()).isEqualTo(3);
        OperatorCommandsTest.Run handled = run("drain", node, "--dry-run", "--external-handled", "--ignore-daemonsets",
                "--delete-emptydir-data", "--kubeconfig", kubeconfig);
        assertThat(handled.out()).doesNotContain("demo/appliance: eviction strategy External");
    }

    @Test
    @DisplayName("a LiveMigrate VMI that is not live-migratable blocks its node's drain (the webhook would refuse it for ever)")
    void notMigratable() {
        String node = nodeOf("ledger");
        for (List<String> handled : List.of(List.<String>of(), List.of("--external-handled"))) {
            List<String> args = new ArrayList<>(List.of("drain", node, "--dry-run", "--ignore-daemonsets", "--delete-emptydir-data",
                    "--kubeconfig", kubeconfig));
            args.addAll(handled);
            OperatorCommandsTest.Run run = run(args.toArray(String[]::new));
            assertThat(run.exitCode()).as(run.out() + run.err()).isEqualTo(3);
            assertThat(run.out()).contains("VirtualMachineInstance demo/ledger: VMI ledger has eviction strategy LiveMigrate but "
                    + "is not live-migratable (DisksNotLiveMigratable: cannot migrate VMI: PVC local-disk is not shared");
        }
        OperatorCommandsTest.Run drain = run("drain", node, "--ignore-daemonsets", "--delete-emptydir-data", "--force",
                "--external-handled", "--kubeconfig", kubeconfig);
        assertThat(drain.exitCode()).as(drain.out() + drain.err()).isEqualTo(3);
        assertThat(drain.err()).contains("node/" + node + ": VirtualMachineInstance demo/ledger: ");
        assertThat(cordoned(node)).isFalse();
    }

    @Test
    @DisplayName("a drain with blockers and without --allow-stranded: exit 3, every blocker printed, nothing cordoned")
    void refusedDrainWritesNothing() {
        OperatorCommandsTest.Run run = run("drain", "node03", "--ignore-daemonsets", "--delete-emptydir-data",
                "--kubeconfig", kubeconfig);
        assertThat(run.exitCode()).as(run.out() + run.err()).isEqualTo(3);
        assertThat(run.err()).startsWith("error: cannot drain node/node03: ");
        for (String worker : workers()) {
            assertThat(run.err()).contains("node/node03: VirtualMachineInstance demo/" + worker + ": its replacement has nowhere to run");
        }
        assertThat(cordoned("node03")).isFalse();
        assertThat(client.resources(VirtualMachineInstance.class).inNamespace("demo").list().getItems())
                .allSatisfy(v -> assertThat(v.isMarkedForEviction()).isFalse());
    }

    @Test
    @DisplayName("several nodes: previewed together (one JSON entry each, the total the latest), refused together, none cordoned")
    void severalNodes() throws Exception {
        OperatorCommandsTest.Run json = run("drain", "node01", "node03", "--dry-run", "-o", "json", "--ignore-daemonsets",
                "--delete-emptydir-data", "--force", "--kubeconfig", kubeconfig);
        assertThat(json.exitCode()).as(json.err()).isEqualTo(3);
        JsonNode root = new ObjectMapper().readTree(json.out());
        assertThat(root.path("nodes")).extracting(n -> n.path("name").asText()).containsExactly("node01", "node03");
        assertThat(root.path("estimateSeconds").asLong()).isEqualTo(Math.max(root.path("nodes").get(0).path("estimateSeconds").asLong(),
                root.path("nodes").get(1).path("estimateSeconds").asLong()));

        OperatorCommandsTest.Run drain = run("drain", "node01", "node03", "--ignore-daemonsets", "--delete-emptydir-data",
                "--force", "--kubeconfig", kubeconfig);
        assertThat(drain.exitCode()).as(drain.out() + drain.err()).isEqualTo(3);
        assertThat(drain.err()).startsWith("error: cannot drain node/node01, node/node03: ");
        assertThat(cordoned("node01")).as("node01 has no blocker of its own, but is drained with node03").isFalse();
        assertThat(cordoned("node03")).isFalse();
    }

    @Test
    @DisplayName("bad -o values and -o without --dry-run exit 2")
    void badOutput() {
        assertThat(run("drain", "node03", "--dry-run", "-o", "yaml", "--kubeconfig", kubeconfig).exitCode()).isEqualTo(2);
        assertThat(run("drain", "node03", "-o", "json", "--kubeconfig", kubeconfig).exitCode()).isEqualTo(2);
    }

    @Test
    @Order(Integer.MAX_VALUE) // last (unordered tests come at MAX_VALUE / 2): it drains node03's workers for good
    @DisplayName("--allow-stranded drains, and the end names what was left with nowhere to run")
    void allowStranded() {
        List<String> before = workers().stream().sorted().toList();
        OperatorCommandsTest.Run run = run("drain", "node03", "--pod-selector", "app=workers", "--allow-stranded",
                "--ignore-daemonsets", "--timeout", "60s", "--kubeconfig", kubeconfig);
        assertThat(run.exitCode()).as(run.out() + run.err()).isEqualTo(0);
        assertThat(run.out()).contains("node/node03 drained; 3 VMIs have nowhere to run: "
                + String.join(", ", before.stream().map(w -> "demo/" + w).toList()));
        assertThat(run.out()).doesNotContain("node/node03 drained\n");
        assertThat(run.err()).contains("warning: VirtualMachineInstance demo/" + before.getFirst() + ": its replacement has nowhere to run");
        assertThat(cordoned("node03")).isTrue();
        // What the check foretold: the replacements wait, unschedulable.
        await().atMost(WAIT).untilAsserted(() -> assertThat(client.pods().inNamespace("demo").withLabel("kubevirt.io", "virt-launcher")
                .list().getItems().stream().filter(p -> p.getMetadata().getName().startsWith("virt-launcher-workers"))
                .filter(p -> p.getStatus() != null && p.getStatus().getConditions() != null && p.getStatus().getConditions().stream()
                        .anyMatch(c -> "PodScheduled".equals(c.getType()) && "Unschedulable".equals(c.getReason())))
                .count()).isEqualTo(3));
    }

    private static List<String> fields(JsonNode node) {
        List<String> names = new ArrayList<>();
        node.fieldNames().forEachRemaining(names::add);
        return names;
    }
}
