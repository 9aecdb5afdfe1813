package dev.drainboard.cluster.e2e;

import static java.util.concurrent.TimeUnit.SECONDS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.drainboard.testing.RequiresKubectl;

import java.nio.file.Path;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code kubectl drain} on nodes holding a ReplicaSet pod with emptyDir data, a DaemonSet pod and
 * the only healthy pod of a PodDisruptionBudget (scenario {@code e2e/drain-scenario.yaml}).
 */
@DisplayName("kubectl drain against the embedded cluster")
@RequiresKubectl
class KubectlDrainTest {

    private static final String PDB_REFUSAL = "Cannot evict pod as it would violate the pod's disruption budget.";

    @TempDir
    static Path workDir;

    private static E2eCluster e2e;
    private static Kubectl kubectl;

    @BeforeAll
    static void startCluster() throws Exception {
        e2e = E2eCluster.startWithKubectl("drain-scenario.yaml", workDir);
        kubectl = e2e.kubectl();
        kubectl.succeed("wait", "--for=condition=Ready", "pods", "--all", "-A", "--timeout=45s");
        await().atMost(30, SECONDS).untilAsserted(() -> assertThat(kubectl.succeed("get", "pdb", "-n", "shop",
                "-o", "jsonpath={range .items[*]}{.metadata.name}={.status.currentHealthy}/{.status.disruptionsAllowed} {end}").stdout())
                .isEqualTo("db=1/0 queue=1/0 "));
    }

    @AfterAll
    static void stopCluster() {
        if (e2e != null) {
            e2e.close();
        }
    }

    @Test
    @DisplayName("drain waits on the disruption budget, then completes once a second replica is ready")
    void drainWaitsForTheBudgetThenCompletes() {
        try (var drain = kubectl.start("drain", "node01", "--ignore-daemonsets", "--delete-emptydir-data", "--timeout=180s")) {
            await().atMost(60, SECONDS).untilAsserted(() -> assertThat(drain.output())
                    .contains("node/node01 cordoned")
                    .contains("Warning: ignoring DaemonSet-managed Pods: kube-system/log-agent-node01")
                    .contains("evicting pod shop/db-0")
                    .contains("error when evicting pods/\"db-0\" -n \"shop\" (will retry after 5s): " + PDB_REFUSAL)
                    .contains("pod/frontend-5d8f7-abcde evicted"));
            assertThat(drain.isRunning()).as(drain.output()).isTrue();
            assertThat(kubectl.succeed("get", "pod", "-n", "shop", "db-0", "-o", "name").stdout()).isEqualTo("pod/db-0\n");

            // A second replica elsewhere: once it is ready, the budget allows db-0 to go.
            kubectl.succeed("scale", "statefulset", "db", "-n", "shop", "--replicas=2");

            await().atMost(90, SECONDS).until(() -> !drain.isRunning());
            assertThat(drain.exitCode()).as(drain.output()).isZero();
            assertThat(drain.output()).contains("pod/db-0 evicted", "node/node01 drained");
        }
        assertThat(kubectl.succeed("get", "pods", "-A", "--field-selector", "spec.nodeName=node01", "-o", "name").stdout())
                .isEqualTo("pod/log-agent-node01\n");
        assertThat(kubectl.succeed("get", "node", "node01").stdout()).contains("SchedulingDisabled");
    }

    @Test
    @DisplayName("drain completes once the budget is patched to allow the disruption")
    void drainCompletesWhenTheBudgetIsRelaxed() {
        try (var drain = kubectl.start("drain", "node03", "--ignore-daemonsets", "--delete-emptydir-data", "--timeout=180s")) {
            await().atMost(60, SECONDS).untilAsserted(() -> assertThat(drain.output())
                    .contains("error when evicting pods/\"queue-0\" -n \"shop\" (will retry after 5s): " + PDB_REFUSAL));

            kubectl.succeed("patch", "pdb", "queue", "-n", "shop", "--type", "merge", "-p", "{\"spec\":{\"minAvailable\":0}}");

            await().atMost(90, SECONDS).until(() -> !drain.isRunning());
            assertThat(drain.exitCode()).as(drain.output()).isZero();
            assertThat(drain.output()).contains("pod/queue-0 evicted", "pod/frontend-5d8f7-fghij evicted", "node/node03 drained");
        }
        assertThat(kubectl.succeed("get", "pods", "-A", "--field-selector", "spec.nodeName=node03", "-o", "name").stdout())
                .isEqualTo("pod/log-agent-node03\n");
    }
}
