package dev.drainboard.cluster.namespace;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.drainboard.cluster.fabric8.Fabric8Cluster;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.time.Duration;
import java.util.Map;

/** Namespace deletion as kube-apiserver and kube-controller-manager do it together. */
class NamespaceLifecycleTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(30);
    private static final String HOLD = "test.drainboard.dev/hold";

    private static Fabric8Cluster cluster;
    private static KubernetesClient client;

    @BeforeAll
    static void start() throws Exception {
        cluster = Fabric8Cluster.start();
        client = cluster.client();
        cluster.createNode("ns-node");
    }

    @AfterAll
    static void stop() {
        cluster.close();
    }

    @Test
    void deletingANamespaceRemovesItsContentsAndThenTheNamespace() {
        String ns = cluster.newNamespace("doomed");
        String survivor = cluster.newNamespace("survivor");
        client.configMaps().resource(configMap(ns, "settings")).create();
        client.pods().resource(Fabric8Cluster.podOnNode(ns, "running", "ns-node", Map.of())).create();
        client.pods().resource(Fabric8Cluster.pod(ns, "pending", Map.of())).create();
        client.configMaps().resource(configMap(survivor, "settings")).create();

        client.namespaces().withName(ns).delete();

        Namespace terminating = client.namespaces().withName(ns).get();
        if (terminating != null) {
            assertThat(terminating.getStatus().getPhase()).isEqualTo("Terminating");
        }
        await().atMost(TIMEOUT).until(() -> client.namespaces().withName(ns).get() == null);
        assertThat(client.configMaps().inNamespace(ns).list().getItems()).isEmpty();
        assertThat(client.pods().inNamespace(ns).list().getItems()).isEmpty();
        assertThat(client.configMaps().inNamespace(survivor).withName("settings").get()).isNotNull();
    }

    @Test
    void aTerminatingNamespaceWaitsForFinalizersAndRefusesNewContent() {
        String ns = cluster.newNamespace("finalizing");
        ConfigMap held = new ConfigMapBuilder(configMap(ns, "held")).editMetadata().addToFinalizers(HOLD).endMetadata().build();
        client.configMaps().resource(held).create();

        client.namespaces().withName(ns).delete();

        await().atMost(TIMEOUT).until(() -> client.configMaps().inNamespace(ns).withName("held").get()
                .getMetadata().getDeletionTimestamp() != null);
        assertThat(client.namespaces().withName(ns).get().getStatus().getPhase()).isEqualTo("Terminating");
        assertThatThrownBy(() -> client.configMaps().resource(configMap(ns, "newcomer")).create())
                .isInstanceOfSatisfying(KubernetesClientException.class, e -> {
                    assertThat(e.getCode()).isEqualTo(403);
                    assertThat(e.getStatus().getReason()).isEqualTo("Forbidden");
                    assertThat(e.getStatus().getMessage()).isEqualTo("configmaps \"newcomer\" is forbidden: "
                            + "unable to create new content in namespace " + ns + " because it is being terminated");
                });

        client.configMaps().inNamespace(ns).withName("held")
                .edit(cm -> new ConfigMapBuilder(cm).editMetadata().removeFromFinalizers(HOLD).endMetadata().build());
        await().atMost(TIMEOUT).until(() -> client.namespaces().withName(ns).get() == null);
    }

    @ParameterizedTest
    @ValueSource(strings = {"default", "kube-system", "kube-public"})
    void systemNamespacesCannotBeDeleted(String name) {
        assertThatThrownBy(() -> client.namespaces().withName(name).delete())
                .isInstanceOfSatisfying(KubernetesClientException.class, e -> {
                    assertThat(e.getCode()).isEqualTo(403);
                    assertThat(e.getStatus().getMessage())
                            .isEqualTo("namespaces \"" + name + "\" is forbidden: this namespace may not be deleted");
                });
        assertThat(client.namespaces().withName(name).get().getMetadata().getDeletionTimestamp()).isNull();
    }

    @Test
    void creatingInAMissingNamespaceIsNotFound() {
        assertThatThrownBy(() -> client.configMaps().resource(configMap("no-such-namespace", "x")).create())
                .isInstanceOfSatisfying(KubernetesClientException.class, e -> {
                    assertThat(e.getCode()).isEqualTo(404);
                    assertThat(e.getStatus().getMessage()).isEqualTo("namespaces \"no-such-namespace\" not found");
                });
    }

    private static ConfigMap configMap(String ns, String name) {
        return new ConfigMapBuilder().withNewMetadata().withNamespace(ns).withName(name).endMetadata().addToData("k", "v").build();
    }
}
