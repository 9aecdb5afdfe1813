package dev.drainboard.controller.maintenance;

import static java.util.concurrent.TimeUnit.SECONDS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.drainboard.kubevirt.KubeVirtProfile;
import dev.drainboard.testing.KubectlRequirement;
import dev.drainboard.testing.RequiresKubectl;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A maintenance plan the way an operator handles one with the real kubectl: applied from YAML, listed with
 * {@code kubectl get mp}, paused, resumed and aborted with {@code kubectl patch}; the controllers follow.
 */
@DisplayName("kubectl: apply, get, pause, resume and abort a maintenance plan")
class KubectlMaintenancePlanTest {

    @TempDir
    Path workDir;

    @RequiresKubectl
    @Test
    void operatorFlow() throws Exception {
        try (MaintenanceTestCluster c = new MaintenanceTestCluster(workDir)) {
            c.kubeVirtVersion("v1.6.0", KubeVirtProfile.V1_6);
            MaintenancePlanIntegrationTest.NODES.forEach(c::node);
            MaintenancePlanIntegrationTest.twelveVms(c);

            Path yaml = workDir.resolve("plan.yaml");
            Files.writeString(yaml, """
                    apiVersion: drainboard.dev/v1alpha1
                    kind: MaintenancePlan
                    metadata: {name: window}
                    spec:
                      nodeSelector: kubernetes.io/hostname in (node01,node02,node03,node04)
                      afterDrain: {type: WaitForAnnotation, annotation: example.com/upgraded}
                    """);
            assertThat(kubectl(c, "apply", "-f", yaml.toString())).contains("maintenanceplan.drainboard.dev/window created");

            // The first node drains, then waits for the annotation an upgrade would set.
            await().atMost(MaintenanceTestCluster.WAIT).until(() ->
                    kubectl(c, "get", "mp", "window", "-o", "jsonpath={.status.nodes[0].phase}").equals("AfterDrain"));
            String first = kubectl(c, "get", "mp", "window", "-o", "jsonpath={.status.nodes[0].name}");
            String table = kubectl(c, "get", "mp");
            assertThat(table.lines().findFirst().orElseThrow()).contains("NAME", "PHASE", "NODES", "MIGRATIONS", "AGE");
            assertThat(table).containsPattern("window\\s+Running\\s+0/4\\s+\\d+\\s");
            assertThat(kubectl(c, "get", "node", first, "-o", "jsonpath={.spec.unschedulable}")).isEqualTo("true");

            assertThat(kubectl(c, "patch", "mp", "window", "--type", "merge", "-p", "{\"spec\":{\"action\":\"Pause\"}}"))
                    .contains("maintenanceplan.drainboard.dev/window patched");
            await().atMost(MaintenanceTestCluster.WAIT).until(() ->
                    kubectl(c, "get", "mp", "window", "-o", "jsonpath={.status.phase}").equals("Paused"));
            // Paused: the annotation arrives, but the node is not uncordoned until the plan runs again.
            kubectl(c, "annotate", "node", first, "example.com/upgraded=true");
            await().during(java.time.Duration.ofSeconds(2)).atMost(java.time.Duration.ofSeconds(10)).until(() ->
                    kubectl(c, "get", "mp", "window", "-o", "jsonpath={.status.nodes[0].phase}").equals("AfterDrain"));

            kubectl(c, "patch", "mp", "window", "--type", "merge", "-p", "{\"spec\":{\"action\":\"Run\"}}");
            await().atMost(MaintenanceTestCluster.WAIT).until(() ->
                    kubectl(c, "get", "mp", "window", "-o", "jsonpath={.status.nodes[0].phase}").equals("Done"));
            assertThat(kubectl(c, "get", "node", first, "-o", "jsonpath={.spec.unschedulable}")).isEmpty();

            await().atMost(MaintenanceTestCluster.WAIT).until(() ->
                    kubectl(c, "get", "mp", "window", "-o", "jsonpath={.status.nodes[1].phase}").equals("AfterDrain"));
            String second = kubectl(c, "get", "mp", "window", "-o", "jsonpath={.status.nodes[1].name}");
            kubectl(c, "patch", "mp", "window", "--type", "merge", "-p", "{\"spec\":{\"action\":\"Abort\"}}");
            await().atMost(MaintenanceTestCluster.WAIT).until(() ->
                    kubectl(c, "get", "mp", "window", "-o", "jsonpath={.status.phase}").equals("Aborted"));
            assertThat(kubectl(c, "get", "node", second, "-o", "jsonpath={.spec.unschedulable}")).as("uncordoned by the abort").isEmpty();
            assertThat(kubectl(c, "get", "mp", "window")).containsPattern("window\\s+Aborted\\s+1/4\\s");
            assertThat(kubectl(c, "get", "mp", "window", "-o", "jsonpath={.status.message}")).isEqualTo("aborted: 1 of 4 nodes maintained");
        }
    }

    @RequiresKubectl
    @Test
    @DisplayName("serve --scenario maintenance: a first-time user's plan over the four nodes runs to the end with kubectl")
    void maintenanceScenario() throws Exception {
        try (MaintenanceTestCluster c = new MaintenanceTestCluster(workDir, "maintenance", null)) {
            await().atMost(MaintenanceTestCluster.WAIT).until(() ->
                    kubectl(c, "get", "vmi", "-n", "maintenance", "-o", "jsonpath={.items[*].status.nodeName}").split(" ").length == 8);
            assertThat(kubectl(c, "wait", "vmi", "--all", "-n", "maintenance", "--for=jsonpath={.status.phase}=Running",
                    "--timeout=120s")).contains("condition met");
            Path yaml = workDir.resolve("window.yaml");
            Files.writeString(yaml, """
                    apiVersion: drainboard.dev/v1alpha1
                    kind: MaintenancePlan
                    metadata: {name: window}
                    spec:
                      nodes: [node01, node02, node03, node04]
                    """);
            assertThat(kubectl(c, "apply", "-f", yaml.toString())).contains("maintenanceplan.drainboard.dev/window created");
            assertThat(kubectl(c, "wait", "mp", "window", "--for=jsonpath={.status.phase}=Succeeded", "--timeout=300s"))
                    .contains("condition met");
            assertThat(kubectl(c, "get", "mp", "window")).containsPattern("window\\s+Succeeded\\s+4/4\\s");
            String planned = kubectl(c, "get", "mp", "window", "-o", "jsonpath={.status.plan.migrations}");
            assertThat(kubectl(c, "get", "mp", "window", "-o", "jsonpath={.status.migrationsMade}")).isEqualTo(planned);
            assertThat(kubectl(c, "get", "nodes", "-o", "jsonpath={.items[*].spec.unschedulable}")).isBlank();
            assertThat(kubectl(c, "get", "vmi", "-n", "maintenance", "-o", "jsonpath={.items[*].status.phase}").split(" "))
                    .hasSize(8).containsOnly("Running");
        }
    }

    private String kubectl(MaintenanceTestCluster c, String... args) throws Exception {
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
