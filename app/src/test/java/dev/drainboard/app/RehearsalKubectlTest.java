package dev.drainboard.app;

import dev.drainboard.cluster.EmbeddedCluster;
import dev.drainboard.cluster.EmbeddedClusterOptions;
import dev.drainboard.testing.RequiresKubectl;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

import static dev.drainboard.app.OperatorCommandsTest.run;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A rehearsal as an operator runs it with the real kubectl: {@code drainboard snapshot} of a cluster, the copy served
 * at time scale 10 (as {@code serve --scenario DIR --time-scale 10}); kubectl sees the same VMIs on the same nodes and
 * the scale on the KubeVirt CR; a node is uncordoned and a VMI live-migrated there with a VMIM applied by kubectl.
 */
@DisplayName("a rehearsal with kubectl: snapshot, served at time scale 10, same placements, a migration on the copy")
@RequiresKubectl
class RehearsalKubectlTest {

    private static final Duration WAIT = Duration.ofSeconds(120);

    @TempDir
    Path dir;

    @Test
    void rehearsesAMigrationOnTheCopy() throws Exception {
        Path scenario = dir.resolve("rehearsal.yaml");
        try (InputStream in = getClass().getResourceAsStream("/snapshot/rehearsal.yaml")) {
            Files.write(scenario, in.readAllBytes());
        }
        Path copy = dir.resolve("copy");
        Map<String, String> placements;
        try (EmbeddedCluster source = EmbeddedCluster.start(EmbeddedClusterOptions.defaults().withScenario(scenario.toString())
                .withPort(0).withKubeconfigOut(dir.resolve("source.kubeconfig")));
             SnapshotCommandTest.Running running = SnapshotCommandTest.Running.on(source, 5)) {
            placements = vmiNodes(source.kubeconfig());
            var snapshot = run("snapshot", "--kubeconfig", source.kubeconfig().toString(), "-o", copy.toString());
            assertThat(snapshot.exitCode()).as(snapshot.err()).isZero();
        }

        try (EmbeddedCluster served = EmbeddedCluster.start(EmbeddedClusterOptions.defaults().withScenario(copy.toString())
                .withPort(0).withKubeconfigOut(dir.resolve("copy.kubeconfig")).withTimeScale(10));
             SnapshotCommandTest.Running running = SnapshotCommandTest.Running.on(served, 5)) {
            Path kc = served.kubeconfig();
            assertThat(kubectl(kc, "get", "kubevirt", "kubevirt", "-n", "kubevirt", "-o",
                    "jsonpath={.metadata.annotations.drainboard\\.dev/time-scale}")).isEqualTo("10");
            assertThat(vmiNodes(kc)).isEqualTo(placements);
            assertThat(kubectl(kc, "get", "node", "node-c", "--no-headers")).contains("SchedulingDisabled");
            assertThat(kubectl(kc, "get", "node", "node-b", "-o", "jsonpath={.spec.taints[0].key}")).isEqualTo("dedicated");

            kubectl(kc, "uncordon", "node-c");
            String from = placements.get("vmi-free");
            Path vmim = Files.writeString(dir.resolve("vmim.yaml"), """
                    apiVersion: kubevirt.io/v1
                    kind: VirtualMachineInstanceMigration
                    metadata: {name: rehearse-free, namespace: apps}
                    spec: {vmiName: vmi-free}
                    """);
            kubectl(kc, "apply", "-f", vmim.toString());
            await().atMost(WAIT).until(() -> kubectl(kc, "get", "vmim", "rehearse-free", "-n", "apps", "-o",
                    "jsonpath={.status.phase}").equals("Succeeded"));
            assertThat(vmiNodes(kc).get("vmi-free")).isNotEqualTo(from);
        }
    }

    private static Map<String, String> vmiNodes(Path kubeconfig) throws IOException, InterruptedException {
        Map<String, String> nodes = new TreeMap<>();
        for (String line : kubectl(kubeconfig, "get", "vmi", "-n", "apps", "--no-headers", "-o",
                "custom-columns=NAME:.metadata.name,NODE:.status.nodeName").split("\n")) {
            if (!line.isBlank()) {
                String[] cells = line.trim().split("\\s+");
                nodes.put(cells[0], cells[1]);
            }
        }
        return nodes;
    }

    private static String kubectl(Path kubeconfig, String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("kubectl", "--kubeconfig", kubeconfig.toString()));
        command.addAll(List.of(args));
        Process p = new ProcessBuilder(command).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(err).isZero();
        return out;
    }
}
