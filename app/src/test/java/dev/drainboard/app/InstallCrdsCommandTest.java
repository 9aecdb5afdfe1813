package dev.drainboard.app;

import dev.drainboard.cluster.EmbeddedCluster;
import dev.drainboard.cluster.EmbeddedClusterOptions;
import dev.drainboard.kubevirt.crd.KubeVirtCrds;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

class InstallCrdsCommandTest {

    private static EmbeddedCluster cluster;

    @TempDir
    static Path tempDir;

    @BeforeAll
    static void startCluster() throws Exception {
        cluster = EmbeddedCluster.start(EmbeddedClusterOptions.defaults().withoutKubeVirtCrds().withKubeconfigOut(tempDir.resolve("kubeconfig")));
    }

    @AfterAll
    static void stopCluster() {
        cluster.close();
    }

    private record Run(int exitCode, String out, String err) {
    }

    private static Run run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine commandLine = new CommandLine(new InstallCrdsCommand());
        commandLine.setOut(new PrintWriter(out));
        commandLine.setErr(new PrintWriter(err));
        int code = commandLine.execute(args);
        return new Run(code, out.toString(), err.toString());
    }

    @Test
    void installsOnceThenLeavesThemAloneUnlessForced() throws Exception {
        String kubeconfig = cluster.kubeconfig().toString();

        Run first = run("--kubeconfig", kubeconfig, "--context", "drainboard-embedded");
        assertThat(first.exitCode()).as(first.err()).isZero();
        assertThat(first.out()).contains("created  virtualmachineinstances.kubevirt.io").contains("created  drainrecords.drainboard.dev").contains("created  maintenanceplans.drainboard.dev")
                .contains("22 created, 0 replaced, 0 already present, 0 failed");
        try (KubernetesClient client = new KubernetesClientBuilder()
                .withConfig(Config.fromKubeconfig(Files.readString(cluster.kubeconfig()))).build()) {
            for (String name : KubeVirtCrds.NAMES) {
                assertThat(client.apiextensions().v1().customResourceDefinitions().withName(name).get()).as(name).isNotNull();
            }
        }

        Run second = run("--kubeconfig", kubeconfig);
        assertThat(second.exitCode()).isZero();
        assertThat(second.out()).contains("present  kubevirts.kubevirt.io (left as it is; --force replaces it)")
                .contains("0 created, 0 replaced, 22 already present, 0 failed");

        Run forced = run("--kubeconfig", kubeconfig, "--force");
        assertThat(forced.exitCode()).isZero();
        assertThat(forced.out()).contains("replaced virtualmachines.kubevirt.io")
                .contains("0 created, 22 replaced, 0 already present, 0 failed");
    }

    @Test
    void anUnknownContextIsAUsageError() {
        Run run = run("--kubeconfig", cluster.kubeconfig().toString(), "--context", "production");
        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.err()).contains("context \"production\" not found in " + cluster.kubeconfig() + " (contexts: drainboard-embedded)");
    }

    @Test
    void aMissingKubeconfigIsAUsageError() {
        Run run = run("--kubeconfig", tempDir.resolve("nowhere").toString());
        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.err()).contains("kubeconfig " + tempDir.resolve("nowhere") + " does not exist");
        assertThat(run("--force").exitCode()).isEqualTo(2); // --kubeconfig is required
    }

    @Test
    void anUnreachableClusterFailsWithExitCode1() throws Exception {
        Path kubeconfig = tempDir.resolve("unreachable");
        Files.writeString(kubeconfig, """
                apiVersion: v1
                kind: Config
                clusters:
                - name: gone
                  cluster: {server: "https://127.0.0.1:1", insecure-skip-tls-verify: true}
                users:
                - name: u
                  user: {token: t}
                contexts:
                - name: gone
                  context: {cluster: gone, user: u}
                current-context: gone
                """);
        Run run = run("--kubeconfig", kubeconfig.toString());
        assertThat(run.exitCode()).isEqualTo(1);
        assertThat(run.err()).contains("cannot reach the cluster at https://127.0.0.1:1");
    }
}
