package dev.drainboard.cluster.e2e;

import static java.util.concurrent.TimeUnit.SECONDS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.drainboard.testing.RequiresKubectl;

import java.nio.file.Path;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Validating admission webhooks on {@code pods/eviction}, registered with kubectl and exercised by
 * {@code kubectl drain}: a denial reaches the operator with the webhook's name and message, and a
 * webhook that cannot be reached fails open or closed as its failurePolicy says.
 */
@DisplayName("kubectl drain and validating webhooks on pods/eviction")
@RequiresKubectl
class EvictionWebhookTest {

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
        kubectl.succeed("uncordon", "node01", "node03");
    }

    @Test
    @DisplayName("a webhook denying with 429 shows kubectl's 'admission webhook ... denied the request' line")
    void denialReachesKubectl() throws Exception {
        try (var webhook = new AdmissionWebhookServer(429, "evictions are frozen until 06:00")) {
            registerWebhook(webhook.url(), webhook.caBundle(), "Fail");

            try (var drain = kubectl.start("drain", "node01", "--ignore-daemonsets", "--delete-emptydir-data",
                    "--pod-selector=app=frontend", "--timeout=120s")) {
                await().atMost(60, SECONDS).untilAsserted(() -> assertThat(drain.output()).contains(
                        "error when evicting pods/\"frontend-5d8f7-abcde\" -n \"shop\" (will retry after 5s): "
                                + "admission webhook \"" + WEBHOOK + "\" denied the request: evictions are frozen until 06:00"));
                assertThat(drain.isRunning()).as(drain.output()).isTrue();
            }
            assertThat(kubectl.succeed("get", "pod", "-n", "shop", "frontend-5d8f7-abcde", "-o", "name").stdout())
                    .isEqualTo("pod/frontend-5d8f7-abcde\n");
        }
    }

    @Test
    @DisplayName("the webhook receives an AdmissionReview describing the eviction")
    void webhookReceivesTheEvictionReview() throws Exception {
        try (var webhook = new AdmissionWebhookServer(429, "not now")) {
            registerWebhook(webhook.url(), webhook.caBundle(), "Fail");

            try (var drain = kubectl.start("drain", "node01", "--ignore-daemonsets", "--delete-emptydir-data",
                    "--pod-selector=app=frontend", "--timeout=120s")) {
                await().atMost(60, SECONDS).until(() -> !webhook.reviews().isEmpty());
            }

            JsonNode review = webhook.reviews().getFirst();
            JsonNode request = review.path("request");
            assertThat(review.path("apiVersion").asText()).isEqualTo("admission.k8s.io/v1");
            assertThat(review.path("kind").asText()).isEqualTo("AdmissionReview");
            assertThat(request.path("uid").asText()).isNotBlank();
            assertThat(request.path("kind").path("kind").asText()).isEqualTo("Eviction");
            assertThat(request.path("kind").path("group").asText()).isEqualTo("policy");
            assertThat(request.path("resource").path("resource").asText()).isEqualTo("pods");
            assertThat(request.path("resource").path("version").asText()).isEqualTo("v1");
            assertThat(request.path("subResource").asText()).isEqualTo("eviction");
            assertThat(request.path("name").asText()).isEqualTo("frontend-5d8f7-abcde");
            assertThat(request.path("namespace").asText()).isEqualTo("shop");
            assertThat(request.path("operation").asText()).isEqualTo("CREATE");
            assertThat(request.path("object").path("kind").asText()).isEqualTo("Eviction");
            assertThat(request.path("object").path("metadata").path("name").asText()).isEqualTo("frontend-5d8f7-abcde");
        }
    }

    @Test
    @DisplayName("with the webhook down, failurePolicy Ignore lets the eviction through to the PDB check")
    void unreachableWebhookWithIgnoreFailsOpen() throws Exception {
        AdmissionWebhookServer webhook = new AdmissionWebhookServer(429, "unused");
        webhook.close();
        registerWebhook(webhook.url(), webhook.caBundle(), "Ignore");

        try (var drain = kubectl.start("drain", "node01", "--ignore-daemonsets", "--pod-selector=app=db", "--timeout=120s")) {
            await().atMost(60, SECONDS).untilAsserted(() -> assertThat(drain.output()).contains(
                    "error when evicting pods/\"db-0\" -n \"shop\" (will retry after 5s): "
                            + "Cannot evict pod as it would violate the pod's disruption budget."));
            assertThat(drain.output()).doesNotContain(WEBHOOK);
        }
    }

    @Test
    @DisplayName("with the webhook down, failurePolicy Fail refuses the eviction and names the webhook")
    void unreachableWebhookWithFailFailsClosed() throws Exception {
        AdmissionWebhookServer webhook = new AdmissionWebhookServer(429, "unused");
        webhook.close();
        registerWebhook(webhook.url(), webhook.caBundle(), "Fail");

        try (var drain = kubectl.start("drain", "node03", "--ignore-daemonsets", "--delete-emptydir-data",
                "--pod-selector=app=frontend", "--timeout=120s")) {
            await().atMost(60, SECONDS).until(() -> !drain.isRunning());

            assertThat(drain.exitCode()).as(drain.output()).isNotZero();
            assertThat(drain.output()).contains("error when evicting pods/\"frontend-5d8f7-fghij\" -n \"shop\"",
                    "failed calling webhook \"" + WEBHOOK + "\"");
        }
        assertThat(kubectl.succeed("get", "pod", "-n", "shop", "frontend-5d8f7-fghij", "-o", "name").stdout())
                .isEqualTo("pod/frontend-5d8f7-fghij\n");
    }

    @Test
    @DisplayName("an answer with another request's uid is not taken as an allow")
    void answerWithTheWrongUidIsRefused() throws Exception {
        try (var webhook = new AdmissionWebhookServer(429, "unused")) {
            webhook.allowWithWrongUid();
            registerWebhook(webhook.url(), webhook.caBundle(), "Fail");

            try (var drain = kubectl.start("drain", "node03", "--ignore-daemonsets", "--delete-emptydir-data",
                    "--pod-selector=app=frontend", "--timeout=120s")) {
                await().atMost(60, SECONDS).until(() -> !drain.isRunning());

                assertThat(drain.exitCode()).as(drain.output()).isNotZero();
                assertThat(drain.output()).contains("failed calling webhook \"" + WEBHOOK + "\"",
                        "expected response.uid=");
            }
        }
        assertThat(kubectl.succeed("get", "pod", "-n", "shop", "frontend-5d8f7-fghij", "-o", "name").stdout())
                .isEqualTo("pod/frontend-5d8f7-fghij\n");
    }

    private static void registerWebhook(String url, String caBundle, String failurePolicy) {
        kubectl.apply("""
                apiVersion: admissionregistration.k8s.io/v1
                kind: ValidatingWebhookConfiguration
                metadata:
                  name: eviction-guard
                webhooks:
                - name: %s
                  admissionReviewVersions: ["v1"]
                  sideEffects: None
                  failurePolicy: %s
                  timeoutSeconds: 5
                  clientConfig:
                    url: %s
                    caBundle: %s
                  rules:
                  - operations: ["CREATE"]
                    apiGroups: [""]
                    apiVersions: ["v1"]
                    resources: ["pods/eviction"]
                """.formatted(WEBHOOK, failurePolicy, url, caBundle));
    }
}
