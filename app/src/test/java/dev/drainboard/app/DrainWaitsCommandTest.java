package dev.drainboard.app;

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
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import static dev.drainboard.app.OperatorCommandsTest.run;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A drain whose migrations wait on a tight cluster limit ({@code parallelMigrationsPerCluster: 1}) and a slow
 * transfer ({@code bandwidthPerMigration: 16Mi}, 64 s per 1Gi VMI): the live display says why each waits and how long
 * is left; the drain times out, its end lists the VMIs still marked, and the printed command clears the marks.
 */
@DisplayName("drain: why migrations wait, time left, the marks left after it gives up and --clear-evacuation-marks")
class DrainWaitsCommandTest {

    private static final Duration WAIT = Duration.ofSeconds(90);
    private static final List<String> VMIS = List.of("vm-a", "vm-b", "vm-c");

    @TempDir
    static Path dir;
    static EmbeddedCluster cluster;
    static LocalControlPlane plane;
    static KubernetesClient client;
    static String kubeconfig;

    @BeforeAll
    static void start() throws Exception {
        Path scenario = dir.resolve("scenario.yaml");
        StringBuilder yaml = new StringBuilder("""
                apiVersion: v1
                kind: Node
                metadata: {name: node01, labels: {kubernetes.io/hostname: node01}}
                ---
                apiVersion: v1
                kind: Node
                metadata: {name: node02, labels: {kubernetes.io/hostname: node02}}
                spec: {unschedulable: true}
                ---
                apiVersion: v1
                kind: Node
                metadata: {name: node03, labels: {kubernetes.io/hostname: node03}}
                spec: {unschedulable: true}
                ---
                apiVersion: v1
                kind: Namespace
                metadata: {name: kubevirt}
                ---
                apiVersion: kubevirt.io/v1
                kind: KubeVirt
                metadata: {name: kubevirt, namespace: kubevirt}
                spec:
                  configuration:
                    migrations: {parallelMigrationsPerCluster: 1, parallelOutboundMigrationsPerNode: 2, bandwidthPerMigration: 16Mi}
                ---
                apiVersion: v1
                kind: Namespace
                metadata: {name: demo}
                """);
        VMIS.forEach(name -> yaml.append(vmi(name)));
        Files.writeString(scenario, yaml.toString());
        cluster = EmbeddedCluster.start(EmbeddedClusterOptions.defaults().withScenario(scenario.toString()).withPort(0)
                .withKubeconfigOut(dir.resolve("kubeconfig")));
        kubeconfig = cluster.kubeconfig().toString();
        Config config = Config.fromKubeconfig(Files.readString(cluster.kubeconfig()));
        plane = LocalControlPlane.start(config, cluster.hypervisors(), true);
        client = new KubernetesClientBuilder().withConfig(config).build();
        await().atMost(WAIT).until(() -> plane.controllers().orElseThrow().isLeader()
                && VMIS.stream().allMatch(DrainWaitsCommandTest::migratableOnNode01));
        // All three run on node01; now the other nodes may take their migrations.
        for (String node : List.of("node02", "node03")) {
            assertThat(run("uncordon", node, "--kubeconfig", kubeconfig).exitCode()).isZero();
        }
    }

    private static boolean migratableOnNode01(String name) {
        VirtualMachineInstance vmi = vmiObject(name);
        return vmi != null && vmi.getStatus() != null && "Running".equals(vmi.getStatus().getPhase())
                && "node01".equals(vmi.getStatus().getNodeName()) && vmi.getStatus().getConditions() != null
                && vmi.getStatus().getConditions().stream().anyMatch(c -> "LiveMigratable".equals(c.getType()) && "True".equals(c.getStatus()));
    }

    static VirtualMachineInstance vmiObject(String name) {
        return client.resources(VirtualMachineInstance.class).inNamespace("demo").withName(name).get();
    }

    private static String vmi(String name) {
        return """
                ---
                apiVersion: kubevirt.io/v1
                kind: VirtualMachineInstance
                metadata: {name: %s, namespace: demo}
                spec:
                  evictionStrategy: LiveMigrate
                  networks:
                  - name: default
                    pod: {}
                  domain:
                    memory: {guest: 1Gi}
                    resources: {requests: {memory: 1Gi}}
                    devices:
                      interfaces:
                      - name: default
                        masquerade: {}
                  volumes:
                  - name: rootdisk
                    containerDisk: {image: quay.io/containerdisks/alpine:3.20}
                """.formatted(name);
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

    @Test
    void waitsAreExplainedAndTheMarksClearedAfterwards() {
        OperatorCommandsTest.Run drain = run("drain", "node01", "--kubeconfig", kubeconfig, "--timeout", "8s");
        assertThat(drain.exitCode()).as(drain.out() + drain.err()).isEqualTo(1);
        // Two of the three launchers wait behind the one migration the cluster allows at a time.
        assertThat(drain.out().lines().filter(l -> l.contains("WAITING_FOR_MIGRATION")
                && l.endsWith("migration waits: 1 of 1 migrations in the cluster in use")).map(l -> l.strip().split(" +")[0]).distinct())
                .as(drain.out()).hasSize(2);
        // 3 x 1Gi at 16Mi/s, one at a time: a little under 3 x 64 s once the first has begun.
        assertThat(drain.out()).as(drain.out()).containsPattern("node/node01: live migrations ~3 min( \\d+ s)? left|node/node01: live migrations ~2 min \\d+ s left");
        assertThat(drain.out()).doesNotContain("node/node01 drained");
        assertThat(drain.err()).as(drain.err())
                .contains("3 VMIs are still marked for evacuation from node/node01 (KubeVirt keeps migrating them while marked): "
                        + "demo/vm-a, demo/vm-b, demo/vm-c")
                .contains("to clear the marks: drainboard drain node01 --clear-evacuation-marks --kubeconfig " + kubeconfig);

        OperatorCommandsTest.Run clear = run("drain", "node01", "--clear-evacuation-marks", "--kubeconfig", kubeconfig);
        assertThat(clear.exitCode()).as(clear.err()).isZero();
        for (String name : VMIS) {
            assertThat(clear.out()).contains("virtualmachineinstance/" + name + " evacuation from node node01 cancelled");
            assertThat(vmiObject(name).getStatus().getEvacuationNodeName()).as(name).isNull();
        }
        OperatorCommandsTest.Run again = run("drain", "node01", "--clear-evacuation-marks", "--kubeconfig", kubeconfig);
        assertThat(again.exitCode()).isZero();
        assertThat(again.out()).isEqualTo("node/node01: no VMI is marked for evacuation\n");
    }

    @Test
    void clearingTakesNoDrainOptions() {
        OperatorCommandsTest.Run run = run("drain", "node01", "--clear-evacuation-marks", "--dry-run", "--kubeconfig", kubeconfig);
        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.err()).contains("--clear-evacuation-marks drains nothing");
    }
}
