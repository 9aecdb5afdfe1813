package dev.drainboard.cluster.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.drainboard.controlplane.LocalControlPlane;
import dev.drainboard.testing.RequiresKubectl;
import io.fabric8.kubernetes.client.Config;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;

/**
 * The real kubectl and VirtualMachineInstanceReplicaSets on the embedded cluster with the control plane running, as
 * {@code drainboard serve} runs it: {@code kubectl scale vmirs/NAME --replicas=5} scales through the scale
 * subresource, {@code kubectl get vmirs} shows Desired / Current / Ready, bad sets are refused with 422.
 */
@DisplayName("kubectl and VirtualMachineInstanceReplicaSets")
@RequiresKubectl
class KubectlReplicaSetTest {

    private static final String SET = """
            apiVersion: kubevirt.io/v1
            kind: VirtualMachineInstanceReplicaSet
            metadata:
              name: %s
              namespace: default
            spec:
              replicas: 2
              selector:
                matchLabels: {app: %s}
              template:
                metadata:
                  labels: {app: %s}
                spec:
                  networks: [{name: default, pod: {}}]
                  domain: {devices: {interfaces: [{name: default, masquerade: {}}]}, memory: {guest: 256Mi}}
                  volumes: [{name: root, containerDisk: {image: quay.io/containerdisks/cirros}}]
            """;

    @TempDir
    static Path workDir;
    static E2eCluster cluster;
    static Kubectl kubectl;
    static LocalControlPlane plane;

    @BeforeAll
    static void start() throws Exception {
        cluster = E2eCluster.startWithKubectl(null, workDir);
        kubectl = cluster.kubectl();
        plane = LocalControlPlane.start(Config.fromKubeconfig(Files.readString(cluster.cluster().kubeconfig())),
                cluster.cluster().hypervisors(), true);
        kubectl.apply("""
                apiVersion: v1
                kind: Node
                metadata: {name: node01}
                """);
    }

    @AfterAll
    static void stop() {
        if (plane != null) {
            plane.close();
        }
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    @DisplayName("kubectl scale vmirs/NAME --replicas=5 scales; kubectl get vmirs shows DESIRED, CURRENT and READY")
    void scaleAndGet() {
        kubectl.apply(SET.formatted("web", "web", "web"));
        awaitColumns("web", "2", "2", "2");

        assertThat(kubectl.succeed("scale", "vmirs/web", "--replicas=5").stdout())
                .isEqualTo("virtualmachineinstancereplicaset.kubevirt.io/web scaled\n");
        awaitColumns("web", "5", "5", "5");
        List<String> lines = kubectl.succeed("get", "vmirs").stdout().lines().toList();
        assertThat(List.of(lines.getFirst().split("\\s+"))).containsExactly("NAME", "DESIRED", "CURRENT", "READY", "AGE");
        assertThat(kubectl.succeed("get", "vmis", "-l", "app=web", "-o", "name").stdout().lines()).hasSize(5);
        assertThat(kubectl.succeed("get", "vmirs", "web", "-o", "jsonpath={.status.labelSelector}").stdout()).isEqualTo("app=web");

        kubectl.succeed("scale", "vmirs", "web", "--replicas=1");
        awaitColumns("web", "1", "1", "1");
        await().atMost(Duration.ofSeconds(60)).until(() ->
                kubectl.succeed("get", "vmis", "-l", "app=web", "-o", "name").stdout().lines().count() == 1);
    }

    @Test
    @DisplayName("kubectl scale to a negative count is refused and changes nothing")
    void negativeScale() {
        kubectl.apply(SET.formatted("neg", "neg", "neg"));
        Kubectl.Result result = kubectl.run("scale", "vmirs/neg", "--replicas=-1");
        assertThat(result.exitCode()).as(result::describe).isNotZero();
        assertThat(kubectl.succeed("get", "vmirs", "neg", "-o", "jsonpath={.spec.replicas}").stdout()).isEqualTo("2");
    }

    @Test
    @DisplayName("kubectl apply of a set whose selector does not match its template: 422 with the reason, nothing stored")
    void invalidSetRefused() {
        Kubectl.Result result = kubectl.runWithInput(SET.formatted("bad", "web", "db"), "apply", "-f", "-");
        assertThat(result.exitCode()).as(result::describe).isEqualTo(1);
        // kubectl words an Invalid Status from its details: the kind (without its group, as kube-apiserver's
        // NewInvalid puts it there), the name and the causes
        assertThat(result.stderr()).contains("The VirtualMachineInstanceReplicaSet \"bad\" is invalid: "
                + "spec.selector: Invalid value: \"app=web\": selector does not match labels. (template labels: app=db)");
        assertThat(kubectl.run("get", "vmirs", "bad").stderr()).contains("not found");
    }

    private static void awaitColumns(String name, String desired, String current, String ready) {
        await().atMost(Duration.ofSeconds(60)).until(() -> {
            List<String> lines = kubectl.succeed("get", "vmirs", name, "--no-headers").stdout().lines().toList();
            if (lines.size() != 1) {
                return false;
            }
            String[] columns = lines.getFirst().trim().split("\\s+");
            return columns.length >= 4 && Arrays.asList(columns).subList(0, 4).equals(List.of(name, desired, current, ready));
        });
    }
}
