package dev.drainboard.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Files;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

import dev.drainboard.cluster.EmbeddedCluster;
import dev.drainboard.cluster.EmbeddedClusterOptions;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The loop on real fabric8 informers against the embedded cluster. */
class InformerControllerLoopTest {

    private static EmbeddedCluster cluster;
    private static KubernetesClient client;

    @BeforeAll
    static void startCluster() throws Exception {
        cluster = EmbeddedCluster.start(EmbeddedClusterOptions.defaults());
        client = new KubernetesClientBuilder().withConfig(Config.fromKubeconfig(Files.readString(cluster.kubeconfig()))).build();
    }

    @AfterAll
    static void stopCluster() {
        client.close();
        cluster.close();
    }

    private static ConfigMap configMap(String ns, String name, String value) {
        return new ConfigMapBuilder().withNewMetadata().withNamespace(ns).withName(name).endMetadata()
                .withData(Map.of("v", value)).build();
    }

    @Test
    void workersStartAfterSyncSeeEveryCachedObjectAndThenFollowEvents() {
        String ns = "loop-sync";
        client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(ns).endMetadata().build()).create();
        for (int i = 0; i < 20; i++) {
            client.configMaps().inNamespace(ns).resource(configMap(ns, "cm-" + i, "0")).create();
        }
        SharedIndexInformer<ConfigMap> informer = client.configMaps().inNamespace(ns).runnableInformer(0);
        List<String> missingFromCache = new CopyOnWriteArrayList<>();
        Set<String> reconciled = ConcurrentHashMap.newKeySet();
        Map<String, String> lastValue = new ConcurrentHashMap<>();
        try (ControllerLoop<String> loop = ControllerLoop.<String>builder("configmaps", key -> {
            ConfigMap cm = informer.getStore().getByKey(key);
            if (cm == null) {
                lastValue.put(key, "<deleted>");
            } else {
                lastValue.put(key, cm.getData().get("v"));
            }
            if (cm == null && !key.endsWith("cm-gone")) {
                missingFromCache.add(key);
            }
            reconciled.add(key);
            return Result.done();
        }).workers(3).watch(informer, Keys::of).build()) {

            loop.start();
            assertThat(loop.figures().state()).as("the informer has not even started").isEqualTo(ControllerFigures.State.WAITING_FOR_SYNC);
            assertThat(loop.figures().reconciles()).isZero();

            informer.run();
            await().until(() -> reconciled.size() == 20);
            assertThat(loop.figures().state()).isEqualTo(ControllerFigures.State.RUNNING);
            assertThat(missingFromCache).as("no pass ran against a half-filled cache").isEmpty();

            client.configMaps().inNamespace(ns).resource(configMap(ns, "cm-new", "1")).create();
            await().until(() -> "1".equals(lastValue.get(ns + "/cm-new")));

            client.configMaps().inNamespace(ns).withName("cm-3").edit(cm -> new ConfigMapBuilder(cm).withData(Map.of("v", "7")).build());
            await().until(() -> "7".equals(lastValue.get(ns + "/cm-3")));

            client.configMaps().inNamespace(ns).resource(configMap(ns, "cm-gone", "x")).create();
            await().until(() -> "x".equals(lastValue.get(ns + "/cm-gone")));
            client.configMaps().inNamespace(ns).withName("cm-gone").delete();
            await().atMost(Duration.ofSeconds(10)).until(() -> "<deleted>".equals(lastValue.get(ns + "/cm-gone")));
            assertThat(loop.figures().errors()).isZero();
        } finally {
            informer.stop();
        }
    }

    /**
     * A kind whose CRD the cluster lacks (its informer never syncs) does not hold the loop back: workers run on the
     * other informer, and objects of the late kind arrive as adds once its informer runs.
     */
    @Test
    void anUnsyncedWatchDoesNotHoldTheWorkersBack() {
        String ns = "loop-unsynced";
        client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(ns).endMetadata().build()).create();
        client.configMaps().inNamespace(ns).resource(configMap(ns, "present", "0")).create();
        SharedIndexInformer<ConfigMap> synced = client.configMaps().inNamespace(ns).runnableInformer(0);
        SharedIndexInformer<ConfigMap> late = client.configMaps().inNamespace(ns).withLabel("late", "true").runnableInformer(0);
        Set<String> reconciled = ConcurrentHashMap.newKeySet();
        try (ControllerLoop<String> loop = ControllerLoop.<String>builder("unsynced", key -> {
            reconciled.add(key);
            return Result.done();
        }).watch(synced, Keys::of).watchUnsynced(late, cm -> "late/" + cm.getMetadata().getName()).build()) {
            loop.start();
            synced.run();
            await().until(() -> reconciled.contains(ns + "/present"));
            assertThat(loop.figures().state()).isEqualTo(ControllerFigures.State.RUNNING);

            client.configMaps().inNamespace(ns).resource(new ConfigMapBuilder(configMap(ns, "later", "1"))
                    .editMetadata().addToLabels("late", "true").endMetadata().build()).create();
            late.run();
            await().until(() -> reconciled.contains("late/later"));
        } finally {
            synced.stop();
            late.stop();
        }
    }
}
