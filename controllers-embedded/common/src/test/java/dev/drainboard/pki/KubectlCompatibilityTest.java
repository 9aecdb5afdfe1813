package dev.drainboard.pki;

import static org.assertj.core.api.Assertions.assertThat;

import dev.drainboard.testing.KubectlRequirement;
import dev.drainboard.testing.RequiresKubectl;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The real kubectl (a Go client with strict TLS verification) reading our kubeconfig and trusting our certificates. */
@RequiresKubectl
class KubectlCompatibilityTest {

    private static final String VERSION_JSON = "{\"major\":\"1\",\"minor\":\"32\",\"gitVersion\":\"v1.32.0-drainboard\"}";

    @TempDir
    Path tempDir;

    private final CertificateAuthority ca = CertificateAuthority.generate("drainboard-ca");

    @Test
    void kubectlReadsTheServerFromOurKubeconfig() throws Exception {
        Path kubeconfig = tempDir.resolve("kubeconfig");
        KubeconfigWriter.write(kubeconfig, "drainboard", "https://127.0.0.1:6443", ca.certificatePem(), Tokens.newBearerToken());

        KubectlResult result = kubectl(kubeconfig, "config", "view", "--raw",
                "-o", "jsonpath={.clusters[0].cluster.server}");

        assertThat(result.exitCode()).as(result.stderr()).isZero();
        assertThat(result.stdout()).isEqualTo("https://127.0.0.1:6443");
    }

    @Test
    void kubectlVerifiesOurServerCertificateAndSendsTheToken() throws Exception {
        IssuedCertificate serving = ca.issueServerCertificate("drainboard-apiserver", List.of("localhost"), List.of("127.0.0.1"));
        String token = Tokens.newBearerToken();
        try (HttpsTestServer server = new HttpsTestServer(serving, VERSION_JSON)) {
            for (String host : List.of("127.0.0.1", "localhost")) {
                Path kubeconfig = tempDir.resolve(host + ".kubeconfig");
                KubeconfigWriter.write(kubeconfig, "drainboard", server.url(host), ca.certificatePem(), token);

                KubectlResult result = kubectl(kubeconfig, "get", "--raw", "/version");

                assertThat(result.exitCode()).as(result.stderr()).isZero();
                assertThat(result.stdout()).contains("v1.32.0-drainboard");
                assertThat(server.lastAuthorization()).isEqualTo("Bearer " + token);
            }
        }
    }

    @Test
    void kubectlRejectsAServerSignedByAnotherCa() throws Exception {
        IssuedCertificate serving = ca.issueServerCertificate("drainboard-apiserver", List.of("localhost"), List.of("127.0.0.1"));
        String otherCaPem = CertificateAuthority.generate("drainboard-ca").certificatePem();
        try (HttpsTestServer server = new HttpsTestServer(serving, VERSION_JSON)) {
            Path kubeconfig = tempDir.resolve("kubeconfig");
            KubeconfigWriter.write(kubeconfig, "drainboard", server.url("127.0.0.1"), otherCaPem, Tokens.newBearerToken());

            KubectlResult result = kubectl(kubeconfig, "get", "--raw", "/version");

            assertThat(result.exitCode()).isNotZero();
            assertThat(result.stderr()).contains("x509");
        }
    }

    private record KubectlResult(int exitCode, String stdout, String stderr) {
    }

    private KubectlResult kubectl(Path kubeconfig, String... arguments) throws Exception {
        List<String> command = new ArrayList<>(List.of(KubectlRequirement.binary().toString(), "--kubeconfig", kubeconfig.toString(),
                "--request-timeout", "10s"));
        command.addAll(List.of(arguments));
        Path stdout = Files.createTempFile(tempDir, "kubectl", ".out");
        Path stderr = Files.createTempFile(tempDir, "kubectl", ".err");
        ProcessBuilder builder = new ProcessBuilder(command)
                .redirectOutput(stdout.toFile())
                .redirectError(stderr.toFile());
        // Keeps kubectl's cache and any ambient configuration out of the test.
        builder.environment().put("HOME", tempDir.toString());
        builder.environment().remove("KUBECONFIG");
        Process process = builder.start();
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new AssertionError("kubectl did not finish within 30 seconds: " + command);
        }
        return new KubectlResult(process.exitValue(), Files.readString(stdout), Files.readString(stderr));
    }
}
