package dev.drainboard.controller.vm;

import dev.drainboard.cluster.EmbeddedCluster;
import dev.drainboard.cluster.EmbeddedClusterOptions;
import dev.drainboard.controlplane.ControlPlane;
import dev.drainboard.handler.NodeHandler;
import dev.drainboard.kubevirt.api.Condition;
import dev.drainboard.kubevirt.api.VirtualMachine;
import dev.drainboard.kubevirt.api.VirtualMachineInstance;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.utils.Serialization;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * VMs with instance types and preferences on the embedded cluster with the whole control plane: the VMI the VM
 * controller creates carries the instance type's memory and CPUs, the launcher pod requests them (so they decide
 * where the VM fits), and a missing or conflicting instance type keeps the VM from starting with KubeVirt's
 * {@code Failure} condition.
 */
class InstancetypeIntegrationTest {

    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final String NS = "default";

    @TempDir
    static Path workDir;
    static EmbeddedCluster cluster;
    static KubernetesClient client;
    static KubernetesClient handlerClient;
    static NodeHandler handler;
    static ControlPlane plane;

    @BeforeAll
    static void start() throws Exception {
        // A copy of a cluster (a rehearsal) can hold a VM whose instance type was not copied: virt-api admitted it
        // where it came from, and scenario objects' references are not looked up again.
        Path scenario = workDir.resolve("copied.yaml");
        Files.writeString(scenario, """
                apiVersion: kubevirt.io/v1
                kind: VirtualMachine
                metadata: {name: orphaned, namespace: default}
                spec:
                  runStrategy: Always
                  instancetype: {name: nosuch}
                  template: {spec: {domain: {devices: {}}}}
                """);
        cluster = EmbeddedCluster.start(EmbeddedClusterOptions.defaults().withScenario(scenario.toString()).withPort(0)
                .withKubeconfigOut(workDir.resolve("kubeconfig")));
        Config config = Config.fromKubeconfig(Files.readString(cluster.kubeconfig()));
        client = new KubernetesClientBuilder().withConfig(config).build();
        handlerClient = new KubernetesClientBuilder().withConfig(config).build();
        handler = new NodeHandler(handlerClient, cluster.hypervisors());
        handler.start();
        plane = ControlPlane.builder(config).withoutLeaderElection().build();
        plane.start();
        client.nodes().resource(new NodeBuilder().withNewMetadata().withName("node01").endMetadata().build()).create();
        await().atMost(WAIT).until(() -> cluster.hypervisors().serves("node01"));
        apply("""
                apiVersion: instancetype.kubevirt.io/v1beta1
                kind: VirtualMachineClusterInstancetype
                metadata: {name: u1.large}
                spec: {cpu: {guest: 4}, memory: {guest: 4Gi}}
                """);
        apply("""
                apiVersion: instancetype.kubevirt.io/v1beta1
                kind: VirtualMachinePreference
                metadata: {name: cores, namespace: default}
                spec: {cpu: {preferredCPUTopology: cores}, preferredTerminationGracePeriodSeconds: 15}
                """);
        apply("""
                apiVersion: instancetype.kubevirt.io/v1beta1
                kind: VirtualMachineInstancetype
                metadata: {name: huge, namespace: default}
                spec: {cpu: {guest: 2}, memory: {guest: 96Gi}}
                """);
    }

    @AfterAll
    static void stop() {
        if (plane != null) {
            plane.close();
        }
        if (handler != null) {
            handler.close();
        }
        if (handlerClient != null) {
            handlerClient.close();
        }
        if (client != null) {
            client.close();
        }
        if (cluster != null) {
            cluster.close();
        }
    }

    private static void apply(String yaml) {
        client.resource(yaml).create();
    }

    private static VirtualMachine vm(String name, String instancetype, String preference, String domain) {
        String refs = (instancetype == null ? "" : "  instancetype: " + instancetype + "\n")
                + (preference == null ? "" : "  preference: " + preference + "\n");
        return client.resources(VirtualMachine.class).inNamespace(NS).resource(Serialization.unmarshal("""
                apiVersion: kubevirt.io/v1
                kind: VirtualMachine
                metadata: {name: %s}
                spec:
                  runStrategy: Always
                %s  template:
                    spec:
                      domain: %s
                      volumes: [{name: root, containerDisk: {image: quay.io/containerdisks/cirros}}]
                """.formatted(name, refs, domain), VirtualMachine.class)).create();
    }

    private static VirtualMachineInstance vmi(String name) {
        return client.resources(VirtualMachineInstance.class).inNamespace(NS).withName(name).get();
    }

    private static Optional<Condition> failure(String vm) {
        VirtualMachine now = client.resources(VirtualMachine.class).inNamespace(NS).withName(vm).get();
        List<Condition> conditions = now.getStatus() == null || now.getStatus().getConditions() == null ? List.of() : now.getStatus().getConditions();
        return conditions.stream().filter(c -> "Failure".equals(c.getType())).findFirst();
    }

    private static BigDecimal bytes(Quantity q) {
        return Quantity.getAmountInBytes(q);
    }

