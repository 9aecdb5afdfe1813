package dev.drainboard.kubevirt.config;

import dev.drainboard.cluster.EmbeddedCluster;
import dev.drainboard.cluster.EmbeddedClusterOptions;
import dev.drainboard.kubevirt.api.EvictionStrategy;
import dev.drainboard.kubevirt.api.KubeVirt;
import dev.drainboard.kubevirt.crd.CrdInstaller;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.utils.Serialization;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;
import static org.awaitility.Awaitility.await;

/** The configuration follows the KubeVirt CR of a live cluster, without a restart. */
class ClusterConfigSourceTest {

    private EmbeddedCluster cluster;
    private KubernetesClient client;

    @BeforeEach
    void startCluster() throws Exception {
        cluster = EmbeddedCluster.start(EmbeddedClusterOptions.defaults());
        client = new KubernetesClientBuilder()
                .withConfig(Config.fromKubeconfig(Files.readString(cluster.kubeconfig()))).build();
    }

    @AfterEach
    void stopCluster() {
        client.close();
        cluster.close();
    }

    @Test
    void followsTheKubeVirtCrAsItChanges() {
        new CrdInstaller(client).installKubeVirtCrds(false);
        namespace("kubevirt");
        try (ClusterConfigSource source = ClusterConfigSource.start(client)) {
            List<ClusterConfig> seen = new CopyOnWriteArrayList<>();
            source.addListener(seen::add);
            await().atMost(Duration.ofSeconds(10)).until(source::hasSynced);
            assertThat(source.current()).isEqualTo(ClusterConfig.defaults());

            client.resources(KubeVirt.class).resource(kubeVirt("""
                    {"apiVersion":"kubevirt.io/v1","kind":"KubeVirt","metadata":{"name":"kubevirt","namespace":"kubevirt"},
                     "spec":{"configuration":{"evictionStrategy":"LiveMigrate",
                       "migrations":{"parallelOutboundMigrationsPerNode":1},
                       "developerConfiguration":{"featureGates":["NodePressureEvictionLiveMigration"]}}}}
                    """)).create();
            await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
                ClusterConfig config = source.current();
                assertThat(config.evictionStrategy()).isEqualTo(EvictionStrategy.LIVE_MIGRATE);
                assertThat(config.migrations().parallelOutboundMigrationsPerNode()).isEqualTo(1);
                assertThat(config.migrations().parallelMigrationsPerCluster()).isEqualTo(5);
                assertThat(config.isFeatureGateEnabled("NodePressureEvictionLiveMigration")).isTrue();
                assertThat(config.source()).contains("kubevirt/kubevirt");
            });

            // What an operator does: kubectl patch kv kubevirt -n kubevirt --type merge -p ...
            client.resources(KubeVirt.class).inNamespace("kubevirt").withName("kubevirt")
                    .patch(PatchContext.of(PatchType.JSON_MERGE), """
                            {"spec":{"configuration":{"evictionStrategy":"External",
                              "migrations":{"parallelMigrationsPerCluster":10,"nodeDrainTaintKey":"example.com/drain"}}}}
                            """);
            await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
                ClusterConfig config = source.current();
                assertThat(config.evictionStrategy()).isEqualTo(EvictionStrategy.EXTERNAL);
                assertThat(config.migrations().parallelMigrationsPerCluster()).isEqualTo(10);
                assertThat(config.migrations().nodeDrainTaintKey()).isEqualTo("example.com/drain");
            });

            // An invalid change is refused: the last good configuration stays. Asked once the source has handled a
            // valid change made after it (the watch delivers them in order): nothing came in between.
            client.resources(KubeVirt.class).inNamespace("kubevirt").withName("kubevirt")
                    .patch(PatchContext.of(PatchType.JSON_MERGE), """
                            {"metadata":{"labels":{"touched":"yes"}},"spec":{"configuration":{"evictionStrategy":"Sideways"}}}
                            """);
            client.resources(KubeVirt.class).inNamespace("kubevirt").withName("kubevirt")
                    .patch(PatchContext.of(PatchType.JSON_MERGE), """
                            {"spec":{"configuration":{"evictionStrategy":"External","migrations":{"parallelMigrationsPerCluster":12}}}}
                            """);
            await().atMost(Duration.ofSeconds(10)).until(() -> source.current().migrations().parallelMigrationsPerCluster() == 12);
            assertThat(seen).extracting(ClusterConfig::evictionStrategy, c -> c.migrations().parallelMigrationsPerCluster())
                    .containsExactly(tuple(EvictionStrategy.LIVE_MIGRATE, 5), tuple(EvictionStrategy.EXTERNAL, 10),
                            tuple(EvictionStrategy.EXTERNAL, 12));

            client.resources(KubeVirt.class).inNamespace("kubevirt").withName("kubevirt").delete();
            await().atMost(Duration.ofSeconds(10)).until(() -> source.current().equals(ClusterConfig.defaults()));

            assertThat(seen).extracting(ClusterConfig::evictionStrategy).containsExactly(
                    EvictionStrategy.LIVE_MIGRATE, EvictionStrategy.EXTERNAL, EvictionStrategy.EXTERNAL, EvictionStrategy.NONE);
        }
    }

    @Test
    void startsWithDefaultsOnAClusterWithoutKubeVirtAndPicksItUpOnceInstalled() {
        try (ClusterConfigSource source = ClusterConfigSource.start(client)) {
            assertThat(source.current()).isEqualTo(ClusterConfig.defaults());

            new CrdInstaller(client).installKubeVirtCrds(false);
            namespace("virt");
            client.resources(KubeVirt.class).resource(kubeVirt("""
                    {"apiVersion":"kubevirt.io/v1","kind":"KubeVirt","metadata":{"name":"kv","namespace":"virt"},
                     "spec":{"configuration":{"evictionStrategy":"LiveMigrateIfPossible"}}}
                    """)).create();

            await().atMost(Duration.ofSeconds(30)).untilAsserted(() ->
                    assertThat(source.current().evictionStrategy()).isEqualTo(EvictionStrategy.LIVE_MIGRATE_IF_POSSIBLE));
        }
    }

    /** The namespace, created unless there (the cluster comes with KubeVirt's own, {@code kubevirt}). */
    private void namespace(String name) {
        Namespace ns = new NamespaceBuilder().withNewMetadata().withName(name).endMetadata().build();
        if (client.namespaces().withName(name).get() == null) {
            client.namespaces().resource(ns).create();
        }
    }

    private static KubeVirt kubeVirt(String json) {
        return Serialization.unmarshal(json, KubeVirt.class);
    }
}
