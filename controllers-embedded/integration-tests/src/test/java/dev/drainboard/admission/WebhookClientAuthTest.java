package dev.drainboard.admission;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.drainboard.pki.CertificateAuthority;
import dev.drainboard.pki.IssuedCertificate;
import dev.drainboard.pki.TrustedClients;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import javax.net.ssl.SSLContext;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * The eviction webhook as Drainboard serves it on the embedded cluster answers only callers with a client certificate
 * from the cluster's client CA (its API server): a forged AdmissionReview POSTed as curl would, with no certificate or
 * one from another CA, is refused in the TLS handshake and marks nothing, while the API server's own calls still
 * start an evacuation.
 */
@DisplayName("eviction webhook: only the API server's client certificate gets an answer")
class WebhookClientAuthTest {

    @TempDir
    static Path workDir;
    private static EvictionTestCluster cluster;

    @BeforeAll
    static void start() throws Exception {
        cluster = EvictionTestCluster.start(workDir);
    }

    @AfterAll
    static void stop() {
        if (cluster != null) {
            cluster.close();
        }
    }

    /** The review an attacker would forge for a launcher pod: enough, unauthenticated, to migrate the VM. */
    private static String forgedReview(String pod) {
        return """
                {"apiVersion":"admission.k8s.io/v1","kind":"AdmissionReview","request":{"uid":"forged-1",
                 "kind":{"group":"policy","version":"v1","kind":"Eviction"},
                 "resource":{"group":"","version":"v1","resource":"pods"},"subResource":"eviction",
                 "name":"%s","namespace":"default","operation":"CREATE","dryRun":false,
                 "userInfo":{"username":"system:admin"},
                 "object":{"apiVersion":"policy/v1","kind":"Eviction","metadata":{"name":"%s","namespace":"default"}}}}
                """.formatted(pod, pod);
    }

    /** {@code curl --cacert <webhook CA> -H 'Content-Type: application/json' -d @review.json URL}, with this TLS client. */
    private static HttpResponse<String> post(SSLContext tls, String body) throws Exception {
        try (HttpClient http = HttpClient.newBuilder().sslContext(tls).connectTimeout(Duration.ofSeconds(5)).build()) {
            return http.send(HttpRequest.newBuilder(URI.create(cluster.webhook().url()))
                    .timeout(Duration.ofSeconds(10))
                    .header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
        }
    }

    @Test
    @DisplayName("a forged review without a client certificate is refused and the VMI is not marked for evacuation")
    void forgedReviewWithoutClientCertificate() throws Exception {
        String pod = cluster.runVmi("forged-nocert", "LiveMigrate", true, "node01").getMetadata().getName();
        long answeredBefore = cluster.webhook().answered();

        assertThatThrownBy(() -> post(TrustedClients.trusting(cluster.webhook().caPem()), forgedReview(pod)))
                .isInstanceOf(IOException.class);

        assertThat(cluster.webhook().answered()).isEqualTo(answeredBefore);
        assertThat(cluster.vmi("forged-nocert").getStatus().getEvacuationNodeName()).isNull();
    }

    @Test
    @DisplayName("the security review's reproduction: curl POSTing a forged review gets no answer and marks nothing")
    void curlWithoutClientCertificate() throws Exception {
        Path curl = Path.of("/usr/bin/curl");
        Assumptions.assumeTrue(Files.isExecutable(curl), "curl is not installed");
        String pod = cluster.runVmi("forged-curl", "LiveMigrate", true, "node01").getMetadata().getName();
        Path ca = Files.writeString(workDir.resolve("webhook-ca.crt"), cluster.webhook().caPem());
        Path review = Files.writeString(workDir.resolve("review.json"), forgedReview(pod));

        Process process = new ProcessBuilder(curl.toString(), "-sS", "--max-time", "10", "--cacert", ca.toString(),
                "-H", "Content-Type: application/json", "--data-binary", "@" + review, cluster.webhook().url())
                .redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        assertThat(process.waitFor(30, java.util.concurrent.TimeUnit.SECONDS)).isTrue();

        assertThat(process.exitValue()).as(output).isNotZero();
        assertThat(output).doesNotContain("AdmissionReview");
        assertThat(cluster.vmi("forged-curl").getStatus().getEvacuationNodeName()).isNull();
    }

    @Test
    @DisplayName("a forged review with a client certificate from another CA is refused and marks nothing")
    void forgedReviewWithForeignClientCertificate() throws Exception {
        String pod = cluster.runVmi("forged-foreign", "LiveMigrate", true, "node01").getMetadata().getName();
        // Same name as the embedded cluster's CA, and the name its API server's certificate has: only the key differs.
        IssuedCertificate foreign = CertificateAuthority.generate("drainboard-embedded-ca")
                .issueClientCertificate("kube-apiserver-webhook-client", List.of());
        long answeredBefore = cluster.webhook().answered();

        assertThatThrownBy(() -> post(TrustedClients.trusting(cluster.webhook().caPem(), foreign), forgedReview(pod)))
                .isInstanceOf(IOException.class);

        assertThat(cluster.webhook().answered()).isEqualTo(answeredBefore);
        assertThat(cluster.vmi("forged-foreign").getStatus().getEvacuationNodeName()).isNull();
    }

    @Test
    @DisplayName("the API server's eviction still reaches the webhook: 429 'Eviction triggered evacuation', VMI marked")
    void apiServerIsAnswered() throws Exception {
        String pod = cluster.runVmi("real-eviction", "LiveMigrate", true, "node02").getMetadata().getName();

        EvictionTestCluster.EvictionResult result = cluster.evict(pod);

        assertThat(result.code()).isEqualTo(429);
        assertThat(result.message()).contains("Eviction triggered evacuation");
        assertThat(cluster.vmi("real-eviction").getStatus().getEvacuationNodeName()).isEqualTo("node02");
        assertThat(cluster.webhook().callers().authenticated()).isTrue();
    }
}
