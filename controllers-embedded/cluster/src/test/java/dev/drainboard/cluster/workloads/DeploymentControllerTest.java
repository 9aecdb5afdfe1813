package dev.drainboard.cluster.workloads;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.drainboard.cluster.fabric8.Fabric8Cluster;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.ReplicaSet;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.Serialization;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;

/** Deployments and their ReplicaSets on the embedded cluster, through fabric8. */
class DeploymentControllerTest {

    private static final Duration WAIT = Duration.ofSeconds(30);
    private static Fabric8Cluster cluster;
    private static KubernetesClient client;

    @BeforeAll
    static void start() throws Exception {
        cluster = Fabric8Cluster.start();
        client = cluster.client();
        for (String node : List.of("node01", "node02", "node03")) {
            cluster.createNode(node);
        }
    }

    @AfterAll
    static void stop() {
        if (cluster != null) {
            cluster.close();
        }
    }

    private static Deployment deployment(String ns, String name, int replicas, String image) {
        return Serialization.unmarshal("""
                apiVersion: apps/v1
                kind: Deployment
                metadata: {name: %s, namespace: %s}
                spec:
                  replicas: %d
                  selector: {matchLabels: {app: %s}}
                  template:
                    metadata: {labels: {app: %s}}
                    spec:
                      containers: [{name: main, image: "%s"}]
                """.formatted(name, ns, replicas, name, name, image), Deployment.class);
    }

    @Test
    void aDeploymentRollsOutItsReplicasAndReportsThemAvailable() {
        String ns = cluster.newNamespace("deploy");
        client.apps().deployments().resource(deployment(ns, "web", 3, "nginx:1.27")).create();

        await().atMost(WAIT).untilAsserted(() -> {
            Deployment d = client.apps().deployments().inNamespace(ns).withName("web").get();
            assertThat(d.getStatus().getAvailableReplicas()).isEqualTo(3);
            assertThat(d.getStatus().getUpdatedReplicas()).isEqualTo(3);
            assertThat(d.getStatus().getObservedGeneration()).isEqualTo(d.getMetadata().getGeneration());
        });
        Deployment d = client.apps().deployments().inNamespace(ns).withName("web").get();
        assertThat(d.getMetadata().getAnnotations()).containsEntry("deployment.kubernetes.io/revision", "1");
        assertThat(d.getStatus().getConditions()).extracting(c -> c.getType() + "/" + c.getStatus() + "/" + c.getReason())
                .containsExactly("Available/True/MinimumReplicasAvailable", "Progressing/True/NewReplicaSetAvailable");
        List<ReplicaSet> sets = client.apps().replicaSets().inNamespace(ns).list().getItems();
        assertThat(sets).hasSize(1);
        ReplicaSet rs = sets.getFirst();
        String hash = rs.getMetadata().getLabels().get("pod-template-hash");
        assertThat(rs.getMetadata().getName()).isEqualTo("web-" + hash);
        assertThat(rs.getMetadata().getAnnotations()).containsEntry("deployment.kubernetes.io/revision", "1")
                .containsEntry("deployment.kubernetes.io/desired-replicas", "3")
                .containsEntry("deployment.kubernetes.io/max-replicas", "4");
        List<Pod> pods = client.pods().inNamespace(ns).list().getItems();
        assertThat(pods).hasSize(3).allSatisfy(p -> {
            assertThat(p.getMetadata().getName()).startsWith("web-" + hash + "-");
            assertThat(p.getMetadata().getLabels()).containsEntry("pod-template-hash", hash).containsEntry("app", "web");
        });
    }

    @Test
    void aNewTemplateRollsToANewReplicaSetAndKeepsTheOldOneAtZero() {
        String ns = cluster.newNamespace("roll");
        client.apps().deployments().resource(deployment(ns, "api", 4, "app:v1")).create();
        await().atMost(WAIT).until(() -> available(ns, "api") == 4);

        client.apps().deployments().inNamespace(ns).withName("api").edit(d -> {
            d.getSpec().getTemplate().getSpec().getContainers().getFirst().setImage("app:v2");
            return d;
        });
        await().atMost(WAIT).untilAsserted(() -> {
            Deployment d = client.apps().deployments().inNamespace(ns).withName("api").get();
            assertThat(d.getStatus().getUpdatedReplicas()).isEqualTo(4);
            assertThat(d.getStatus().getReplicas()).isEqualTo(4);
            assertThat(d.getStatus().getAvailableReplicas()).isEqualTo(4);
            assertThat(d.getMetadata().getAnnotations()).containsEntry("deployment.kubernetes.io/revision", "2");
        });
        List<ReplicaSet> sets = client.apps().replicaSets().inNamespace(ns).list().getItems();
        assertThat(sets).extracting(rs -> rs.getMetadata().getAnnotations().get("deployment.kubernetes.io/revision")
                + "=" + rs.getSpec().getReplicas()).containsExactlyInAnyOrder("1=0", "2=4");
        await().atMost(WAIT).until(() -> client.pods().inNamespace(ns).list().getItems().stream()
                .allMatch(p -> p.getSpec().getContainers().getFirst().getImage().equals("app:v2")));
    }

