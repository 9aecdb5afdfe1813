package dev.drainboard.cluster.fabric8;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Map;

/** fabric8 informers against the embedded API server: list, then watch, add/update/delete. */
class Fabric8InformerTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(30);

    private static Fabric8Cluster cluster;
    private static KubernetesClient client;

    @BeforeAll
    static void start() throws Exception {
        cluster = Fabric8Cluster.start();
        client = cluster.client();
    }

    @AfterAll
    static void stop() {
        cluster.close();
    }

    @Test
    void anyNamespaceInformerSyncsAndSeesAddUpdateDelete() {
        String ns = cluster.newNamespace("inform-all");
        client.pods().resource(Fabric8Cluster.pod(ns, "before", Map.of())).create();
        RecordingHandler<Pod> handler = new RecordingHandler<>();

        try (SharedIndexInformer<Pod> informer = client.pods().inAnyNamespace().inform(handler)) {
            await().atMost(TIMEOUT).until(informer::hasSynced);
            assertThat(handler.events()).contains("ADD " + ns + "/before");
            assertThat(informer.getStore().getByKey(ns + "/before")).isNotNull();

            client.pods().resource(Fabric8Cluster.pod(ns, "after", Map.of())).create();
            client.pods().inNamespace(ns).withName("after").edit(p -> {
                p.getMetadata().setLabels(Map.of("touched", "yes"));
                return p;
            });
            client.pods().inNamespace(ns).withName("after").withGracePeriod(0).delete();

            await().atMost(TIMEOUT).untilAsserted(() -> assertThat(handler.events())
                    .containsSubsequence("ADD " + ns + "/after", "UPDATE " + ns + "/after", "DELETE " + ns + "/after"));
            assertThat(informer.getStore().getByKey(ns + "/after")).isNull();
            assertThat(informer.getStore().getByKey(ns + "/before")).isNotNull();
        }
    }

    @Test
    void namespacedLabelFilteredInformerSeesOnlyWhatMatches() {
        String ns = cluster.newNamespace("inform-label");
        String other = cluster.newNamespace("inform-other");
        RecordingHandler<Pod> handler = new RecordingHandler<>();

        try (SharedIndexInformer<Pod> informer = client.pods().inNamespace(ns).withLabel("app", "web").inform(handler)) {
            await().atMost(TIMEOUT).until(informer::hasSynced);

            client.pods().resource(Fabric8Cluster.pod(ns, "web-1", Map.of("app", "web"))).create();
            client.pods().resource(Fabric8Cluster.pod(ns, "db-1", Map.of("app", "db"))).create();
            client.pods().resource(Fabric8Cluster.pod(other, "web-elsewhere", Map.of("app", "web"))).create();
            // Relabelling: db-1 starts matching (an add), web-1 stops matching (a delete).
            client.pods().inNamespace(ns).withName("db-1").edit(p -> {
                p.getMetadata().getLabels().put("app", "web");
                return p;
            });
            client.pods().inNamespace(ns).withName("web-1").edit(p -> {
                p.getMetadata().getLabels().put("app", "web-old");
                return p;
            });
            client.pods().inNamespace(ns).withName("db-1").edit(p -> {
                p.getMetadata().getLabels().put("tier", "front");
                return p;
            });

            await().atMost(TIMEOUT).untilAsserted(() -> assertThat(handler.events()).containsExactly(
                    "ADD " + ns + "/web-1",
                    "ADD " + ns + "/db-1",
                    "DELETE " + ns + "/web-1",
                    "UPDATE " + ns + "/db-1"));
            assertThat(informer.getStore().list()).extracting(p -> p.getMetadata().getName()).containsExactly("db-1");
        }
    }
}
