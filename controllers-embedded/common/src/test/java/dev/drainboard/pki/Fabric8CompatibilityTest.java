package dev.drainboard.pki;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.List;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The fabric8 client loading our kubeconfig and talking TLS to a server whose certificate our CA issued. */
class Fabric8CompatibilityTest {

    private static final String VERSION_JSON = "{\"major\":\"1\",\"minor\":\"32\",\"gitVersion\":\"v1.32.0-drainboard\"}";

    @TempDir
    Path tempDir;

    private final CertificateAuthority ca = CertificateAuthority.generate("drainboard-ca");
    private final IssuedCertificate serving =
            ca.issueServerCertificate("drainboard-apiserver", List.of("localhost"), List.of("127.0.0.1"));

    @Test
    void clientFromOurKubeconfigTrustsTheServerAndSendsTheToken() throws Exception {
        String token = Tokens.newBearerToken();
        try (HttpsTestServer server = new HttpsTestServer(serving, VERSION_JSON)) {
            Config config = kubeconfig(server.url("127.0.0.1"), ca.certificatePem(), token);

            assertThat(config.getNamespace()).isEqualTo("default");
            assertThat(config.getCurrentContext().getName()).isEqualTo("drainboard");
            try (KubernetesClient client = new KubernetesClientBuilder().withConfig(config).build()) {
                assertThat(client.getKubernetesVersion().getGitVersion()).isEqualTo("v1.32.0-drainboard");
            }
            assertThat(server.lastAuthorization()).isEqualTo("Bearer " + token);
        }
    }

    @Test
    void clientRejectsAServerSignedByAnotherCa() throws Exception {
        String otherCaPem = CertificateAuthority.generate("drainboard-ca").certificatePem();
        try (HttpsTestServer server = new HttpsTestServer(serving, VERSION_JSON);
             KubernetesClient client = new KubernetesClientBuilder()
                     .withConfig(kubeconfig(server.url("127.0.0.1"), otherCaPem, Tokens.newBearerToken()))
                     .build()) {
            assertThatThrownBy(client::getKubernetesVersion).isInstanceOf(KubernetesClientException.class);
            assertThat(server.lastAuthorization()).as("no request reached the server").isNull();
        }
    }

    private Config kubeconfig(String serverUrl, String caPem, String token) throws Exception {
        Path file = tempDir.resolve("kubeconfig");
        KubeconfigWriter.write(file, "drainboard", serverUrl, caPem, token);
        return Config.fromKubeconfig(file.toFile());
    }
}
