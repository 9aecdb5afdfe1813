package dev.drainboard.controlplane;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.drainboard.admission.EvictionWebhookServer;
import dev.drainboard.admission.WebhookCallers;
import dev.drainboard.cluster.EmbeddedCluster;
import dev.drainboard.cluster.EmbeddedClusterOptions;
import dev.drainboard.runtime.LeaderElection;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.time.Duration;

/** Whom the leader's eviction webhook answers, as the control plane is told; never fewer checks than asked for. */
class WebhookCallersControlPlaneTest {

    private static final Duration WAIT = Duration.ofSeconds(30);

    @Test
    void theEmbeddedClustersControlPlaneTrustsItsPublishedClientCa() throws Exception {
        try (EmbeddedCluster cluster = EmbeddedCluster.start(EmbeddedClusterOptions.defaults());
             LocalControlPlane local = LocalControlPlane.start(Config.fromKubeconfig(Files.readString(cluster.kubeconfig())),
                     cluster.hypervisors(), true)) {
            ControlPlane plane = local.controllers().orElseThrow();
            await().atMost(WAIT).until(() -> plane.evictionWebhook().isPresent());

            EvictionWebhookServer webhook = plane.evictionWebhook().get();
            assertThat(webhook.callers().authenticated()).isTrue();
            assertThat(webhook.callers().origin()).contains("extension-apiserver-authentication");
        }
    }

    @Test
    void withoutAPublishedClientCaTheWebhookIsNotServedToAnyone() throws Exception {
        try (EmbeddedCluster cluster = EmbeddedCluster.start(EmbeddedClusterOptions.defaults())) {
            Config config = Config.fromKubeconfig(Files.readString(cluster.kubeconfig()));
            try (KubernetesClient client = new KubernetesClientBuilder().withConfig(config).build()) {
                client.configMaps().inNamespace("kube-system").withName("extension-apiserver-authentication").delete();
                try (ControlPlane plane = ControlPlane.builder(config)
                        .leaderElection(LeaderElection.Options.defaults().withLeaseName("webhook-callers-test"))
                        .webhookCallers(WebhookCallers.clusterClientCa()).build()) {
                    plane.start();
                    await().atMost(WAIT).until(plane::isLeader);
                    // The leader's webhook start has run (same thread as the leadership change): nothing served or registered.
                    await().during(Duration.ofSeconds(1)).atMost(WAIT).until(() -> plane.evictionWebhook().isEmpty());
                    assertThat(client.admissionRegistration().v1().validatingWebhookConfigurations()
                            .withName("virt-api-validator").get()).isNull();
                }
            }
        }
    }
}
