package dev.drainboard.cluster.fabric8;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.drainboard.cluster.EmbeddedClusterOptions;
import dev.drainboard.cluster.apiserver.BuiltinResources;
import dev.drainboard.cluster.apiserver.Json;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Watches that outlive their connection. fabric8 7.8 watches over WebSocket by default (falling back
 * to chunked HTTP if the upgrade fails) and over HTTP only with {@code onlyHttpWatches}; every test
 * runs on both. A small watch log makes "resourceVersion too old" reachable.
 */
class Fabric8WatchResumeTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(30);
    private static final int WATCH_LOG_CAPACITY = 20;

    /** How the client watches, and which fabric8 class then carries the watch. */
    enum Transport {
        WEBSOCKET(false, "WatchConnectionManager"),
        HTTP(true, "WatchHTTPManager");

        final boolean onlyHttp;
        final String watchManager;

        Transport(boolean onlyHttp, String watchManager) {
            this.onlyHttp = onlyHttp;
            this.watchManager = watchManager;
        }
    }

    private static Fabric8Cluster cluster;

    @BeforeAll
    static void start() throws Exception {
        cluster = Fabric8Cluster.start(EmbeddedClusterOptions.defaults().withWatchLogCapacity(WATCH_LOG_CAPACITY));
    }

    @AfterAll
    static void stop() {
        cluster.close();
    }

    private static KubernetesClient client(Transport transport) throws Exception {
        return cluster.newClient(config -> {
            config.setOnlyHttpWatches(transport.onlyHttp);
            config.setWatchReconnectInterval(200);
        });
    }

    @ParameterizedTest
    @EnumSource(Transport.class)
    void watchResumesFromItsLastResourceVersionAfterTheConnectionDrops(Transport transport) throws Exception {
        String ns = cluster.newNamespace("resume-" + transport.name().toLowerCase());
        int subscriptionsBefore = cluster.cluster().store().subscriptionCount();
        RecordingWatcher watcher = new RecordingWatcher();
        try (KubernetesClient client = client(transport);
             Watch watch = client.pods().inNamespace(ns).watch(watcher)) {
            assertThat(watch.getClass().getSimpleName()).isEqualTo(transport.watchManager);
            client.pods().resource(Fabric8Cluster.pod(ns, "first", Map.of())).create();
            await().atMost(TIMEOUT).until(() -> watcher.events().contains("ADDED first"));

            assertThat(cluster.cluster().dropWatchConnections()).isGreaterThanOrEqualTo(1);
            client.pods().resource(Fabric8Cluster.pod(ns, "second", Map.of())).create();
            client.pods().inNamespace(ns).withName("first").withGracePeriod(0).delete();

            await().atMost(TIMEOUT).until(() -> watcher.events().size() >= 3);
            // Nothing replayed twice, nothing lost, and the watch was never given up.
            assertThat(watcher.events()).containsExactly("ADDED first", "ADDED second", "DELETED first");
            assertThat(watcher.closedWith.get()).isNull();

            client.pods().inNamespace(ns).withName("second").edit(p -> {
                p.getMetadata().setLabels(Map.of("after", "reconnect"));
                return p;
            });
            await().atMost(TIMEOUT).until(() -> watcher.events().contains("MODIFIED second"));
            // A change made after them has arrived: no replay of the earlier ones came late either.
            assertThat(watcher.events()).containsExactly("ADDED first", "ADDED second", "DELETED first", "MODIFIED second");
        }
        // Neither the dropped connection nor the closed one leaves a subscription behind.
        await().atMost(TIMEOUT).until(() -> cluster.cluster().store().subscriptionCount() == subscriptionsBefore);
    }

    @ParameterizedTest
    @EnumSource(Transport.class)
    void informerKeepsReceivingChangesAfterTheConnectionDrops(Transport transport) throws Exception {
        String ns = cluster.newNamespace("inform-drop-" + transport.name().toLowerCase());
        RecordingHandler<Pod> handler = new RecordingHandler<>();
        try (KubernetesClient client = client(transport);
             SharedIndexInformer<Pod> informer = client.pods().inNamespace(ns).inform(handler)) {
            await().atMost(TIMEOUT).until(informer::hasSynced);
            client.pods().resource(Fabric8Cluster.pod(ns, "before", Map.of())).create();
            await().atMost(TIMEOUT).until(() -> handler.events().contains("ADD " + ns + "/before"));

            assertThat(cluster.cluster().dropWatchConnections()).isGreaterThanOrEqualTo(1);
            client.pods().resource(Fabric8Cluster.pod(ns, "after", Map.of())).create();

            await().atMost(TIMEOUT).until(() -> handler.events().contains("ADD " + ns + "/after"));
            assertThat(informer.getStore().list()).extracting(p -> p.getMetadata().getName())
                    .containsExactlyInAnyOrder("before", "after");
            assertThat(informer.isWatching()).isTrue();
        }
    }

    @ParameterizedTest
    @EnumSource(Transport.class)
    void watchFromACompactedResourceVersionIsGone(Transport transport) throws Exception {
        String ns = cluster.newNamespace("gone-" + transport.name().toLowerCase());
        String old = Long.toString(cluster.cluster().store().resourceVersion());
        churn(ns, WATCH_LOG_CAPACITY + 5);

        RecordingWatcher watcher = new RecordingWatcher();
        try (KubernetesClient client = client(transport);
             Watch ignored = client.pods().inNamespace(ns).withResourceVersion(old).watch(watcher)) {
            await().atMost(TIMEOUT).until(() -> watcher.closedWith.get() != null);
            assertThat(watcher.closedWith.get().isHttpGone()).isTrue();
        }
    }

    @ParameterizedTest
    @EnumSource(Transport.class)
    void informerRelistsWhenItsResourceVersionHasBeenCompacted(Transport transport) throws Exception {
        String ns = cluster.newNamespace("relist-" + transport.name().toLowerCase());
        RecordingHandler<Pod> handler = new RecordingHandler<>();
        try (KubernetesClient client = client(transport)) {
            client.pods().resource(Fabric8Cluster.pod(ns, "old", Map.of())).create();
            try (SharedIndexInformer<Pod> informer = client.pods().inNamespace(ns).inform(handler)) {
                await().atMost(TIMEOUT).until(informer::hasSynced);

                // While the informer is cut off, its pods change and the log moves past its resourceVersion:
                // when it comes back, the server answers 410 Gone and the informer must list again.
                cluster.cluster().dropWatchConnections();
                cluster.cluster().store().remove(BuiltinResources.PODS, ns, "old", false);
                cluster.cluster().api().load((ObjectNode) Json.MAPPER.valueToTree(Fabric8Cluster.pod(ns, "new", Map.of())));
                churn(ns, WATCH_LOG_CAPACITY + 5);

                await().atMost(TIMEOUT).untilAsserted(() -> assertThat(informer.getStore().list())
                        .extracting(p -> p.getMetadata().getName()).containsExactly("new"));
                assertThat(handler.events()).contains("DELETE " + ns + "/old", "ADD " + ns + "/new");

                client.pods().resource(Fabric8Cluster.pod(ns, "later", Map.of())).create();
                await().atMost(TIMEOUT).until(() -> handler.events().contains("ADD " + ns + "/later"));
            }
        }
    }

    /** Writes that push older entries out of the watch log. */
    private static void churn(String ns, int changes) {
        ObjectNode configMap = Json.object();
        configMap.put("apiVersion", "v1").put("kind", "ConfigMap");
        configMap.putObject("metadata").put("namespace", ns).put("name", "churn");
        cluster.cluster().store().create(BuiltinResources.CONFIG_MAPS, configMap, false, false);
        for (int i = 0; i < changes; i++) {
            int n = i;
            cluster.cluster().store().update(BuiltinResources.CONFIG_MAPS, ns, "churn", cm -> {
                cm.with("data").put("n", Integer.toString(n));
                return cm;
            }, false);
        }
    }

    /** Records "TYPE name" per event, and how the watch ended. */
    private static final class RecordingWatcher implements Watcher<Pod> {
        private final List<String> events = new CopyOnWriteArrayList<>();
        final AtomicReference<WatcherException> closedWith = new AtomicReference<>();

        @Override
        public void eventReceived(Action action, Pod pod) {
            events.add(action + " " + pod.getMetadata().getName());
        }

        @Override
        public void onClose(WatcherException cause) {
            closedWith.set(cause);
        }

        List<String> events() {
            return List.copyOf(events);
        }
    }
}
