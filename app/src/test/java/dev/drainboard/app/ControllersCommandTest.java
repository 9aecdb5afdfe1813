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

import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509TrustManager;
import java.io.ByteArrayInputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.security.cert.X509Certificate;
import java.util.List;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
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
                    "eviction webhook: the API server calls it at 127.0.0.1 (loopback), served while leading; UNAUTHENTICATED");
            // No --webhook-client-ca: said plainly, with who can reach it.
            assertThat(err.toString()).contains("drainboard controllers: WARNING: The eviction webhook is unauthenticated: "
                    + "it answers any caller that can connect to it, which is any program or user on this machine (it "
                    + "listens on 127.0.0.1, loopback). Such a caller can mark VMIs for evacuation and make them "
                    + "live-migrate. Give --webhook-client-ca FILE");

            // The leader registered its eviction webhook at the address and port asked for.
            await().atMost(Duration.ofSeconds(20)).until(() ->
                    client.admissionRegistration().v1().validatingWebhookConfigurations().withName("virt-api-validator").get() != null);
            assertThat(client.admissionRegistration().v1().validatingWebhookConfigurations().withName("virt-api-validator").get()
                    .getWebhooks()).allSatisfy(w -> assertThat(w.getClientConfig().getUrl()).startsWith("https://127.0.0.1:" + port + "/"));

            // The KubeVirt release the cluster reports decides the drain path: printed, and again when it changes.
            await().atMost(Duration.ofSeconds(20)).until(() -> out.toString().contains("kubevirt: KubeVirt ≤ 1.4 (default)"));
            cluster.setKubeVirtVersion("v1.6.0");
            await().atMost(Duration.ofSeconds(20)).until(() -> out.toString().contains("kubevirt: KubeVirt 1.6 (v1.6.0, from KubeVirt CR status)"));
            await().atMost(Duration.ofSeconds(20)).until(() -> "Fail".equals(client.admissionRegistration().v1()
                    .validatingWebhookConfigurations().withName("virt-api-validator").get().getWebhooks().getFirst().getFailurePolicy()));
            cluster.setKubeVirtVersion("v1.4.0");

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
    void withTheClusterClientCaTheWebhookRefusesCallersWithoutACertificate() throws Exception {
        try (KubernetesClient client = new KubernetesClientBuilder()
                .withConfig(Config.fromKubeconfig(Files.readString(cluster.kubeconfig()))).build()) {
            // What an operator does: kubectl get cm -n kube-system extension-apiserver-authentication
            //   -o jsonpath='{.data.client-ca-file}' > client-ca.crt
            Path clientCa = Files.writeString(tempDir.resolve("client-ca.crt"), client.configMaps().inNamespace("kube-system")
                    .withName("extension-apiserver-authentication").get().getData().get("client-ca-file"));
            ControllersCommand command = new ControllersCommand();
            StringWriter out = new StringWriter();
            StringWriter err = new StringWriter();
            CommandLine commandLine = new CommandLine(command).setOut(new PrintWriter(out, true)).setErr(new PrintWriter(err, true));
            CompletableFuture<Integer> exit = CompletableFuture.supplyAsync(() -> commandLine.execute("--kubeconfig",
                    cluster.kubeconfig().toString(), "--webhook-client-ca", clientCa.toString(), "--webhook-bind", "0.0.0.0"));
            try {
                await().atMost(Duration.ofSeconds(30)).until(() -> out.toString().contains("leader: "));
                assertThat(out.toString()).contains("served while leading; callers need a TLS client certificate from " + clientCa);
                assertThat(err.toString()).doesNotContain("WARNING");

                await().atMost(Duration.ofSeconds(20)).until(() -> registeredUrl(client) != null);
                // Bound to every address, yet a caller without the API server's certificate gets no answer (curl -k).
                SSLContext trustAll = SSLContext.getInstance("TLS");
                trustAll.init(null, new TrustManager[] {new InsecureTrust()}, null);
                try (HttpClient http = HttpClient.newBuilder().sslContext(trustAll).build()) {
                    assertThatThrownBy(() -> http.send(HttpRequest.newBuilder(URI.create(registeredUrl(client)))
                            .header("Content-Type", "application/json")
                            .POST(HttpRequest.BodyPublishers.ofString("{}")).build(), HttpResponse.BodyHandlers.ofString()))
                            .isInstanceOf(java.io.IOException.class);
                }
            } finally {
                command.requestStop();
                assertThat(exit.get(30, TimeUnit.SECONDS)).as(err.toString()).isZero();
            }
        }
    }

    private static String registeredUrl(KubernetesClient client) {
        var configuration = client.admissionRegistration().v1().validatingWebhookConfigurations().withName("virt-api-validator").get();
        return configuration == null ? null : configuration.getWebhooks().getFirst().getClientConfig().getUrl();
    }

    /** Trusts any server, as {@code curl -k}: the point is what the server does without a client certificate. */
    private static final class InsecureTrust implements X509TrustManager {
        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType) {
        }

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType) {
        }

        @Override
        public X509Certificate[] getAcceptedIssuers() {
            return new X509Certificate[0];
        }
    }

    @Test
    void aWebhookClientCaThatIsNoCaFileExitsTwo() throws Exception {
        Path missing = tempDir.resolve("missing-ca.crt");
        Path notPem = Files.writeString(tempDir.resolve("not-pem.crt"), "apiVersion: v1\nkind: Config\n");
        Path leaf = Files.writeString(tempDir.resolve("leaf.crt"), dev.drainboard.pki.CertificateAuthority.generate("ca")
                .issueServerCertificate("webhook", List.of("localhost"), List.of()).certificatePem());

        Run noFile = run("--kubeconfig", cluster.kubeconfig().toString(), "--webhook-client-ca", missing.toString());
        assertThat(noFile.exitCode()).isEqualTo(2);
        assertThat(noFile.err()).contains("Invalid value for option '--webhook-client-ca': " + missing + ": no such file");
        Run text = run("--kubeconfig", cluster.kubeconfig().toString(), "--webhook-client-ca", notPem.toString());
        assertThat(text.exitCode()).isEqualTo(2);
        assertThat(text.err()).contains("Invalid value for option '--webhook-client-ca': " + notPem
                + " is not a PEM CA certificate: no PEM certificate found");
        Run notCa = run("--kubeconfig", cluster.kubeconfig().toString(), "--webhook-client-ca", leaf.toString());
        assertThat(notCa.exitCode()).isEqualTo(2);
        assertThat(notCa.err()).contains(leaf + " is not a PEM CA certificate: certificate \"CN=webhook\" is not a CA certificate");

        for (String[] args : new String[][]{{"--webhook-client-ca", missing.toString()}, {"ui", "--webhook-client-ca", notPem.toString()}}) {
            StringWriter err = new StringWriter();
            int exit = new CommandLine(new DrainboardCommand()).setErr(new PrintWriter(err)).execute(args);
            assertThat(exit).as(String.join(" ", args)).isEqualTo(2);
            assertThat(err.toString()).contains("Invalid value for option '--webhook-client-ca': ");
        }
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