    @Test
    void anEvictedPodIsReplacedAndTheDeploymentIsAvailableAgain() {
        String ns = cluster.newNamespace("evict");
        client.apps().deployments().resource(deployment(ns, "shop", 3, "shop:1")).create();
        await().atMost(WAIT).until(() -> available(ns, "shop") == 3);
        Pod victim = client.pods().inNamespace(ns).list().getItems().getFirst();

        client.pods().inNamespace(ns).withName(victim.getMetadata().getName()).evict();

        await().atMost(WAIT).untilAsserted(() -> {
            List<Pod> pods = client.pods().inNamespace(ns).list().getItems();
            assertThat(pods).extracting(p -> p.getMetadata().getName()).doesNotContain(victim.getMetadata().getName()).hasSize(3);
            assertThat(available(ns, "shop")).isEqualTo(3);
        });
    }

    @Test
    void aReplicaSetAdoptsAMatchingOrphanAndReleasesAPodItNoLongerSelects() {
        String ns = cluster.newNamespace("adopt");
        client.pods().resource(Fabric8Cluster.podOnNode(ns, "stray", "node01", java.util.Map.of("app", "cache"))).create();
        client.apps().replicaSets().resource(Serialization.unmarshal("""
                apiVersion: apps/v1
                kind: ReplicaSet
                metadata: {name: cache, namespace: %s}
                spec:
                  replicas: 2
                  selector: {matchLabels: {app: cache}}
                  template:
                    metadata: {labels: {app: cache}}
                    spec: {containers: [{name: main, image: "cache:1"}]}
                """.formatted(ns), ReplicaSet.class)).create();

        await().atMost(WAIT).untilAsserted(() -> {
            assertThat(client.pods().inNamespace(ns).list().getItems()).hasSize(2);
            Pod stray = client.pods().inNamespace(ns).withName("stray").get();
            assertThat(stray.getMetadata().getOwnerReferences()).singleElement().satisfies(ref -> {
                assertThat(ref.getKind()).isEqualTo("ReplicaSet");
                assertThat(ref.getController()).isTrue();
            });
        });

        client.pods().inNamespace(ns).withName("stray").edit(p -> {
            p.getMetadata().getLabels().put("app", "debug");
            return p;
        });

        await().atMost(WAIT).untilAsserted(() -> {
            assertThat(client.pods().inNamespace(ns).withName("stray").get().getMetadata().getOwnerReferences()).isEmpty();
            assertThat(client.pods().inNamespace(ns).withLabel("app", "cache").list().getItems()).hasSize(2);
            ReplicaSet rs = client.apps().replicaSets().inNamespace(ns).withName("cache").get();
            assertThat(rs.getStatus().getReplicas()).isEqualTo(2);
            assertThat(rs.getStatus().getFullyLabeledReplicas()).isEqualTo(2);
        });
    }

    @Test
    void scalingDownDeletesThePodWithTheLowestDeletionCost() {
        String ns = cluster.newNamespace("scale");
        client.apps().deployments().resource(deployment(ns, "api", 3, "api:1")).create();
        await().atMost(WAIT).until(() -> available(ns, "api") == 3);
        List<String> before = client.pods().inNamespace(ns).list().getItems().stream().map(p -> p.getMetadata().getName()).sorted().toList();
        String cheap = before.get(1);
        client.pods().inNamespace(ns).withName(cheap).edit(p -> {
            p.getMetadata().getAnnotations().put("controller.kubernetes.io/pod-deletion-cost", "-100");
            return p;
        });

        client.apps().deployments().inNamespace(ns).withName("api").scale(2);

        await().atMost(WAIT).untilAsserted(() -> {
            Deployment d = client.apps().deployments().inNamespace(ns).withName("api").get();
            assertThat(d.getStatus().getReplicas()).isEqualTo(2);
            assertThat(d.getStatus().getAvailableReplicas()).isEqualTo(2);
            assertThat(client.pods().inNamespace(ns).list().getItems()).extracting(p -> p.getMetadata().getName())
                    .containsExactlyInAnyOrderElementsOf(before.stream().filter(n -> !n.equals(cheap)).toList());
        });
    }

    private static int available(String ns, String name) {
        Deployment d = client.apps().deployments().inNamespace(ns).withName(name).get();
        Integer available = d == null || d.getStatus() == null ? null : d.getStatus().getAvailableReplicas();
        return available == null ? 0 : available;
    }
}
