package dev.drainboard.cluster.fabric8;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.Map;

/** Optimistic concurrency, edit, patches and server-side apply through fabric8. */
class Fabric8ConcurrencyTest {

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
    void updateWithAStaleResourceVersionIsAConflict() {
        String ns = cluster.newNamespace("conflict");
        ConfigMap created = client.configMaps().resource(configMap(ns, "settings", Map.of("mode", "a"))).create();
        client.configMaps().inNamespace(ns).withName("settings").edit(cm -> {
            cm.getData().put("mode", "b");
            return cm;
        });

        ConfigMap stale = new ConfigMapBuilder(created).withData(Map.of("mode", "c")).build();
        assertThatThrownBy(() -> client.configMaps().resource(stale).update())
                .isInstanceOfSatisfying(KubernetesClientException.class, e -> {
                    assertThat(e.getCode()).isEqualTo(409);
                    assertThat(e.getStatus().getReason()).isEqualTo("Conflict");
                    assertThat(e.getStatus().getMessage()).contains(
                            "the object has been modified; please apply your changes to the latest version and try again");
                });
        assertThat(client.configMaps().inNamespace(ns).withName("settings").get().getData()).containsEntry("mode", "b");
    }

    @Test
    void editAndPatchesChangeTheObject() {
        String ns = cluster.newNamespace("patches");
        client.configMaps().resource(configMap(ns, "settings", Map.of("mode", "a", "size", "1"))).create();

        ConfigMap edited = client.configMaps().inNamespace(ns).withName("settings").edit(cm -> {
            cm.getData().put("mode", "edited");
            return cm;
        });
        assertThat(edited.getData()).containsEntry("mode", "edited");

        client.configMaps().inNamespace(ns).withName("settings")
                .patch(PatchContext.of(PatchType.JSON_MERGE), "{\"data\":{\"size\":null,\"extra\":\"x\"}}");
        client.configMaps().inNamespace(ns).withName("settings")
                .patch(PatchContext.of(PatchType.JSON), "[{\"op\":\"replace\",\"path\":\"/data/mode\",\"value\":\"json\"}]");
        client.configMaps().inNamespace(ns).withName("settings")
                .patch(PatchContext.of(PatchType.STRATEGIC_MERGE), "{\"metadata\":{\"labels\":{\"patched\":\"yes\"}}}");

        ConfigMap result = client.configMaps().inNamespace(ns).withName("settings").get();
        assertThat(result.getData()).containsExactlyInAnyOrderEntriesOf(Map.of("mode", "json", "extra", "x"));
        assertThat(result.getMetadata().getLabels()).containsEntry("patched", "yes");
    }

    @Test
    void patchWithAStaleResourceVersionIsAConflict() {
        String ns = cluster.newNamespace("patch-conflict");
        ConfigMap created = client.configMaps().resource(configMap(ns, "settings", Map.of("mode", "a"))).create();
        client.configMaps().inNamespace(ns).withName("settings").edit(cm -> {
            cm.getData().put("mode", "b");
            return cm;
        });

        String patch = "{\"metadata\":{\"resourceVersion\":\"" + created.getMetadata().getResourceVersion()
                + "\"},\"data\":{\"mode\":\"c\"}}";
        assertThatThrownBy(() -> client.configMaps().inNamespace(ns).withName("settings")
                .patch(PatchContext.of(PatchType.JSON_MERGE), patch))
                .isInstanceOfSatisfying(KubernetesClientException.class, e -> assertThat(e.getCode()).isEqualTo(409));
    }

    @Test
    void serverSideApplyCreatesThenMerges() {
        String ns = cluster.newNamespace("apply");
        ConfigMap first = client.configMaps().resource(configMap(ns, "applied", Map.of("a", "1"))).serverSideApply();
        assertThat(first.getMetadata().getUid()).isNotEmpty();
        assertThat(first.getData()).containsEntry("a", "1");

        ConfigMap desired = configMap(ns, "applied", Map.of("a", "2", "b", "3"));
        desired.getMetadata().setLabels(Map.of("owner", "test"));
        ConfigMap second = client.configMaps().resource(desired).serverSideApply();

        assertThat(second.getMetadata().getUid()).isEqualTo(first.getMetadata().getUid());
        assertThat(second.getData()).containsExactlyInAnyOrderEntriesOf(Map.of("a", "2", "b", "3"));
        assertThat(second.getMetadata().getLabels()).containsEntry("owner", "test");
        assertThat(client.configMaps().inNamespace(ns).withName("applied").get().getData())
                .containsExactlyInAnyOrderEntriesOf(Map.of("a", "2", "b", "3"));
    }

    private static ConfigMap configMap(String ns, String name, Map<String, String> data) {
        return new ConfigMapBuilder().withNewMetadata().withNamespace(ns).withName(name).endMetadata()
                .withData(new java.util.HashMap<>(data)).build();
    }
}
