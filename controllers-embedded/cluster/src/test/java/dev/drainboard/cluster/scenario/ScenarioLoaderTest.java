package dev.drainboard.cluster.scenario;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.drainboard.cluster.EmbeddedCluster;
import dev.drainboard.cluster.EmbeddedClusterOptions;
import dev.drainboard.cluster.apiserver.BuiltinResources;
import dev.drainboard.cluster.apiserver.Json;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;

/** Reading scenarios, the errors a bad one gives, and that a bad one never gets served. */
class ScenarioLoaderTest {

    private static final String NAMESPACE = """
            apiVersion: v1
            kind: Namespace
            metadata:
              name: shop
            """;
    private static final String CONFIG_MAP = """
            apiVersion: v1
            kind: ConfigMap
            metadata:
              name: settings
              namespace: shop
            data:
              mode: fast
            """;

    @TempDir
    Path dir;

    @Test
    void readsMultiDocumentYamlSkippingEmptyDocuments() throws Exception {
        var documents = ScenarioLoader.parse("s.yaml", "---\n" + CONFIG_MAP + "---\n---\n" + NAMESPACE);

        assertThat(documents).extracting(d -> d.object().path("kind").asText()).containsExactly("ConfigMap", "Namespace");
        assertThat(documents).extracting(ScenarioDocument::documentNumber).containsExactly(1, 3); // a leading "---" opens the first document
    }

    @Test
    void badYamlNamesTheFileAndTheDocument() {
        String yaml = CONFIG_MAP + "---\napiVersion: v1\nkind: ConfigMap\nmetadata: [unclosed\n";

        assertThatThrownBy(() -> ScenarioLoader.parse("broken.yaml", yaml))
                .isInstanceOf(ScenarioException.class)
                .hasMessageStartingWith("broken.yaml: document 2: invalid YAML: ");
    }

    @Test
    void aDocumentWithoutKindIsRefused() {
        String yaml = NAMESPACE + "---\napiVersion: v1\nmetadata:\n  name: nameless-kind\n";

        assertThatThrownBy(() -> ScenarioLoader.parse("s.yaml", yaml))
                .isInstanceOf(ScenarioException.class)
                .hasMessage("s.yaml: document 2: kind is missing");
    }

    @Test
    void aDocumentThatIsNotAnObjectIsRefused() {
        assertThatThrownBy(() -> ScenarioLoader.parse("s.yaml", "- just\n- a list\n"))
                .isInstanceOf(ScenarioException.class)
                .hasMessage("s.yaml: document 1: expected a Kubernetes object, found array");
    }

    @Test
    void anUnknownKindIsRefusedBeforeAnythingIsCreated() throws Exception {
        Path file = write("unknown.yaml", NAMESPACE + "---\napiVersion: example.com/v1\nkind: Gadget\nmetadata:\n  name: g\n");

        assertThatThrownBy(() -> EmbeddedCluster.start(EmbeddedClusterOptions.defaults().withScenario(file.toString())))
                .isInstanceOf(ScenarioException.class)
                .hasMessageStartingWith(file + ": document 2: unknown kind Gadget in example.com/v1");
    }

    @Test
    void aCustomKindDeclaredByACrdInTheScenarioLoads() throws Exception {
        Path file = write("crd.yaml", """
                apiVersion: example.com/v1
                kind: Gadget
                metadata:
                  name: g
                  namespace: default
                spec:
                  size: 3
                ---
                apiVersion: apiextensions.k8s.io/v1
                kind: CustomResourceDefinition
                metadata:
                  name: gadgets.example.com
                spec:
                  group: example.com
                  scope: Namespaced
                  names: {plural: gadgets, singular: gadget, kind: Gadget, listKind: GadgetList}
                  versions:
                  - name: v1
                    served: true
                    storage: true
                    schema:
                      openAPIV3Schema: {type: object, x-kubernetes-preserve-unknown-fields: true}
                """);

        try (EmbeddedCluster cluster = EmbeddedCluster.start(EmbeddedClusterOptions.defaults().withScenario(file.toString()))) {
            var gadgets = cluster.api().registry().findByApiVersionAndKind("example.com/v1", "Gadget").orElseThrow();
            assertThat(cluster.store().get(gadgets, "default", "g").path("spec").path("size").asInt()).isEqualTo(3);
        }
    }

