package dev.drainboard.cluster.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.drainboard.ops.DrainOperation;
import dev.drainboard.ops.DrainOptions;
import dev.drainboard.ops.DrainResult;
import dev.drainboard.ops.Ops;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

/**
 * A drain sends a few evictions at a time, not a whole node's worth at once: the first VMIs start migrating without
 * waiting behind dozens of simultaneous evictions (each a webhook call and a VMI mark). Seen from a slow eviction
 * webhook: never more than 8 reviews at once, yet every pod asked.
 */
@DisplayName("drain: at most 8 evictions in flight")
class DrainEvictionPacingTest {

    @TempDir
    Path workDir;

    @Test
    void aNodeOfTwentyPodsIsAskedEightAtATime() throws Exception {
        try (E2eCluster e2e = E2eCluster.start("drain-scenario.yaml", workDir);
             KubernetesClient client = new KubernetesClientBuilder()
                     .withConfig(Config.fromKubeconfig(Files.readString(e2e.cluster().kubeconfig()))).build();
             Ops ops = Ops.connect(Config.fromKubeconfig(Files.readString(e2e.cluster().kubeconfig())));
             var webhook = new AdmissionWebhookServer(429, "one moment")) {
            client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName("pacing").endMetadata().build()).create();
            for (int i = 0; i < 20; i++) {
                client.pods().inNamespace("pacing").resource(new PodBuilder()
                        .withNewMetadata().withName("worker-" + i).endMetadata()
                        .withNewSpec().withNodeName("node04").addNewContainer().withName("c").withImage("busybox").endContainer().endSpec()
                        .build()).create();
            }
            await().atMost(Duration.ofSeconds(30)).until(() -> client.pods().inNamespace("pacing").list().getItems().stream()
                    .allMatch(p -> p.getStatus() != null && "Running".equals(p.getStatus().getPhase())));
            webhook.answerAfter(300);
            client.resource("""
                    apiVersion: admissionregistration.k8s.io/v1
                    kind: ValidatingWebhookConfiguration
                    metadata:
                      name: slow-guard
                    webhooks:
                    - name: slow-guard.drainboard.dev
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
                    """.formatted(webhook.url(), webhook.caBundle())).create();

            DrainOperation drain = ops.drain("node04", DrainOptions.defaults().withIgnoreDaemonSets(true).withForce(true));
            try {
                await().atMost(Duration.ofSeconds(30)).until(() -> webhook.reviews().size() >= 20);
            } finally {
                drain.cancel();
            }
            assertThat(drain.await().status()).isEqualTo(DrainResult.Status.CANCELLED);
            assertThat(webhook.mostAtOnce()).as("reviews answered at the same time").isBetween(2, 8);
        }
    }
}
