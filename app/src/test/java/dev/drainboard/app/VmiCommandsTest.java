package dev.drainboard.app;

import dev.drainboard.cluster.EmbeddedCluster;
import dev.drainboard.cluster.EmbeddedClusterOptions;
import dev.drainboard.controlplane.LocalControlPlane;
import dev.drainboard.kubevirt.api.MigrationPhase;
import dev.drainboard.kubevirt.api.VirtualMachineInstance;
import dev.drainboard.kubevirt.api.VirtualMachineInstanceMigration;
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

import static dev.drainboard.app.OperatorCommandsTest.run;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

@DisplayName("cancel-evacuation, migrate and cancel-migration commands: output and exit codes")
class VmiCommandsTest {

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
                metadata: {name: node01, labels: {kubernetes.io/hostname: node01}}
                ---
                apiVersion: v1
                kind: Node
                metadata: {name: node02, labels: {kubernetes.io/hostname: node02}}
                ---
                apiVersion: v1
                kind: Namespace
                metadata: {name: demo}
                """ + vmi("vm1", "{}") + vmi("stuck", "{sim.drainboard.dev/live-migratable: \"false\"}"));
        cluster = EmbeddedCluster.start(EmbeddedClusterOptions.defaults().withScenario(scenario.toString()).withPort(0)
                .withKubeconfigOut(dir.resolve("kubeconfig")));
        kubeconfig = cluster.kubeconfig().toString();
        Config config = Config.fromKubeconfig(Files.readString(cluster.kubeconfig()));
        plane = LocalControlPlane.start(config, cluster.hypervisors(), true);
        client = new KubernetesClientBuilder().withConfig(config).build();
        await().atMost(WAIT).until(() -> plane.controllers().orElseThrow().isLeader()
                && migratableReported("vm1") && migratableReported("stuck"));
    }

    private static boolean migratableReported(String name) {
        VirtualMachineInstance vmi = client.resources(VirtualMachineInstance.class).inNamespace("demo").withName(name).get();
        return vmi != null && vmi.getStatus() != null && "Running".equals(vmi.getStatus().getPhase())
                && vmi.getStatus().getConditions() != null
                && vmi.getStatus().getConditions().stream().anyMatch(c -> "LiveMigratable".equals(c.getType()));
    }

    private static String vmi(String name, String annotations) {
        return """
                ---
                apiVersion: kubevirt.io/v1
                kind: VirtualMachineInstance
                metadata: {name: %s, namespace: demo, annotations: %s}
                spec:
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
                """.formatted(name, annotations);
    }

    @AfterAll
    static void stop() {
        client.close();
        plane.close();
        cluster.close();
    }

    @Test
    void migrateThenCancellingTheFinishedMigrationExitsOne() {
        String source = client.resources(VirtualMachineInstance.class).inNamespace("demo").withName("vm1").get().getStatus().getNodeName();
        OperatorCommandsTest.Run migrate = run("migrate", "vm1", "-n", "demo", "--kubeconfig", kubeconfig);
        assertThat(migrate.exitCode()).as(migrate.err()).isEqualTo(0);
        assertThat(migrate.out()).startsWith("virtualmachineinstancemigration/kubevirt-migrate-vm-").endsWith(" created\n");
        String vmim = migrate.out().strip().substring("virtualmachineinstancemigration/".length(), migrate.out().strip().length() - " created".length());

        await().atMost(WAIT).until(() -> client.resources(VirtualMachineInstanceMigration.class).inNamespace("demo")
                .withName(vmim).get().phase().orElse(null) == MigrationPhase.SUCCEEDED);
        assertThat(client.resources(VirtualMachineInstance.class).inNamespace("demo").withName("vm1").get().getStatus().getNodeName())
                .isNotEqualTo(source);

        OperatorCommandsTest.Run cancel = run("cancel-migration", vmim, "-n", "demo", "--kubeconfig", kubeconfig);
        assertThat(cancel.exitCode()).isEqualTo(1);
        assertThat(cancel.err()).contains("drainboard cancel-migration: virtualmachineinstancemigration/" + vmim + " already finished (Succeeded)");
    }

    @Test
    void refusalsExitOneWithTheReason() {
        OperatorCommandsTest.Run stuck = run("migrate", "stuck", "-n", "demo", "--kubeconfig", kubeconfig);
        assertThat(stuck.exitCode()).isEqualTo(1);
        assertThat(stuck.err()).contains("drainboard migrate: VMI demo/stuck is not live-migratable: NotMigratable");

        OperatorCommandsTest.Run missing = run("cancel-migration", "nothere", "-n", "demo", "--kubeconfig", kubeconfig);
        assertThat(missing.exitCode()).isEqualTo(1);
        assertThat(missing.err()).contains("virtualmachineinstancemigration \"nothere\" not found");

        OperatorCommandsTest.Run noVmi = run("migrate", "nothere", "-n", "demo", "--kubeconfig", kubeconfig);
        assertThat(noVmi.exitCode()).isEqualTo(1);
        assertThat(noVmi.err()).contains("virtualmachineinstance \"nothere\" not found in namespace demo");
    }

    @Test
    void cancelEvacuationOfAnUnmarkedVmiWritesNothingAndExitsZero() {
        OperatorCommandsTest.Run run = run("cancel-evacuation", "stuck", "-n", "demo", "--kubeconfig", kubeconfig);
        assertThat(run.exitCode()).as(run.err()).isEqualTo(0);
        assertThat(run.out()).isEqualTo("virtualmachineinstance/stuck is not marked for evacuation\n");
    }

    @Test
    void usageErrorsExitTwo() {
        assertThat(run("migrate", "-n", "demo", "--kubeconfig", kubeconfig).exitCode()).isEqualTo(2);
        assertThat(run("cancel-evacuation", "vm1", "--kubeconfig").exitCode()).isEqualTo(2);
        assertThat(run("cancel-migration", "a", "b", "--kubeconfig", kubeconfig).exitCode()).isEqualTo(2);
    }
}
