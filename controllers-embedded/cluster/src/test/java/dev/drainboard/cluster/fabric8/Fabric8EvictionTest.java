package dev.drainboard.cluster.fabric8;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.DeleteOptionsBuilder;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.policy.v1.Eviction;
import io.fabric8.kubernetes.api.model.policy.v1.EvictionBuilder;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudgetBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Map;

/** fabric8's evict(): true when the eviction is granted, false when a PodDisruptionBudget forbids it (429). */
class Fabric8EvictionTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(30);

    private static Fabric8Cluster cluster;
    private static KubernetesClient client;

    @BeforeAll
    static void start() throws Exception {
        cluster = Fabric8Cluster.start();
        // fabric8 retries a 429 ten times with backoff (about 20 s) before evict() answers false;
        // a drain loop does its own retrying, so these tests ask for the first answer.
        client = cluster.newClient(config -> config.setRequestRetryBackoffLimit(0));
        cluster.createNode("evict-node");
    }

    @AfterAll
    static void stop() {
        client.close();
        cluster.close();
    }

    @Test
    void grantedEvictionReturnsTrueAndThePodGoesAway() {
        String ns = cluster.newNamespace("evict-ok");
        client.pods().resource(Fabric8Cluster.podOnNode(ns, "worker", "evict-node", Map.of("app", "worker"))).create();
        awaitReady(ns, "worker");

        assertThat(client.pods().inNamespace(ns).withName("worker").evict()).isTrue();

        await().atMost(TIMEOUT).until(() -> client.pods().inNamespace(ns).withName("worker").get() == null);
    }

    @Test
    void evictionForbiddenByADisruptionBudgetReturnsFalseAndKeepsThePod() {
        String ns = cluster.newNamespace("evict-pdb");
        client.pods().resource(Fabric8Cluster.podOnNode(ns, "guarded", "evict-node", Map.of("app", "guarded"))).create();
        awaitReady(ns, "guarded");
        createBudget(ns, "guarded", 1);

        assertThat(client.pods().inNamespace(ns).withName("guarded").evict()).isFalse();

        Pod pod = client.pods().inNamespace(ns).withName("guarded").get();
        assertThat(pod).isNotNull();
        assertThat(pod.getMetadata().getDeletionTimestamp()).isNull();
    }

    @Test
    void evictWithAPolicyV1EvictionBody() {
        String ns = cluster.newNamespace("evict-body");
        client.pods().resource(Fabric8Cluster.podOnNode(ns, "a", "evict-node", Map.of("app", "pair"))).create();
        client.pods().resource(Fabric8Cluster.podOnNode(ns, "b", "evict-node", Map.of("app", "pair"))).create();
        awaitReady(ns, "a");
        awaitReady(ns, "b");
        createBudget(ns, "pair", 1); // two healthy, one must stay: exactly one disruption allowed

        assertThat(client.pods().inNamespace(ns).withName("a").evict(eviction(ns, "a"))).isTrue();
        assertThat(client.pods().inNamespace(ns).withName("b").evict(eviction(ns, "b"))).isFalse();

        await().atMost(TIMEOUT).until(() -> client.pods().inNamespace(ns).withName("a").get() == null);
        assertThat(client.pods().inNamespace(ns).withName("b").get()).isNotNull();
    }

    private static Eviction eviction(String ns, String pod) {
        return new EvictionBuilder().withNewMetadata().withNamespace(ns).withName(pod).endMetadata()
                .withDeleteOptions(new DeleteOptionsBuilder().withGracePeriodSeconds(0L).build()).build();
    }

    private static void createBudget(String ns, String app, int minAvailable) {
        PodDisruptionBudget budget = new PodDisruptionBudgetBuilder()
                .withNewMetadata().withNamespace(ns).withName(app + "-pdb").endMetadata()
                .withNewSpec().withMinAvailable(new IntOrString(minAvailable))
                .withNewSelector().addToMatchLabels("app", app).endSelector().endSpec()
                .build();
        client.policy().v1().podDisruptionBudget().resource(budget).create();
        // The disruption controller must have looked at the budget before evictions consult it.
        await().atMost(TIMEOUT).until(() -> {
            PodDisruptionBudget current = client.policy().v1().podDisruptionBudget().inNamespace(ns).withName(app + "-pdb").get();
            return current.getStatus() != null && current.getStatus().getObservedGeneration() != null
                    && current.getStatus().getObservedGeneration() >= current.getMetadata().getGeneration();
        });
    }

    private static void awaitReady(String ns, String name) {
        await().atMost(TIMEOUT).until(() -> {
            Pod pod = client.pods().inNamespace(ns).withName(name).get();
            return pod.getStatus() != null && pod.getStatus().getConditions().stream()
                    .anyMatch(c -> c.getType().equals("Ready") && c.getStatus().equals("True"));
        });
    }
}
