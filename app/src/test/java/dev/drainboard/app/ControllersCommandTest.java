package dev.drainboard.app;

import dev.drainboard.cluster.EmbeddedCluster;
import dev.drainboard.cluster.EmbeddedClusterOptions;
import dev.drainboard.kubevirt.api.VirtualMachineInstance;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.io.ByteArrayInputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

class ControllersCommandTest {

    private static EmbeddedCluster cluster;

    @TempDir
    static Path tempDir;

    @BeforeAll
    static void startCluster() throws Exception {
        cluster = EmbeddedCluster.start(EmbeddedClusterOptions.defaults().withKubeconfigOut(tempDir.resolve("kubeconfig")));
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
        CommandLine commandLine = new CommandLine(new ControllersCommand());
        commandLine.setOut(new PrintWriter(out));
        commandLine.setErr(new PrintWriter(err));
        int code = commandLine.execute(args);
        return new Run(code, out.toString(), err.toString());
    }

    @Test
    void runsTheControllersAsLeaderAndHandsTheLeaseBackWhenStopped() throws Exception {
        ControllersCommand command = new ControllersCommand();
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine commandLine = new CommandLine(command);
        commandLine.setOut(new PrintWriter(out, true));
        commandLine.setErr(new PrintWriter(err, true));
        int port;
        try (java.net.ServerSocket free = new java.net.ServerSocket(0)) {
            port = free.getLocalPort();
        }
        CompletableFuture<Integer> exit = CompletableFuture.supplyAsync(() -> commandLine.execute("--kubeconfig",
                cluster.kubeconfig().toString(), "--context", "drainboard-embedded", "--webhook-port", String.valueOf(port)));
        try (KubernetesClient client = new KubernetesClientBuilder()
                .withConfig(Config.fromKubeconfig(Files.readString(cluster.kubeconfig()))).build()) {
            await().atMost(Duration.ofSeconds(20)).until(() -> out.toString().contains("leader: "));
            assertThat(out.toString()).contains("started: ", "standing for leader of kube-system/drainboard-controllers",
                    "runs the controllers (lease kube-system/drainboard-controllers)",
                    // The embedded cluster's API server is on this machine: loopback, chosen without --webhook-host.
                    "eviction webhook: the API server calls it at 127.0.0.1 (loopback), served while leading");

            // The leader registered its eviction webhook at the address and port asked for.
            await().atMost(Duration.ofSeconds(20)).until(() ->
                    client.admissionRegistration().v1().validatingWebhookConfigurations().withName("virt-api-validator").get() != null);
            assertThat(client.admissionRegistration().v1().validatingWebhookConfigurations().withName("virt-api-validator").get()
                    .getWebhooks()).allSatisfy(w -> assertThat(w.getClientConfig().getUrl()).startsWith("https://127.0.0.1:" + port + "/"));

            client.resources(VirtualMachineInstance.class).inNamespace("default").load(new ByteArrayInputStream("""
                    apiVersion: kubevirt.io/v1
                    kind: VirtualMachineInstance
                    metadata: {name: cli-vmi}
                    spec: {networks: [{name: default, pod: {}}], domain: {devices: {interfaces: [{name: default, masquerade: {}}]}, memory: {guest: 128Mi}}}
                    """.getBytes(StandardCharsets.UTF_8))).create();
            await().atMost(Duration.ofSeconds(20)).until(() -> !client.pods().inNamespace("default")
                    .withLabel("kubevirt.io", "virt-launcher").list().getItems().isEmpty());

            command.requestStop();
            assertThat(exit.get(30, TimeUnit.SECONDS)).as(err.toString()).isZero();
            assertThat(out.toString()).contains("standby: ", "stopped");
            Lease lease = client.leases().inNamespace("kube-system").withName("drainboard-controllers").get();
            // fabric8 releases a Lease by cutting its duration to 1 s: the next Drainboard takes over at its next try.
            assertThat(lease.getSpec().getHolderIdentity() == null || lease.getSpec().getHolderIdentity().isEmpty()
                    || lease.getSpec().getLeaseDurationSeconds() == 1).as("released: " + lease.getSpec()).isTrue();
        }
    }

    @Test
    void anUnreadableKubeconfigExitsOne() {
        Run run = run("--kubeconfig", tempDir.resolve("missing").toString());
        assertThat(run.exitCode()).isEqualTo(1);
        assertThat(run.err()).contains("drainboard controllers: kubeconfig " + tempDir.resolve("missing") + " does not exist");
    }

    @Test
    void anUnknownContextExitsOneNamingTheKnownOnes() {
        Run run = run("--kubeconfig", cluster.kubeconfig().toString(), "--context", "production");
        assertThat(run.exitCode()).isEqualTo(1);
        assertThat(run.err()).contains("context \"production\" not found in", "(contexts: drainboard-embedded)");
    }

    @Test
    void anUnreachableClusterExitsOne() throws Exception {
        Path kubeconfig = tempDir.resolve("unreachable");
        Files.writeString(kubeconfig, """
                apiVersion: v1
                kind: Config
                clusters: [{name: c, cluster: {server: "https://127.0.0.1:1", insecure-skip-tls-verify: true}}]
                users: [{name: u, user: {token: t}}]
                contexts: [{name: x, context: {cluster: c, user: u}}]
                current-context: x
                """);
        Run run = run("--kubeconfig", kubeconfig.toString());
        assertThat(run.exitCode()).isEqualTo(1);
        assertThat(run.err()).contains("cannot reach the cluster at https://127.0.0.1:1");
    }

    @Test
    void usageErrorsExitTwo() {
        assertThat(run().exitCode()).isEqualTo(2);
        assertThat(run("--kubeconfig", "x", "--bogus").exitCode()).isEqualTo(2);
        Run badPort = run("--kubeconfig", "x", "--webhook-port", "70000");
        assertThat(badPort.exitCode()).isEqualTo(2);
        assertThat(badPort.err()).contains("70000 is not a port");
        Run url = run("--kubeconfig", "x", "--webhook-host", "https://10.0.0.7");
        assertThat(url.exitCode()).isEqualTo(2);
        assertThat(url.err()).contains("Invalid value for option '--webhook-host': \"https://10.0.0.7\" is a URL");
        Run withPort = run("--kubeconfig", "x", "--webhook-host", "10.0.0.7:8443");
        assertThat(withPort.exitCode()).isEqualTo(2);
        assertThat(withPort.err()).contains("has a port");
    }

    @Test
    void theConsoleRefusesABadWebhookHostBeforeOpening() {
        for (String[] args : new String[][]{{"--webhook-host", "a b"}, {"ui", "--webhook-host", "http://x"}}) {
            StringWriter err = new StringWriter();
            int exit = new CommandLine(new DrainboardCommand()).setErr(new PrintWriter(err)).execute(args);
            assertThat(exit).as(String.join(" ", args)).isEqualTo(2);
            assertThat(err.toString()).contains("Invalid value for option '--webhook-host'");
        }
    }
}
