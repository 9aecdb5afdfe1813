package dev.drainboard.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.drainboard.cluster.EmbeddedCluster;
import dev.drainboard.cluster.EmbeddedClusterOptions;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;

/**
 * Writes without decoding the answer still do what fabric8's typed writes do: the object lands, generateName gives
 * the stored name back, and every failure is a KubernetesClientException with the code and the server's Status, so
 * that callers (404 ignored, 409/422 retried as conflicts) behave as before.
 */
class LeanWritesTest {

    private static EmbeddedCluster cluster;
    private static KubernetesClient client;
    private static LeanWrites writes;

    @BeforeAll
    static void startCluster() throws Exception {
        cluster = EmbeddedCluster.start(EmbeddedClusterOptions.defaults());
        client = new KubernetesClientBuilder().withConfig(Config.fromKubeconfig(Files.readString(cluster.kubeconfig()))).build();
        client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName("lean").endMetadata().build()).create();
        writes = new LeanWrites(client);
    }

    @AfterAll
    static void stopCluster() {
        client.close();
        cluster.close();
    }

    @Test
    void createReturnsTheNameTheServerGeneratedAndTheObjectIsStored() {
        Pod pod = new PodBuilder().withNewMetadata().withGenerateName("virt-launcher-a-").withNamespace("lean")
                .addToLabels("kubevirt.io", "virt-launcher").endMetadata()
                .withNewSpec().addNewContainer().withName("compute").withImage("img").endContainer().endSpec().build();

        String name = writes.create(pod);

        assertThat(name).startsWith("virt-launcher-a-").hasSize("virt-launcher-a-".length() + 5);
        Pod stored = client.pods().inNamespace("lean").withName(name).get();
        assertThat(stored.getMetadata().getLabels()).containsEntry("kubevirt.io", "virt-launcher");
        assertThat(stored.getSpec().getContainers()).singleElement().satisfies(c -> assertThat(c.getImage()).isEqualTo("img"));
    }

    @Test
    void createsClusterScopedObjects() {
        Node node = new NodeBuilder().withNewMetadata().withName("lean-node").endMetadata().build();
        assertThat(writes.create(node)).isEqualTo("lean-node");
        assertThat(client.nodes().withName("lean-node").get()).isNotNull();
    }

    @Test
    void aTakenNameIsA409WithTheServersStatus() {
        writes.create(configMap("taken"));
        assertThatThrownBy(() -> writes.create(configMap("taken")))
                .isInstanceOfSatisfying(KubernetesClientException.class, e -> {
                    assertThat(e.getCode()).isEqualTo(409);
                    assertThat(e.getStatus().getReason()).isEqualTo("AlreadyExists");
                    assertThat(ControllerLoop.isWriteConflict(e)).isFalse();
                });
    }

    @ParameterizedTest(name = "{0} patch")
    @CsvSource(delimiter = '|', textBlock = """
            JSON            | [{"op":"add","path":"/data","value":{"k":"v"}}]
            JSON_MERGE      | {"data":{"k":"v"}}
            STRATEGIC_MERGE | {"data":{"k":"v"}}
            """)
    void patchesWithEachPatchType(PatchType type, String patch) {
        String name = "patched-" + type.name().toLowerCase().replace('_', '-');
        writes.create(configMap(name));

        writes.patch(ConfigMap.class, "lean", name, null, type, patch);

        assertThat(client.configMaps().inNamespace("lean").withName(name).get().getData()).containsEntry("k", "v");
    }

    @Test
    void patchesASubresource() {
        Pod pod = new PodBuilder().withNewMetadata().withName("status-pod").withNamespace("lean").endMetadata()
                .withNewSpec().addNewContainer().withName("c").withImage("img").endContainer().endSpec().build();
        writes.create(pod);

        writes.patch(Pod.class, "lean", "status-pod", "status", PatchType.STRATEGIC_MERGE,
                "{\"status\":{\"conditions\":[{\"type\":\"kubevirt.io/virtual-machine-unpaused\",\"status\":\"True\"}]}}");

        assertThat(client.pods().inNamespace("lean").withName("status-pod").get().getStatus().getConditions())
                .anySatisfy(c -> assertThat(c.getType()).isEqualTo("kubevirt.io/virtual-machine-unpaused"));
    }

    @Test
    void aMissingObjectIsA404() {
        assertThatThrownBy(() -> writes.patch(ConfigMap.class, "lean", "nowhere", null, PatchType.JSON_MERGE, "{}"))
                .isInstanceOfSatisfying(KubernetesClientException.class, e -> {
                    assertThat(e.getCode()).isEqualTo(404);
                    assertThat(e.getStatus().getReason()).isEqualTo("NotFound");
                });
    }

    @Test
    void aFailedResourceVersionTestIsAWriteConflict() {
        writes.create(configMap("guarded"));
        String patch = "[{\"op\":\"test\",\"path\":\"/metadata/resourceVersion\",\"value\":\"1\"},"
                + "{\"op\":\"add\",\"path\":\"/data\",\"value\":{\"k\":\"v\"}}]";

        assertThatThrownBy(() -> writes.patch(ConfigMap.class, "lean", "guarded", null, PatchType.JSON, patch))
                .isInstanceOfSatisfying(KubernetesClientException.class, e -> {
                    assertThat(e.getCode()).isEqualTo(422);
                    assertThat(ControllerLoop.isWriteConflict(e)).isTrue();
                });
        assertThat(client.configMaps().inNamespace("lean").withName("guarded").get().getData()).isNullOrEmpty();
    }

    @Test
    void anUnreachableServerIsAClientException() throws Exception {
        Config config = Config.fromKubeconfig(Files.readString(cluster.kubeconfig()));
        config.setMasterUrl("https://127.0.0.1:1");
        config.setRequestRetryBackoffLimit(0);
        try (KubernetesClient offline = new KubernetesClientBuilder().withConfig(config).build()) {
            assertThatThrownBy(() -> new LeanWrites(offline).create(configMap("never")))
                    .isInstanceOf(KubernetesClientException.class);
        }
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            {"kind":"Pod","metadata":{"name":"p-1","labels":{"name":"x"}},"spec":{"name":"y"}} | p-1
            {"spec":{"metadata":{"name":"inner"}},"metadata":{"namespace":"n","name":"outer"}} | outer
            {"metadata":{"generateName":"a-"}}                                                 | ''
            []                                                                                 | ''
            """)
    void readsOnlyTheTopLevelName(String json, String name) {
        assertThat(LeanWrites.metadataName(json.getBytes(StandardCharsets.UTF_8))).isEqualTo(name.isEmpty() ? null : name);
    }

    private static ConfigMap configMap(String name) {
        return new ConfigMapBuilder().withNewMetadata().withName(name).withNamespace("lean").endMetadata().build();
    }
}
