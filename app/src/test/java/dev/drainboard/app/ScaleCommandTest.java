package dev.drainboard.app;

import dev.drainboard.cluster.EmbeddedCluster;
import dev.drainboard.cluster.EmbeddedClusterOptions;
import dev.drainboard.controlplane.LocalControlPlane;
import dev.drainboard.kubevirt.api.VirtualMachineInstance;
import dev.drainboard.kubevirt.api.VirtualMachineInstanceReplicaSet;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

import static dev.drainboard.app.OperatorCommandsTest.run;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

@DisplayName("scale command: output, exit codes, and bad input that writes nothing")
class ScaleCommandTest {

    private static final Duration WAIT = Duration.ofSeconds(60);

    @TempDir
    static Path dir;
    static EmbeddedCluster cluster;
    static LocalControlPlane plane;
    static KubernetesClient client;
    static String kubeconfig;

    @BeforeAll
    static void start() throws Exception {
        Path scenario = dir.resolve("scenario.yaml");
        Files.writeString(scenario, """
                apiVersion: v1
                kind: Node
                metadata: {name: node01}
                ---
                apiVersion: kubevirt.io/v1
                kind: VirtualMachineInstanceReplicaSet
                metadata: {name: web, namespace: demo}
                spec:
                  replicas: 1
                  selector: {matchLabels: {app: web}}
                  template:
                    metadata: {labels: {app: web}}
                    spec:
                      networks: [{name: default, pod: {}}]
                      domain: {devices: {interfaces: [{name: default, masquerade: {}}]}, memory: {guest: 256Mi}}
                      volumes: [{name: root, containerDisk: {image: quay.io/containerdisks/cirros}}]
                """);
        cluster = EmbeddedCluster.start(EmbeddedClusterOptions.defaults().withScenario(scenario.toString()).withPort(0)
                .withKubeconfigOut(dir.resolve("kubeconfig")));
        kubeconfig = cluster.kubeconfig().toString();
        Config config = Config.fromKubeconfig(Files.readString(cluster.kubeconfig()));
        plane = LocalControlPlane.start(config, cluster.hypervisors(), true);
        client = new KubernetesClientBuilder().withConfig(config).build();
    }

    @AfterAll
    static void stop() {
        client.close();
        plane.close();
        cluster.close();
    }

    private static int specReplicas() {
        return client.resources(VirtualMachineInstanceReplicaSet.class).inNamespace("demo").withName("web").get().getSpec().getReplicas();
    }

    @Test
    @DisplayName("scale vmirs web --replicas 3: exit 0, one line, three VMIs; again: already there, exit 0")
    void scales() {
        OperatorCommandsTest.Run run = run("scale", "vmirs", "web", "--replicas", "3", "-n", "demo", "--kubeconfig", kubeconfig);
        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(run.out()).isEqualTo("virtualmachineinstancereplicaset/web scaled from 1 to 3\n");
        await().atMost(WAIT).until(() -> client.resources(VirtualMachineInstance.class).inNamespace("demo").withLabel("app", "web")
                .list().getItems().size() == 3);

        OperatorCommandsTest.Run again = run("scale", "vmirs/web", "--replicas=3", "-n", "demo", "--kubeconfig", kubeconfig);
        assertThat(again.exitCode()).as(again.err()).isZero();
        assertThat(again.out()).isEqualTo("virtualmachineinstancereplicaset/web already has 3 replicas\n");
    }

    @ParameterizedTest(name = "[{index}] {0} → exit 2: {1}")
    @CsvSource(delimiter = '|', value = {
            "vmirs web --replicas -1 | drainboard scale: --replicas must be 0 or more; got -1",
            "vmirs web --replicas=-5 | drainboard scale: --replicas must be 0 or more; got -5",
            "vmirs web --replicas 1.5 | drainboard scale: --replicas must be a whole number, 0 or more; got '1.5'",
            "vmirs web --replicas three | drainboard scale: --replicas must be a whole number, 0 or more; got 'three'",
            "vmirs web --replicas 99999999999 | drainboard scale: --replicas must be at most 2147483647; got 99999999999",
            "pod web --replicas 2 | drainboard scale: only VirtualMachineInstanceReplicaSets can be scaled (vmirs NAME); got 'pod'",
            "web --replicas 2 | drainboard scale: say what to scale: vmirs NAME (or vmirs/NAME)",
    })
    @DisplayName("bad input: exit 2 with a clear message, nothing written (checked before connecting)")
    void badInput(String args, String message) {
        int before = specReplicas();
        String[] words = (args + " -n demo --kubeconfig " + kubeconfig).split(" ");
        String[] all = new String[words.length + 1];
        all[0] = "scale";
        System.arraycopy(words, 0, all, 1, words.length);
        OperatorCommandsTest.Run run = run(all);
        assertThat(run.exitCode()).as(run.err()).isEqualTo(2);
        assertThat(run.err()).isEqualTo(message + "\n");
        assertThat(run.out()).isEmpty();
        assertThat(specReplicas()).isEqualTo(before);

        OperatorCommandsTest.Run noCluster = run("scale", "vmirs", "web", "--replicas", "-1", "--kubeconfig", dir.resolve("missing").toString());
        assertThat(noCluster.exitCode()).isEqualTo(2);
    }

    @Test
    @DisplayName("a set that does not exist: exit 1 with its name and namespace; missing --replicas: usage error")
    void missing() {
        OperatorCommandsTest.Run run = run("scale", "vmirs", "nothere", "--replicas", "1", "-n", "demo", "--kubeconfig", kubeconfig);
        assertThat(run.exitCode()).isEqualTo(1);
        assertThat(run.err()).isEqualTo("drainboard scale: virtualmachineinstancereplicaset \"nothere\" in namespace demo not found\n");
        assertThat(run("scale", "vmirs", "web", "-n", "demo", "--kubeconfig", kubeconfig).exitCode()).isEqualTo(2);
    }
}
