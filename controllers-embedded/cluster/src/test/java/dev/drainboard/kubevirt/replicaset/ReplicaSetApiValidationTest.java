package dev.drainboard.kubevirt.replicaset;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.drainboard.cluster.EmbeddedCluster;
import dev.drainboard.cluster.EmbeddedClusterOptions;
import dev.drainboard.kubevirt.api.VirtualMachineInstanceReplicaSet;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.utils.Serialization;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

/** The embedded API server refuses bad VMIRS creates and updates with 422 Invalid, as KubeVirt's webhook does, and stores nothing. */
@DisplayName("embedded API server: VMIRS validation on create and update")
class ReplicaSetApiValidationTest {

    @TempDir
    static Path dir;
    static EmbeddedCluster cluster;
    static KubernetesClient client;

    @BeforeAll
    static void start() throws Exception {
        cluster = EmbeddedCluster.start(EmbeddedClusterOptions.defaults().withKubeconfigOut(dir.resolve("kubeconfig")));
        client = new KubernetesClientBuilder().withConfig(Config.fromKubeconfig(Files.readString(cluster.kubeconfig()))).build();
    }

    @AfterAll
    static void stop() {
        client.close();
        cluster.close();
    }

    static VirtualMachineInstanceReplicaSet set(String name, String spec) {
        return Serialization.unmarshal("""
                apiVersion: kubevirt.io/v1
                kind: VirtualMachineInstanceReplicaSet
                metadata: {name: %s, namespace: default}
                spec:
                %s
                """.formatted(name, spec.indent(2)), VirtualMachineInstanceReplicaSet.class);
    }

    static final String VALID = """
            replicas: 2
            selector: {matchLabels: {app: web}}
            template: {metadata: {labels: {app: web}}, spec: {networks: [{name: default, pod: {}}], domain: {devices: {interfaces: [{name: default, masquerade: {}}]}, memory: {guest: 128Mi}}}}
            """;

    private static KubernetesClientException refused(Runnable write) {
        try {
            write.run();
        } catch (KubernetesClientException e) {
            return e;
        }
        throw new AssertionError("the write was accepted");
    }

    @Test
    @DisplayName("create with a selector that does not match the template labels: 422, one cause, nothing stored")
    void createMismatch() {
        KubernetesClientException e = refused(() -> client.resources(VirtualMachineInstanceReplicaSet.class)
                .resource(set("mismatch", "selector: {matchLabels: {app: web}}\ntemplate: {metadata: {labels: {app: db}}}")).create());
        assertThat(e.getCode()).isEqualTo(422);
        assertThat(e.getStatus().getReason()).isEqualTo("Invalid");
        assertThat(e.getStatus().getMessage()).isEqualTo("VirtualMachineInstanceReplicaSet.kubevirt.io \"mismatch\" is invalid: "
                + "spec.selector: Invalid value: \"app=web\": selector does not match labels. (template labels: app=db)");
        assertThat(e.getStatus().getDetails().getCauses()).singleElement()
                .satisfies(c -> assertThat(c.getField()).isEqualTo("spec.selector"));
        assertThat(client.resources(VirtualMachineInstanceReplicaSet.class).inNamespace("default").withName("mismatch").get()).isNull();
    }

    @Test
    @DisplayName("create with negative replicas and a mismatched selector: every problem listed")
    void createSeveral() {
        KubernetesClientException e = refused(() -> client.resources(VirtualMachineInstanceReplicaSet.class)
                .resource(set("several", "replicas: -2\nselector: {matchLabels: {app: web}}\ntemplate: {metadata: {labels: {app: db}}}")).create());
        assertThat(e.getCode()).isEqualTo(422);
        assertThat(e.getStatus().getMessage()).startsWith("VirtualMachineInstanceReplicaSet.kubevirt.io \"several\" is invalid: [")
                .contains("spec.replicas: Invalid value: -2: must be greater than or equal to 0",
                        "spec.selector: Invalid value: \"app=web\": selector does not match labels. (template labels: app=db)");
    }

    @Test
    @DisplayName("create without a template: KubeVirt's CRD schema refuses it before virt-api's webhook would")
    void createWithoutTemplate() {
        KubernetesClientException e = refused(() -> client.resources(VirtualMachineInstanceReplicaSet.class)
                .resource(set("no-template", "replicas: -2\nselector: {matchLabels: {app: web}}")).create());
        assertThat(e.getCode()).isEqualTo(422);
        assertThat(e.getStatus().getMessage()).isEqualTo(
                "VirtualMachineInstanceReplicaSet.kubevirt.io \"no-template\" is invalid: spec.template: Required value");
    }

    @Test
    @DisplayName("updates and patches that break a stored set are refused; the stored set is unchanged; status writes are not checked")
    void updates() {
        client.resources(VirtualMachineInstanceReplicaSet.class).resource(set("kept", VALID)).create();
        var resource = client.resources(VirtualMachineInstanceReplicaSet.class).inNamespace("default").withName("kept");
        KubernetesClientException patch = refused(() -> resource.patch(PatchContext.of(PatchType.JSON_MERGE),
                "{\"spec\":{\"template\":{\"metadata\":{\"labels\":{\"app\":\"other\"}}}}}"));
        assertThat(patch.getCode()).isEqualTo(422);
        KubernetesClientException noTemplate = refused(() -> resource.patch(PatchContext.of(PatchType.JSON_MERGE), "{\"spec\":{\"template\":null}}"));
        // KubeVirt's CRD schema answers these before virt-api's webhook is asked.
        assertThat(noTemplate.getStatus().getMessage()).endsWith("spec.template: Required value");
        KubernetesClientException text = refused(() -> resource.patch(PatchContext.of(PatchType.JSON_MERGE), "{\"spec\":{\"replicas\":\"three\"}}"));
        assertThat(text.getStatus().getMessage()).endsWith(
                "spec.replicas: Invalid value: \"string\": spec.replicas in body must be of type integer: \"string\"");
        KubernetesClientException scale = refused(() -> resource.scale(-1));
        assertThat(scale.getCode()).isEqualTo(422);

        VirtualMachineInstanceReplicaSet stored = resource.get();
        assertThat(stored.getSpec().getReplicas()).isEqualTo(2);
        assertThat(stored.getSpec().getTemplate().getMetadata().getLabels()).containsEntry("app", "web");

        resource.subresource("status").patch(PatchContext.of(PatchType.JSON_MERGE), "{\"status\":{\"replicas\":1}}");
        assertThat(resource.get().getStatus().getReplicas()).isEqualTo(1);
        resource.scale(4);
        assertThat(resource.get().getSpec().getReplicas()).isEqualTo(4);
    }

    @Test
    @DisplayName("a scenario with an invalid set is refused as a whole")
    void scenario() throws Exception {
        Path file = dir.resolve("bad-scenario.yaml");
        Files.writeString(file, """
                apiVersion: kubevirt.io/v1
                kind: VirtualMachineInstanceReplicaSet
                metadata: {name: broken, namespace: default}
                spec:
                  selector: {matchLabels: {app: web}}
                """);
        assertThatThrownBy(() -> EmbeddedCluster.start(EmbeddedClusterOptions.defaults().withScenario(file.toString())))
                .hasMessageEndingWith("spec.template: Required value");
    }
}
