package dev.drainboard.controller.migration;

import static java.util.concurrent.TimeUnit.SECONDS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.drainboard.kubevirt.DrainboardAnnotations;
import dev.drainboard.kubevirt.KubeVirtAnnotations;
import dev.drainboard.kubevirt.KubeVirtLabels;
import dev.drainboard.kubevirt.api.VirtualMachineInstance;
import dev.drainboard.kubevirt.api.VirtualMachineInstanceMigration;
import dev.drainboard.simulation.SimulationKnobs;
import dev.drainboard.testing.KubectlRequirement;
import dev.drainboard.testing.RequiresKubectl;
import io.fabric8.kubernetes.api.model.Pod;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * The "Example kubectl drain Output" of KubeVirt's {@code docs/handling-eviction-requests.md}, whole: the real
 * {@code kubectl drain} of a node running a migratable LiveMigrate VMI prints the webhook's denial that triggered the
 * evacuation, then the PDB's denial while the VMI migrates, then the eviction of the (by then completed) launcher pod
 * and {@code drained}; the VMI runs on the other node. The node's link is slowed to 128 MiB/s so the 1 GiB guest takes
 * about 8 s, past kubectl's 5 s retry.
 */
@DisplayName("kubectl drain: KubeVirt's whole example output, with the live migration in between")
class KubectlDrainMigrationTest {

    @TempDir
    Path workDir;

    @RequiresKubectl
    @Test
    void drainPrintsSeedOutputAndTheVmiRunsElsewhere() throws Exception {
        try (MigrationTestCluster c = new MigrationTestCluster(workDir, MigrationTimings.defaults())) {
            c.node("node01", Map.of(SimulationKnobs.LINK_SPEED, "128Mi"));
            VirtualMachineInstance created = c.createVmi("vm-cirros", "LiveMigrate", Map.of());
            c.awaitRunningMigratable("vm-cirros");
            c.node("node02", Map.of());
            await().atMost(MigrationTestCluster.WAIT).until(() -> !c.client.policy().v1().podDisruptionBudget()
                    .inNamespace("default").list().getItems().isEmpty());
            String pod = launcherPods(c, created).getFirst().getMetadata().getName();

            ProcessBuilder builder = new ProcessBuilder(List.of(KubectlRequirement.binary().toString(),
                    "--kubeconfig=" + c.cluster.kubeconfig(), "--cache-dir=" + workDir.resolve("kube-cache"),
                    "drain", "node01", "--ignore-daemonsets", "--delete-emptydir-data", "--timeout=120s"));
            builder.environment().remove("KUBECONFIG");
            builder.redirectErrorStream(true);
            Process drain = builder.start();
            drain.getOutputStream().close();
            StringBuffer output = new StringBuffer();
            Thread reader = Thread.ofVirtual().start(() -> copy(drain.getInputStream(), output));
            try {
                assertThat(drain.waitFor(90, SECONDS)).as(output::toString).isTrue();
                reader.join();
                String text = output.toString();
                assertThat(drain.exitValue()).as(text).isZero();
                String webhook = "error when evicting pods/\"" + pod + "\" -n \"default\" (will retry after 5s): "
                        + "admission webhook \"virt-launcher-eviction-interceptor.kubevirt.io\" denied the request: "
                        + "Eviction triggered evacuation of VMI \"default/vm-cirros\"";
                String budget = "error when evicting pods/\"" + pod + "\" -n \"default\" (will retry after 5s): "
                        + "Cannot evict pod as it would violate the pod's disruption budget.";
                String evicted = "pod/" + pod + " evicted";
                String drained = "node/node01 drained";
                assertThat(text).contains("evicting pod default/" + pod, webhook, budget, evicted, drained);
                assertThat(text.indexOf(webhook)).isLessThan(text.indexOf(budget));
                assertThat(text.indexOf(budget)).isLessThan(text.indexOf(evicted));
                assertThat(text.indexOf(evicted)).isLessThan(text.indexOf(drained));
            } finally {
                drain.destroyForcibly().waitFor();
            }
            VirtualMachineInstance vmi = c.vmi("vm-cirros");
            assertThat(vmi.getStatus().getPhase()).isEqualTo("Running");
            assertThat(vmi.getStatus().getNodeName()).isEqualTo("node02");
            assertThat(vmi.getStatus().getEvacuationNodeName()).isNull();
            assertThat(vmi.getStatus().getMigrationState().getCompleted()).isTrue();
            assertThat(vmi.getStatus().getMigrationState().getSourceNode()).isEqualTo("node01");
            // The guest never stopped: the same VMI (uid) runs, its domain on node02 is the one that came over.
            assertThat(vmi.getMetadata().getUid()).isEqualTo(created.getMetadata().getUid());
            assertThat(c.cluster.hypervisors().forNode("node02").orElseThrow().domain(vmi.getMetadata().getUid()))
                    .hasValueSatisfying(d -> assertThat(d.isAlive()).isTrue());
            VirtualMachineInstanceMigration vmim = c.migrations().getFirst();
            assertThat(vmim.getStatus().getPhase()).isEqualTo("Succeeded");
            assertThat(vmim.getMetadata().getAnnotations())
                    .containsEntry(KubeVirtAnnotations.EVACUATION_MIGRATION, "node01")
                    .containsEntry(DrainboardAnnotations.MIGRATION_CAUSE, DrainboardAnnotations.CAUSE_API_EVICTION)
                    .containsKey(DrainboardAnnotations.MIGRATION_PROGRESS);
            assertThat(vmim.getStatus().getPhaseTransitionTimestamps()).extracting(p -> p.getPhase())
                    .containsExactly("Pending", "Scheduling", "Scheduled", "PreparingTarget", "TargetReady", "Running", "Succeeded");
            await().atMost(MigrationTestCluster.WAIT).untilAsserted(() -> assertThat(c.client.policy().v1().podDisruptionBudget()
                    .inNamespace("default").list().getItems()).singleElement()
                    .satisfies(pdb -> assertThat(pdb.getSpec().getMinAvailable().getIntVal()).isEqualTo(1)));

            // kubectl get vmi shows the guest at its new launcher pod's IP (status.interfaces[0]), as virt-handler reports it.
            Pod target = launcherPods(c, created).stream().filter(p -> "node02".equals(p.getSpec().getNodeName())).findFirst().orElseThrow();
            await().atMost(MigrationTestCluster.WAIT).untilAsserted(() -> {
                Process get = new ProcessBuilder(List.of(KubectlRequirement.binary().toString(), "--kubeconfig=" + c.cluster.kubeconfig(),
                        "--cache-dir=" + workDir.resolve("kube-cache"), "get", "vmi", "vm-cirros", "-o", "wide", "--no-headers"))
                        .redirectErrorStream(true).start();
                String row = new String(get.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
                assertThat(get.waitFor()).as(row).isZero();
                assertThat(row.trim().split("\\s+")).as(row).contains(target.getStatus().getPodIP(), "node02");
            });
        }
    }

    private static List<Pod> launcherPods(MigrationTestCluster c, VirtualMachineInstance vmi) {
        return c.client.pods().inNamespace("default").withLabel(KubeVirtLabels.CREATED_BY, vmi.getMetadata().getUid())
                .list().getItems();
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