    @Test
    void theInstancetypesMemoryAndCpusReachTheVmiAndTheLauncherPodsRequests() {
        vm("sized", "{name: u1.large}", "{name: cores, kind: VirtualMachinePreference}", "{devices: {}}");

        await().atMost(WAIT).ignoreExceptions().until(() -> "Running".equals(vmi("sized").getStatus().getPhase()));
        VirtualMachineInstance vmi = vmi("sized");
        assertThat(bytes(vmi.getSpec().getDomain().getMemory().getGuest())).isEqualTo(BigDecimal.valueOf(4L << 30));
        assertThat(vmi.getSpec().getDomain().getCpu().getCores()).as("the preference's topology").isEqualTo(4);
        assertThat(vmi.getSpec().getDomain().getCpu().getSockets()).isEqualTo(1);
        assertThat(vmi.getSpec().getTerminationGracePeriodSeconds()).as("the preference's default").isEqualTo(15);
        assertThat(vmi.getMetadata().getAnnotations())
                .containsEntry("kubevirt.io/cluster-instancetype-name", "u1.large")
                .containsEntry("kubevirt.io/preference-name", "cores");

        Pod launcher = client.pods().inNamespace(NS).withLabel("kubevirt.io/created-by", vmi.getMetadata().getUid()).list().getItems().getFirst();
        var requests = launcher.getSpec().getContainers().getFirst().getResources().getRequests();
        assertThat(bytes(requests.get("memory"))).as("guest memory + the launcher's overhead")
                .isEqualTo(BigDecimal.valueOf((4L << 30) + (256L << 20)));
        assertThat(bytes(requests.get("cpu"))).as("100m per vCPU").isEqualByComparingTo(new BigDecimal("0.4"));

        VirtualMachine vm = client.resources(VirtualMachine.class).inNamespace(NS).withName("sized").get();
        assertThat(Serialization.asJson(vm.getStatus())).contains("\"instancetypeRef\":{\"name\":\"u1.large\",\"kind\":\"VirtualMachineClusterInstancetype\"}")
                .contains("\"preferenceRef\":{\"name\":\"cores\",\"kind\":\"VirtualMachinePreference\"}");
        assertThat(failure("sized")).isEmpty();
    }

    @Test
    void anInstancetypeBiggerThanAnyNodeLeavesTheVmiUnschedulable() {
        vm("toobig", "{name: huge, kind: VirtualMachineInstancetype}", null, "{devices: {}}");

        await().atMost(WAIT).ignoreExceptions().until(() -> vmi("toobig").getStatus().getConditions().stream().anyMatch(c -> "PodScheduled".equals(c.getType())
                && "Unschedulable".equals(c.getReason())));
        assertThat(vmi("toobig").getStatus().getConditions()).filteredOn(c -> "PodScheduled".equals(c.getType()))
                .singleElement().satisfies(c -> assertThat(c.getMessage()).contains("Insufficient memory"));
    }

    @Test
    void aMissingInstancetypeIsRefusedByVirtApi() {
        assertThatThrownBy(() -> vm("refused", "{name: nosuch}", null, "{devices: {}}"))
                .isInstanceOf(KubernetesClientException.class)
                .hasMessageContaining("admission webhook \"virtualmachine-validator.kubevirt.io\" denied the request: "
                        + "Failure to find instancetype: virtualmachineclusterinstancetypes.instancetype.kubevirt.io \"nosuch\" not found");
        assertThat(client.resources(VirtualMachine.class).inNamespace(NS).withName("refused").get()).isNull();
    }

    @Test
    void aMissingInstancetypeKeepsTheVmStoppedWithKubeVirtsFailure() {
        await().atMost(WAIT).until(() -> failure("orphaned").isPresent());
        assertThat(failure("orphaned").get().getReason()).isEqualTo("FailedFindInstancetype");
        assertThat(failure("orphaned").get().getMessage())
                .isEqualTo("virtualmachineclusterinstancetypes.instancetype.kubevirt.io \"nosuch\" not found");
        assertThat(vmi("orphaned")).isNull();

        apply("""
                apiVersion: instancetype.kubevirt.io/v1beta1
                kind: VirtualMachineClusterInstancetype
                metadata: {name: nosuch}
                spec: {cpu: {guest: 1}, memory: {guest: 512Mi}}
                """);
        await().atMost(WAIT).until(() -> vmi("orphaned") != null);
        await().atMost(WAIT).until(() -> failure("orphaned").isEmpty());
    }

    @Test
    void aTemplateThatSetsWhatTheInstancetypeSetsIsAConflict() {
        vm("clash", "{name: u1.large}", null, "{devices: {}, memory: {guest: 1Gi}, cpu: {sockets: 2}}");

        await().atMost(WAIT).until(() -> failure("clash").isPresent());
        assertThat(failure("clash").get().getMessage())
                .isEqualTo("VMI conflicts with instancetype spec in fields: [spec.domain.cpu.sockets, spec.domain.memory.guest]");
        assertThat(vmi("clash")).isNull();
        assertThat(client.v1().events().inNamespace(NS).list().getItems()).anySatisfy(e -> {
            assertThat(e.getInvolvedObject().getName()).isEqualTo("clash");
            assertThat(e.getReason()).isEqualTo("FailedCreate");
            assertThat(e.getMessage()).isEqualTo("Error creating virtual machine instance: Failed to apply instancetype: "
                    + "VMI conflicts with instancetype spec in fields: [spec.domain.cpu.sockets, spec.domain.memory.guest]");
        });
    }
}