    @Test
    void scenarioVmisGetVirtApisDefaultsAndChecks() throws Exception {
        Path file = write("vmis.yaml", """
                apiVersion: kubevirt.io/v1
                kind: VirtualMachineInstance
                metadata: {name: plain, namespace: default}
                spec: {domain: {devices: {}, memory: {guest: 1Gi}}}
                ---
                apiVersion: kubevirt.io/v1
                kind: VirtualMachine
                metadata: {name: sized, namespace: default}
                spec:
                  runStrategy: Halted
                  instancetype: {name: copied-from-elsewhere}
                  template: {spec: {domain: {devices: {}}}}
                """);
        try (EmbeddedCluster cluster = EmbeddedCluster.start(EmbeddedClusterOptions.defaults().withScenario(file.toString()))) {
            var vmis = cluster.api().registry().findByKind("kubevirt.io", "VirtualMachineInstance").orElseThrow();
            var vmi = cluster.store().get(vmis, "default", "plain");
            assertThat(vmi.at("/spec/domain/devices/interfaces").toString()).isEqualTo("[{\"name\":\"default\",\"bridge\":{}}]");
            assertThat(vmi.at("/spec/evictionStrategy").asText()).isEqualTo("None");
            var vms = cluster.api().registry().findByKind("kubevirt.io", "VirtualMachine").orElseThrow();
            assertThat(cluster.store().get(vms, "default", "sized")).as("a copy's references are not followed").isNotNull();
        }

        Path bad = write("bad-vmi.yaml", """
                apiVersion: kubevirt.io/v1
                kind: VirtualMachineInstance
                metadata: {name: bad, namespace: default}
                spec: {evictionStrategy: Sometimes, domain: {devices: {}, memory: {guest: 1Gi}}}
                """);
        assertThatThrownBy(() -> EmbeddedCluster.start(EmbeddedClusterOptions.defaults().withScenario(bad.toString())))
                .isInstanceOf(ScenarioException.class)
                .hasMessage(bad + ": document 1 (VirtualMachineInstance bad): admission webhook "
                        + "\"virtualmachineinstances-create-validator.kubevirt.io\" denied the request: "
                        + "spec.evictionStrategy is set with an unrecognized option: Sometimes");
    }

    @Test
    void aKindListLoadsItsItems() throws Exception {
        var documents = ScenarioLoader.parse("list.yaml", """
                apiVersion: v1
                kind: List
                items:
                - apiVersion: v1
                  kind: Namespace
                  metadata: {name: shop}
                - apiVersion: v1
                  kind: ConfigMap
                  metadata: {name: settings, namespace: shop}
                """);

        assertThat(documents).extracting(d -> Json.name(d.object())).containsExactly("shop", "settings");
        assertThat(documents).extracting(ScenarioDocument::documentNumber).containsExactly(1, 1);
    }

    @Test
    void aFolderLoadsEveryYamlFileInDependencyOrder() throws Exception {
        // The ConfigMap's file sorts first, but its namespace is created before it.
        write("a-config.yaml", CONFIG_MAP);
        write("b-namespace.yml", NAMESPACE);
        write("notes.txt", "not a manifest");

        try (EmbeddedCluster cluster = EmbeddedCluster.start(EmbeddedClusterOptions.defaults().withScenario(dir.toString()))) {
            assertThat(cluster.store().get(BuiltinResources.CONFIG_MAPS, "shop", "settings")).isNotNull();
            assertThat(cluster.store().get(BuiltinResources.NAMESPACES, null, "shop")).isNotNull();
        }
    }

    @Test
    void aFolderWithoutManifestsIsRefused() throws Exception {
        write("readme.txt", "nothing here");

        assertThatThrownBy(() -> ScenarioLoader.read(dir.toString()))
                .isInstanceOf(ScenarioException.class)
                .hasMessage(dir + ": the folder holds no .yaml, .yml or .json files");
    }

    @Test
    void aMissingPathIsRefused() {
        assertThatThrownBy(() -> ScenarioLoader.read(dir.resolve("nope.yaml").toString()))
                .isInstanceOf(ScenarioException.class)
                .hasMessageStartingWith(dir.resolve("nope.yaml") + ": no such file or directory");
    }

