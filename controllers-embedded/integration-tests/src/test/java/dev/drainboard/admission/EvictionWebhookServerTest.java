package dev.drainboard.admission;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.drainboard.pki.TrustedClients;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingWebhook;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingWebhookBuilder;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingWebhookConfiguration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Base64;
import java.util.List;

@DisplayName("eviction webhook server: HTTPS, AdmissionReview versions, bad requests, registration")
class EvictionWebhookServerTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    static Path workDir;
    private static EvictionTestCluster cluster;
    private static HttpClient https;

    @BeforeAll
    static void start() throws Exception {
        // These tests speak HTTP to the webhook themselves, which only an unauthenticated webhook lets them do
        // (WebhookClientAuthTest covers the authenticated one).
        cluster = EvictionTestCluster.start(workDir, WebhookCallers.anyone());
        https = HttpClient.newBuilder().sslContext(TrustedClients.trusting(cluster.webhook().caPem())).build();
    }

    @AfterAll
    static void stop() {
        if (cluster != null) {
            cluster.close();
        }
    }

    private static HttpResponse<String> post(String contentType, String body) throws Exception {
        return https.send(HttpRequest.newBuilder(URI.create(cluster.webhook().url()))
                .header("Content-Type", contentType)
                .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
    }

    private static ValidatingWebhookConfiguration configuration() {
        return cluster.client().admissionRegistration().v1().validatingWebhookConfigurations().withName("virt-api-validator").get();
    }

    @Test
    @DisplayName("registers virt-api-validator as KubeVirt v1.4 does, pointing at itself by url with its caBundle")
    void registration() {
        ValidatingWebhookConfiguration configuration = configuration();
        assertThat(configuration.getWebhooks()).singleElement().satisfies(w -> {
            assertThat(w.getName()).isEqualTo("virt-launcher-eviction-interceptor.kubevirt.io");
            assertThat(w.getAdmissionReviewVersions()).containsExactly("v1", "v1beta1");
            assertThat(w.getFailurePolicy()).isEqualTo("Ignore");
            assertThat(w.getMatchPolicy()).isEqualTo("Equivalent");
            assertThat(w.getSideEffects()).isEqualTo("NoneOnDryRun");
            assertThat(w.getTimeoutSeconds()).isEqualTo(10);
            assertThat(w.getRules()).singleElement().satisfies(r -> {
                assertThat(r.getApiGroups()).containsExactly("");
                assertThat(r.getApiVersions()).containsExactly("v1");
                assertThat(r.getOperations()).containsExactly("*");
                assertThat(r.getResources()).containsExactly("pods/eviction");
                assertThat(r.getScope()).isEqualTo("*");
            });
            assertThat(w.getClientConfig().getService()).isNull();
            assertThat(w.getClientConfig().getUrl()).isEqualTo(cluster.webhook().url())
                    .startsWith("https://127.0.0.1:").endsWith("/launcher-eviction-validate");
            assertThat(new String(Base64.getDecoder().decode(w.getClientConfig().getCaBundle()), StandardCharsets.US_ASCII))
                    .isEqualTo(cluster.webhook().caPem());
        });
    }

    @ParameterizedTest
    @ValueSource(strings = {"admission.k8s.io/v1", "admission.k8s.io/v1beta1"})
    @DisplayName("answers in the request's version and echoes the uid")
    void answersInRequestVersion(String apiVersion) throws Exception {
        HttpResponse<String> response = post("application/json", AdmissionReviewsTest.review(apiVersion, "uid-" + apiVersion.length(), false));

        assertThat(response.statusCode()).isEqualTo(200);
        JsonNode answer = JSON.readTree(response.body());
        assertThat(answer.path("apiVersion").asText()).isEqualTo(apiVersion);
        assertThat(answer.path("response").path("uid").asText()).isEqualTo("uid-" + apiVersion.length());
        assertThat(answer.path("response").path("allowed").asBoolean()).as("the pod does not exist: passes").isTrue();
    }

    @Test
    @DisplayName("bad JSON, no request, wrong kind, wrong content type: 400, and the server keeps answering")
    void malformedRequests() throws Exception {
        long before = cluster.webhook().malformed();
        for (String body : List.of("{", "{\"apiVersion\":\"admission.k8s.io/v1\",\"kind\":\"AdmissionReview\"}",
                "{\"apiVersion\":\"admission.k8s.io/v1\",\"kind\":\"ConfigMap\",\"request\":{\"uid\":\"u\",\"name\":\"p\",\"namespace\":\"n\"}}",
                "\u0000\u0001binary", "null")) {
            assertThat(post("application/json", body).statusCode()).as(body).isEqualTo(400);
        }
        assertThat(post("text/plain", AdmissionReviewsTest.review("admission.k8s.io/v1", "u", false)).statusCode()).isEqualTo(400);
        assertThat(https.send(HttpRequest.newBuilder(URI.create(cluster.webhook().url())).GET().build(),
                HttpResponse.BodyHandlers.ofString()).statusCode()).isEqualTo(405);
        assertThat(cluster.webhook().malformed() - before).isEqualTo(6);

        assertThat(post("application/json", AdmissionReviewsTest.review("admission.k8s.io/v1", "ok", false)).statusCode()).isEqualTo(200);
    }

    @Test
    @DisplayName("registering again keeps other webhooks of the configuration; removing takes out only ours")
    void registrationKeepsOthers() {
        ValidatingWebhook other = new ValidatingWebhookBuilder(WebhookRegistration.webhook("https://127.0.0.1:1/other", "x"))
                .withName("hotplug-pod-eviction-interceptor.kubevirt.io").build();
        ValidatingWebhookConfiguration configuration = configuration();
        configuration.getWebhooks().add(other);
        cluster.client().admissionRegistration().v1().validatingWebhookConfigurations().resource(configuration).update();

        cluster.webhook().register();
        assertThat(configuration().getWebhooks()).extracting(ValidatingWebhook::getName)
                .containsExactlyInAnyOrder("virt-launcher-eviction-interceptor.kubevirt.io", "hotplug-pod-eviction-interceptor.kubevirt.io");

        cluster.webhook().removeRegistration();
        assertThat(configuration().getWebhooks()).extracting(ValidatingWebhook::getName)
                .containsExactly("hotplug-pod-eviction-interceptor.kubevirt.io");

        cluster.client().admissionRegistration().v1().validatingWebhookConfigurations().withName("virt-api-validator").delete();
        cluster.webhook().register();
        assertThat(configuration().getWebhooks()).extracting(ValidatingWebhook::getName)
                .containsExactly("virt-launcher-eviction-interceptor.kubevirt.io");
        assertThat(configuration().getMetadata().getLabels()).containsEntry("kubevirt.io", "virt-api-validator");
    }

    @Test
    @DisplayName("a dry-run eviction is denied as evacuation but leaves the VMI unmarked")
    void dryRunEviction() throws Exception {
        String pod = cluster.runVmi("dry", "LiveMigrate", true, "node03").getMetadata().getName();
        cluster.awaitBudget("dry", true);

        EvictionDecision answer = cluster.webhook().admit(new EvictionRequest("default", pod, true));

        assertThat(answer).isEqualTo(new EvictionDecision.Deny(EvictionDecision.Why.EVACUATION_TRIGGERED,
                "Eviction triggered evacuation of VMI \"default/dry\""));
        assertThat(cluster.vmi("dry").isMarkedForEviction()).isFalse();
    }

    @Test
    @DisplayName("a launcher pod whose VMI is missing is denied with the API's not-found text")
    void missingVmi() throws Exception {
        String pod = cluster.runVmi("orphan", "LiveMigrate", true, "node03").getMetadata().getName();
        cluster.vmisAll().inNamespace("default").withName("orphan").withPropagationPolicy(
                io.fabric8.kubernetes.api.model.DeletionPropagation.ORPHAN).delete();
        org.awaitility.Awaitility.await().until(() -> cluster.vmi("orphan") == null);

        EvictionTestCluster.EvictionResult result = cluster.evict(pod);

        assertThat(result).isEqualTo(new EvictionTestCluster.EvictionResult(429,
                "admission webhook \"virt-launcher-eviction-interceptor.kubevirt.io\" denied the request: "
                        + "kubevirt failed getting the vmi: virtualmachineinstances.kubevirt.io \"orphan\" not found"));
    }
}
