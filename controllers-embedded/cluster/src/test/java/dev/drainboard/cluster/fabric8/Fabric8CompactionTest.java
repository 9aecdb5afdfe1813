package dev.drainboard.cluster.fabric8;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.drainboard.cluster.EmbeddedClusterOptions;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.time.Duration;

/**
 * A change log bounded by bytes: a few large writes compact it past an informer's resourceVersion while its watch is
 * cut. The informer gets 410 Expired, lists again (in pages of two, whose continue tokens show one moment) and goes
 * on receiving changes.
 */
class Fabric8CompactionTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(30);
    private static final long LOG_BYTES = 64 * 1024;
    private static final int BIG = 20 * 1024;

    private static Fabric8Cluster cluster;

    @BeforeAll
    static void start() throws Exception {
        cluster = Fabric8Cluster.start(EmbeddedClusterOptions.defaults().withWatchLogMaxBytes(LOG_BYTES));
    }

    @AfterAll
    static void stop() {
        cluster.close();
    }

    @Test
    void anInformerRelistsAfterItsResourceVersionIsCompactedByBytesAndGoesOn() throws Exception {
        String ns = cluster.newNamespace("compact-bytes");
        RecordingHandler<ConfigMap> handler = new RecordingHandler<>();
        try (KubernetesClient client = cluster.newClient(config -> config.setWatchReconnectInterval(200))) {
            for (String name : new String[] {"a", "b", "c"}) {
                client.configMaps().resource(configMap(ns, name, "1")).create();
            }
            try (SharedIndexInformer<ConfigMap> informer = client.configMaps().inNamespace(ns).withLimit(2L).inform(handler)) {
                await().atMost(TIMEOUT).until(informer::hasSynced);
                long informerRv = Long.parseLong(informer.lastSyncResourceVersion());

                cluster.cluster().dropWatchConnections();
                client.configMaps().inNamespace(ns).withName("a").delete();
                for (int i = 0; i < 8; i++) {
                    client.configMaps().resource(configMap(ns, "big", "x".repeat(BIG) + i)).createOr(c -> c.update());
                }
                assertThat(cluster.cluster().store().compactedResourceVersion()).isGreaterThan(informerRv);
                assertThat(cluster.cluster().store().changeLogUse().bytes()).isLessThanOrEqualTo(LOG_BYTES);

                await().atMost(TIMEOUT).untilAsserted(() -> assertThat(informer.getStore().list())
                        .extracting(c -> c.getMetadata().getName()).containsExactlyInAnyOrder("b", "c", "big"));
                assertThat(handler.events()).contains("DELETE " + ns + "/a", "ADD " + ns + "/big");

                client.configMaps().resource(configMap(ns, "later", "1")).create();
                await().atMost(TIMEOUT).until(() -> handler.events().contains("ADD " + ns + "/later"));
                assertThat(informer.isWatching()).isTrue();
            }
        }
    }

    private static ConfigMap configMap(String ns, String name, String value) {
        return new ConfigMapBuilder().withNewMetadata().withNamespace(ns).withName(name).endMetadata()
                .addToData("value", value).build();
    }
}
