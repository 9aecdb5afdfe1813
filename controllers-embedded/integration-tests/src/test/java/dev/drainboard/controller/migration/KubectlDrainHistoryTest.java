package dev.drainboard.controller.migration;

import static java.util.concurrent.TimeUnit.SECONDS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.drainboard.kubevirt.api.VirtualMachineInstance;
import dev.drainboard.simulation.SimulationKnobs;
import dev.drainboard.testing.KubectlRequirement;
import dev.drainboard.testing.RequiresKubectl;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A plain {@code kubectl drain} (not Drainboard's) marks the node's VMI for evacuation: the controllers' evacuation
 * history loop records it as a DrainRecord of kind Evacuation, started by "evacuation", with the migration it caused,
 * and ends it Drained once the VMI has left. Read back with the real kubectl. (In this package for its fixture,
 * {@link MigrationTestCluster}; the loop is {@code dev.drainboard.controller.history.EvacuationRecorder}.)
 */
@DisplayName("kubectl drain: the evacuation it sets off is recorded in the drain history")
class KubectlDrainHistoryTest {

    @TempDir
    Path workDir;

    @RequiresKubectl
    @Test
    void evacuationRecorded() throws Exception {
        try (MigrationTestCluster c = new MigrationTestCluster(workDir, MigrationTimings.defaults())) {
            // 1 GiB at 128 MiB/s: the mark stays about 8 s, past the loop's settling time.
            c.node("node01", Map.of(SimulationKnobs.LINK_SPEED, "128Mi"));
            VirtualMachineInstance created = c.createVmi("vm-cirros", "LiveMigrate", Map.of());
            c.awaitRunningMigratable("vm-cirros");
            c.node("node02", Map.of());
            await().atMost(MigrationTestCluster.WAIT).until(() -> !c.client.policy().v1().podDisruptionBudget()
                    .inNamespace("default").list().getItems().isEmpty());

            String drained = kubectl(c, "drain", "node01", "--ignore-daemonsets", "--delete-emptydir-data", "--timeout=120s");
            assertThat(drained).contains("node/node01 drained");
            assertThat(c.vmi("vm-cirros").getStatus().getNodeName()).as(() -> whatHappened(c, drained)).isEqualTo("node02");

            await().atMost(MigrationTestCluster.WAIT).untilAsserted(() -> {
                JsonNode items = new ObjectMapper().readTree(kubectl(c, "get", "drainrecords", "-o", "json")).path("items");
                assertThat(items).hasSize(1);
                JsonNode record = items.get(0);
                assertThat(record.path("metadata").path("name").asText()).startsWith("evacuation-node01-");
                assertThat(record.path("spec").path("kind").asText()).isEqualTo("Evacuation");
                assertThat(record.path("spec").path("startedBy").asText()).isEqualTo("evacuation");
                assertThat(record.path("spec").path("nodes")).extracting(JsonNode::asText).containsExactly("node01");
                JsonNode status = record.path("status");
                assertThat(status.path("result").asText()).as(status.toString()).isEqualTo("Drained");
                assertThat(status.path("endedAt").asText()).isNotEmpty();
                assertThat(status.path("pods")).singleElement().satisfies(p -> {
                    assertThat(p.path("name").asText()).isEqualTo("vm-cirros");
                    assertThat(p.path("state").asText()).isEqualTo("MOVED");
                });
                assertThat(status.path("migrations")).singleElement().satisfies(m -> {
                    assertThat(m.path("vmi").asText()).isEqualTo("vm-cirros");
                    assertThat(m.path("sourceNode").asText()).isEqualTo("node01");
                    assertThat(m.path("targetNode").asText()).isEqualTo("node02");
                    assertThat(m.path("phase").asText()).isEqualTo("Succeeded");
                    assertThat(m.path("bytes").asLong()).isPositive();
                });
            });
            String table = kubectl(c, "get", "drainrecords");
            assertThat(table).contains("Evacuation", "[\"node01\"]", "Drained");
            assertThat(created.getMetadata().getUid()).isEqualTo(c.vmi("vm-cirros").getMetadata().getUid());
        }
    }

    /** For a failure's message: what kubectl said and what the cluster holds (a drain that lost its VM, say). */
    private String whatHappened(MigrationTestCluster c, String drained) {
        try {
            return "kubectl drain said:\n" + drained + "\nthe cluster holds:\n"
                    + kubectl(c, "get", "vmi,vmim,pods,pdb", "-o", "wide")
                    + kubectl(c, "get", "events", "--sort-by=.lastTimestamp");
        } catch (Exception | AssertionError e) {
            return "kubectl drain said:\n" + drained + "\n(reading the cluster failed: " + e + ")";
        }
    }

    private String kubectl(MigrationTestCluster c, String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of(KubectlRequirement.binary().toString(),
                "--kubeconfig=" + c.cluster.kubeconfig(), "--cache-dir=" + workDir.resolve("kube-cache")));
        command.addAll(List.of(args));
        ProcessBuilder builder = new ProcessBuilder(command);
        builder.environment().remove("KUBECONFIG");
        builder.redirectErrorStream(true);
        Process p = builder.start();
        p.getOutputStream().close();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(120, SECONDS)).as(out).isTrue();
        assertThat(p.exitValue()).as(out).isZero();
        return out;
    }
}
