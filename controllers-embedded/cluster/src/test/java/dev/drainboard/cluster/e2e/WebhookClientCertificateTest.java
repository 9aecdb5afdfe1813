package dev.drainboard.cluster.e2e;

import static java.util.concurrent.TimeUnit.SECONDS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.drainboard.pki.CaCertificates;
import dev.drainboard.pki.CertificateAuthority;
import dev.drainboard.testing.RequiresKubectl;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.security.cert.X509Certificate;

/**
 * The embedded API server authenticates itself to webhooks that ask, as kube-apiserver does with the client
 * certificate of its AdmissionConfiguration's kubeconfig (Kubernetes docs, "Dynamic Admission Control",
 * "Authenticate apiservers"), and publishes that certificate's CA where kube-apiserver publishes its client CA.
 */
@RequiresKubectl
class WebhookClientCertificateTest {

    private static final String WEBHOOK = "eviction-guard.drainboard.dev";

    @TempDir
    static Path workDir;

    private static E2eCluster e2e;
    private static Kubectl kubectl;

    @BeforeAll
    static void startCluster() throws Exception {
        e2e = E2eCluster.startWithKubectl("drain-scenario.yaml", workDir);
        kubectl = e2e.kubectl();
        kubectl.succeed("wait", "--for=condition=Ready", "pods", "--all", "-A", "--timeout=45s");
    }

    @AfterAll
    static void stopCluster() {
        if (e2e != null) {
            e2e.close();
        }
    }

    @AfterEach
    void removeWebhooksAndUncordon() {
        kubectl.succeed("delete", "validatingwebhookconfigurations", "--all");
        kubectl.succeed("uncordon", "node01");
    }

    private static String publishedClientCa() {
        return kubectl.succeed("get", "configmap", "-n", "kube-system", "extension-apiserver-authentication",
                "-o", "jsonpath={.data.client-ca-file}").stdout();
    }

    @Test
    @DisplayName("kube-system/extension-apiserver-authentication publishes the client CA as a PEM CA certificate")
    void clientCaIsPublished() throws Exception {
        X509Certificate ca = CaCertificates.parse(publishedClientCa()).getFirst();

        assertThat(ca.getSubjectX500Principal().getName()).isEqualTo("CN=drainboard-embedded-ca");
    }

    @Test
    @DisplayName("a webhook requiring a client certificate from the published CA is called, by kube-apiserver-webhook-client")
    void webhookTrustingThePublishedCaIsCalled() throws Exception {
        try (var webhook = new AdmissionWebhookServer(429, "evictions are frozen", publishedClientCa())) {
            registerWebhook(webhook.url(), webhook.caBundle());

            try (var drain = kubectl.start("drain", "node01", "--ignore-daemonsets", "--delete-emptydir-data",
                    "--pod-selector=app=frontend", "--timeout=120s")) {
                await().atMost(60, SECONDS).untilAsserted(() -> assertThat(drain.output()).contains(
                        "admission webhook \"" + WEBHOOK + "\" denied the request: evictions are frozen"));
            }
            assertThat(webhook.callers()).isNotEmpty().allSatisfy(caller -> {
                assertThat(caller.getSubjectX500Principal().getName()).isEqualTo("CN=kube-apiserver-webhook-client");
                assertThat(caller.getExtendedKeyUsage()).containsExactly("1.3.6.1.5.5.7.3.2");
            });
        }
    }

    @Test
    @DisplayName("a webhook trusting another CA refuses the API server in the handshake: failurePolicy Fail refuses the eviction")
    void webhookTrustingAnotherCaRefusesTheApiServer() throws Exception {
        String otherCa = CertificateAuthority.generate("drainboard-embedded-ca").certificatePem();
        try (var webhook = new AdmissionWebhookServer(429, "unused", otherCa)) {
            registerWebhook(webhook.url(), webhook.caBundle());

            try (var drain = kubectl.start("drain", "node01", "--ignore-daemonsets", "--delete-emptydir-data",
                    "--pod-selector=app=frontend", "--timeout=120s")) {
                await().atMost(60, SECONDS).until(() -> !drain.isRunning());
                assertThat(drain.exitCode()).as(drain.output()).isNotZero();
                assertThat(drain.output()).contains("failed calling webhook \"" + WEBHOOK + "\"");
            }
            assertThat(webhook.reviews()).isEmpty();
        }
    }

    private static void registerWebhook(String url, String caBundle) {
        kubectl.apply("""
                apiVersion: admissionregistration.k8s.io/v1
                kind: ValidatingWebhookConfiguration
                metadata:
                  name: eviction-guard
                webhooks:
                - name: %s
                  admissionReviewVersions: ["v1"]
                  sideEffects: None
                  failurePolicy: Fail
                  timeoutSeconds: 5
                  clientConfig:
                    url: %s
                    caBundle: %s
                  rules:
                  - operations: ["CREATE"]
                    apiGroups: [""]
                    apiVersions: ["v1"]
                    resources: ["pods/eviction"]
                """.formatted(WEBHOOK, url, caBundle));
    }
}
