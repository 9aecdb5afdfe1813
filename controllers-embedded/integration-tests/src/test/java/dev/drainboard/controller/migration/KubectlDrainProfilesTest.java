package dev.drainboard.controller.migration;

import static java.util.concurrent.TimeUnit.SECONDS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.drainboard.kubevirt.KubeVirtLabels;
import dev.drainboard.kubevirt.KubeVirtProfile;
import dev.drainboard.kubevirt.api.VirtualMachineInstance;
import dev.drainboard.ops.DrainOptions;
import dev.drainboard.ops.DrainResult;
import dev.drainboard.ops.Ops;
import io.fabric8.kubernetes.client.Config;
import dev.drainboard.simulation.SimulationKnobs;
import dev.drainboard.testing.KubectlRequirement;
import dev.drainboard.testing.RequiresKubectl;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Collections;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * {@code kubectl drain} of a node with two LiveMigrate VMIs, per KubeVirt release the cluster reports
 * ({@code status.observedKubeVirtVersion}): the webhook registration (failurePolicy, matchConditions) and the PDBs are
 * the release's, kubectl prints the release's denials (the first: the evacuation is triggered; the repeats: the PDB
 * up to v1.4, the webhook's {@code Evacuation in progress} from v1.5), the VMIs move and the node drains.
 */
@DisplayName("kubectl drain per KubeVirt release: registration, PDBs and denials as that release has them")
class KubectlDrainProfilesTest {

    private static final String WEBHOOK = "admission webhook \"virt-launcher-eviction-interceptor.kubevirt.io\" denied the request: ";

    @TempDir
    Path workDir;

    @RequiresKubectl
    @ParameterizedTest(name = "KubeVirt {0}")
    @CsvSource(delimiter = '|', textBlock = """
            v1.4.1 | SEEDS
            v1.5.2 | V1_5
            v1.6.0 | V1_6
            v1.8.1 | V1_7
            v1.9.0 | V1_9
            """)
    void drainAsThatReleaseRunsIt(String version, KubeVirtProfile profile) throws Exception {
        try (MigrationTestCluster c = new MigrationTestCluster(workDir, MigrationTimings.defaults())) {
            c.cluster.setKubeVirtVersion(version);
            String expectedRegistration = profile.webhookFailsClosed() ? "Fail only-vms object.metadata.name.startsWith(\"virt-launcher\")" : "Ignore";
            await().atMost(MigrationTestCluster.WAIT).untilAsserted(() -> assertThat(kubectl("get", "validatingwebhookconfiguration",
                    "virt-api-validator", "-o", "jsonpath={.webhooks[0].failurePolicy} {.webhooks[0].matchConditions[*].name} "
                            + "{.webhooks[0].matchConditions[*].expression}").trim()).isEqualTo(expectedRegistration));

            // A slow link (128 MiB/s, 1 GiB guests): the migrations outlast kubectl's 5 s retry, so it prints repeats.
            c.node("node01", Map.of(SimulationKnobs.LINK_SPEED, "128Mi"));
            List<VirtualMachineInstance> vmis = List.of(c.createVmi("vm-a", "LiveMigrate", Map.of()), c.createVmi("vm-b", "LiveMigrate", Map.of()));
            c.awaitRunningMigratable("vm-a");
            c.awaitRunningMigratable("vm-b");
            c.node("node02", Map.of());
            if (profile.protectsWithPdbs()) {
                await().atMost(MigrationTestCluster.WAIT).until(() -> pdbs(c) == 2);
            }
            assertThat(pdbs(c)).as("PDBs for the VMIs").isEqualTo(profile.protectsWithPdbs() ? 2 : 0);
            List<String> pods = new ArrayList<>();
            for (VirtualMachineInstance vmi : vmis) {
                pods.add(c.client.pods().inNamespace("default").withLabel(KubeVirtLabels.CREATED_BY, vmi.getMetadata().getUid())
                        .list().getItems().getFirst().getMetadata().getName());
            }

            String text = drain();

            assertThat(text).contains("node/node01 drained");
            for (int i = 0; i < pods.size(); i++) {
                String vmi = vmis.get(i).getMetadata().getName();
                String prefix = "error when evicting pods/\"" + pods.get(i) + "\" -n \"default\" (will retry after 5s): ";
                String first = prefix + WEBHOOK + "Eviction triggered evacuation of VMI \"default/" + vmi + "\"";
                String repeat = profile.webhookDeniesRepeats()
                        ? prefix + WEBHOOK + "Evacuation in progress: Eviction triggered evacuation of VMI \"default/" + vmi + "\""
                        : prefix + "Cannot evict pod as it would violate the pod's disruption budget.";
                String evicted = "pod/" + pods.get(i) + " evicted";
                assertThat(text).contains(first, repeat, evicted);
                assertThat(text.indexOf(first)).isLessThan(text.indexOf(repeat));
                assertThat(text.indexOf(repeat)).isLessThan(text.indexOf(evicted));
                if (profile.webhookDeniesRepeats()) {
                    assertThat(text).as("no PDB stands in the way from v1.5: the webhook refuses first")
                            .doesNotContain("violate the pod's disruption budget");
                }
                VirtualMachineInstance moved = c.vmi(vmi);
                assertThat(moved.getStatus().getNodeName()).isEqualTo("node02");
                assertThat(moved.getStatus().getPhase()).isEqualTo("Running");
            }
            assertThat(pdbs(c)).as("PDBs after the drain").isEqualTo(profile.protectsWithPdbs() ? 2 : 0);
        }
    }

    /**
     * {@code drainboard drain} on the releases whose webhook refuses every repeat: with the fallback retry an hour
     * away, the drain still ends as soon as the VMIs have moved, because it retries when the pod, the VMI or a PDB
     * changes (DrainOperation's informers), not on a timer; the webhook's repeated refusals are progress, never a failure.
     */
    @RequiresKubectl
    @ParameterizedTest(name = "KubeVirt {0}")
    @CsvSource({"v1.5.2", "v1.9.0"})
    void drainboardDrainReactsToChangesNotATimer(String version) throws Exception {
        try (MigrationTestCluster c = new MigrationTestCluster(workDir, MigrationTimings.defaults());
             Ops ops = Ops.connect(Config.fromKubeconfig(Files.readString(workDir.resolve("kubeconfig"))))) {
            c.cluster.setKubeVirtVersion(version);
            await().atMost(MigrationTestCluster.WAIT).until(() -> kubectl("get", "validatingwebhookconfiguration", "virt-api-validator",
                    "-o", "jsonpath={.webhooks[0].failurePolicy}").trim().equals("Fail"));
            c.node("node01", Map.of(SimulationKnobs.LINK_SPEED, "128Mi"));
            c.createVmi("vm-a", "LiveMigrate", Map.of());
            c.createVmi("vm-b", "LiveMigrate", Map.of());
            c.awaitRunningMigratable("vm-a");
            c.awaitRunningMigratable("vm-b");
            c.node("node02", Map.of());
            List<String> states = Collections.synchronizedList(new ArrayList<>());

            DrainResult result = ops.drain("node01", DrainOptions.defaults().withIgnoreDaemonSets(true)
                            .withRetryInterval(Duration.ofHours(1)).withTimeout(Duration.ofMinutes(5)),
                    progress -> progress.pods().forEach(p -> states.add(p.state().name()))).await();

            assertThat(result.status()).as(result.why()).isEqualTo(DrainResult.Status.DRAINED);
            assertThat(states).contains("WAITING_FOR_MIGRATION").doesNotContain("FAILED", "BLOCKED");
            assertThat(c.vmi("vm-a").getStatus().getNodeName()).isEqualTo("node02");
            assertThat(c.vmi("vm-b").getStatus().getNodeName()).isEqualTo("node02");
        }
    }

    private static long pdbs(MigrationTestCluster c) {
        return c.client.policy().v1().podDisruptionBudget().inNamespace("default").list().getItems().stream()
                .filter(p -> p.getMetadata().getDeletionTimestamp() == null).count();
    }

    private String drain() throws Exception {
        Process drain = process("drain", "node01", "--ignore-daemonsets", "--delete-emptydir-data", "--timeout=120s");
        StringBuffer output = new StringBuffer();
        Thread reader = Thread.ofVirtual().start(() -> copy(drain.getInputStream(), output));
        try {
            assertThat(drain.waitFor(150, SECONDS)).as(output::toString).isTrue();
            reader.join();
            assertThat(drain.exitValue()).as(output.toString()).isZero();
            return output.toString();
        } finally {
            drain.destroyForcibly().waitFor();
        }
    }

    private String kubectl(String... args) throws Exception {
        Process p = process(args);
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, SECONDS)).isTrue();
        return out;
    }

    private Process process(String... args) throws IOException {
        List<String> command = new ArrayList<>(List.of(KubectlRequirement.binary().toString(),
                "--kubeconfig=" + workDir.resolve("kubeconfig"), "--cache-dir=" + workDir.resolve("kube-cache")));
        command.addAll(List.of(args));
        ProcessBuilder builder = new ProcessBuilder(command);
        builder.environment().remove("KUBECONFIG");
        builder.redirectErrorStream(true);
        Process p = builder.start();
        p.getOutputStream().close();
        return p;
    }

    private static void copy(InputStream in, StringBuffer out) {
        byte[] buffer = new byte[4096];
        try {
            int n;
            while ((n = in.read(buffer)) > 0) {
                out.append(new String(buffer, 0, n, StandardCharsets.UTF_8));
            }
        } catch (IOException e) {
            // the process was killed
        }
    }
}
