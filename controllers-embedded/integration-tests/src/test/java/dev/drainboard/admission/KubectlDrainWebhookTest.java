package dev.drainboard.admission;

import static java.util.concurrent.TimeUnit.SECONDS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.drainboard.testing.KubectlRequirement;
import dev.drainboard.testing.RequiresKubectl;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;

/**
 * The example of KubeVirt's {@code docs/handling-eviction-requests.md}: the real {@code kubectl drain} on a node
 * running a migratable VMI with {@code LiveMigrate} first reports the evacuation the webhook triggered, then, on its
 * retry five seconds later, the PDB.
 */
@DisplayName("kubectl drain: webhook denial with evacuation, then the PDB")
class KubectlDrainWebhookTest {

    @TempDir
    Path workDir;

    @RequiresKubectl
    @Test
    @DisplayName("prints KubeVirt's two example lines for a migratable LiveMigrate VMI")
    void drainPrintsSeedLines() throws Exception {
        try (EvictionTestCluster cluster = EvictionTestCluster.start(workDir)) {
            String pod = cluster.runVmi("vm-cirros", "LiveMigrate", true, "node02").getMetadata().getName();
            cluster.awaitBudget("vm-cirros", true);

            ProcessBuilder builder = new ProcessBuilder(List.of(KubectlRequirement.binary().toString(),
                    "--kubeconfig=" + cluster.cluster().kubeconfig(), "--cache-dir=" + workDir.resolve("kube-cache"),
                    "drain", "node02", "--ignore-daemonsets", "--delete-emptydir-data", "--timeout=120s"));
            builder.environment().remove("KUBECONFIG");
            builder.redirectErrorStream(true);
            Process drain = builder.start();
            drain.getOutputStream().close();
            StringBuffer output = new StringBuffer();
            Thread reader = Thread.ofVirtual().start(() -> copy(drain.getInputStream(), output));
            try {
                String first = "error when evicting pods/\"" + pod + "\" -n \"default\" (will retry after 5s): "
                        + "admission webhook \"virt-launcher-eviction-interceptor.kubevirt.io\" denied the request: "
                        + "Eviction triggered evacuation of VMI \"default/vm-cirros\"";
                String second = "error when evicting pods/\"" + pod + "\" -n \"default\" (will retry after 5s): "
                        + "Cannot evict pod as it would violate the pod's disruption budget.";
                await().atMost(30, SECONDS).untilAsserted(() -> assertThat(output.toString()).contains(first));
                await().atMost(30, SECONDS).untilAsserted(() -> assertThat(output.toString()).contains(second));
                String text = output.toString();
                assertThat(text.indexOf(first)).isLessThan(text.indexOf(second));
                assertThat(text).contains("evicting pod default/" + pod);
                assertThat(drain.isAlive()).as(text).isTrue();
                assertThat(cluster.vmi("vm-cirros").getStatus().getEvacuationNodeName()).isEqualTo("node02");
            } finally {
                drain.destroyForcibly().waitFor();
                reader.join();
            }
        }
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