    @Test
    void aDocumentTheApiRefusesFailsTheStartAndNothingListens() throws Exception {
        write("1-good.yaml", NAMESPACE + "---\n" + CONFIG_MAP);
        write("2-bad.yaml", NAMESPACE.replace("shop", "extra") + "---\n" + CONFIG_MAP);
        int port = freePort();
        Path kubeconfig = dir.resolve("out").resolve("kubeconfig");

        assertThatThrownBy(() -> EmbeddedCluster.start(EmbeddedClusterOptions.defaults()
                .withScenario(dir.toString()).withPort(port).withKubeconfigOut(kubeconfig)))
                .isInstanceOf(ScenarioException.class)
                .hasMessage(dir.resolve("2-bad.yaml") + ": document 2 (ConfigMap settings): configmaps \"settings\" already exists");

        assertThat(kubeconfig).doesNotExist();
        try (ServerSocket socket = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
            assertThat(socket.getLocalPort()).as("the port was never taken").isEqualTo(port);
        }
    }

    @Test
    void anInvalidObjectNamesItsDocument() throws Exception {
        Path file = write("invalid.yaml", NAMESPACE + "---\n" + CONFIG_MAP.replace("name: settings", "name: Not_Valid"));

        assertThatThrownBy(() -> EmbeddedCluster.start(EmbeddedClusterOptions.defaults().withScenario(file.toString())))
                .isInstanceOf(ScenarioException.class)
                .hasMessageStartingWith(file + ": document 2 (ConfigMap Not_Valid): ")
                .hasMessageContaining("Not_Valid");
    }

    static java.util.stream.Stream<org.junit.jupiter.params.provider.Arguments> kubeVirtObjectsWithoutWhatTheirSchemaRequires() {
        return java.util.stream.Stream.of(
                org.junit.jupiter.params.provider.Arguments.of("VirtualMachineInstance", "", "spec: Required value"),
                org.junit.jupiter.params.provider.Arguments.of("VirtualMachineInstance", "spec:\n", "spec: Required value"),
                org.junit.jupiter.params.provider.Arguments.of("VirtualMachineInstance", "spec: none\n",
                        "spec: Invalid value: \"string\": spec in body must be of type object: \"string\""),
                org.junit.jupiter.params.provider.Arguments.of("VirtualMachine", "", "spec: Required value"),
                org.junit.jupiter.params.provider.Arguments.of("VirtualMachine", "spec: {runStrategy: Always}\n",
                        "spec.template: Required value"));
    }

    @org.junit.jupiter.params.ParameterizedTest(name = "{0} {1}")
    @org.junit.jupiter.params.provider.MethodSource
    void kubeVirtObjectsWithoutWhatTheirSchemaRequires(String kind, String spec, String violation) throws Exception {
        Path file = write("vm.yaml", NAMESPACE + "---\napiVersion: kubevirt.io/v1\nkind: " + kind
                + "\nmetadata: {name: vm1, namespace: shop}\n" + spec);
        int port = freePort();
        Path kubeconfig = dir.resolve("out").resolve("kubeconfig");

        assertThatThrownBy(() -> EmbeddedCluster.start(EmbeddedClusterOptions.defaults()
                .withScenario(file.toString()).withPort(port).withKubeconfigOut(kubeconfig)))
                .isInstanceOf(ScenarioException.class)
                .hasMessage(file + ": document 2 (" + kind + " vm1): " + kind + ".kubevirt.io \"vm1\" is invalid: " + violation);

        assertThat(kubeconfig).doesNotExist();
        try (ServerSocket socket = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
            assertThat(socket.getLocalPort()).as("the port was never taken").isEqualTo(port);
        }
    }

    @Test
    void theDemoScenarioLoads() throws Exception {
        try (EmbeddedCluster cluster = EmbeddedCluster.start(EmbeddedClusterOptions.defaults().withScenario("demo"))) {
            assertThat(cluster.store().count(BuiltinResources.NODES)).isPositive();
            assertThat(cluster.store().count(BuiltinResources.PODS)).isPositive();
        }
    }

    private Path write(String name, String content) throws IOException {
        return Files.writeString(dir.resolve(name), content);
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }
}
