package dev.drainboard.handler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.drainboard.cluster.fabric8.Fabric8Cluster;
import dev.drainboard.cluster.hypervisor.SimulatedHypervisors;
import dev.drainboard.hypervisor.DomainState;
import dev.drainboard.hypervisor.Hypervisor;
import dev.drainboard.hypervisor.StopReason;
import dev.drainboard.kubevirt.api.Condition;
import dev.drainboard.kubevirt.api.Conditions;
import dev.drainboard.kubevirt.api.VirtualMachineInstance;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.utils.Serialization;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.time.Duration;

/**
 * The node handler on the embedded cluster. The VMI controller is not part of this test: each VMI is created and
 * moved to Scheduled on a node by hand, as the VMI controller would once its launcher pod is Ready.
 */
class NodeHandlerIntegrationTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(30);
    private static final String NODE = "node01";

    private static Fabric8Cluster cluster;
    private static KubernetesClient client;
    private static NodeHandler handler;

    @BeforeAll
    static void start() throws Exception {
        cluster = Fabric8Cluster.start();
        client = cluster.client();
        cluster.createNode(NODE);
        await().atMost(TIMEOUT).until(() -> cluster.cluster().hypervisors().serves(NODE));
        handler = new NodeHandler(client, cluster.cluster().hypervisors());
        handler.start();
    }

    @AfterAll
    static void stop() {
        handler.close();
        cluster.close();
    }

    @Test
    void scheduledVmisGoRunningWithTheLiveMigratableConditionTheirSpecCalls() {
        String ns = cluster.newNamespace("handler");
        claim(ns, "rwo", "ReadWriteOnce");
        claim(ns, "rwx", "ReadWriteMany");

        schedule(createVmi(ns, "rwo-pvc", "{}", "{}", "[{name: d, persistentVolumeClaim: {claimName: rwo}}]"));
        schedule(createVmi(ns, "rwx-pvc", "{}", "{}", "[{name: d, persistentVolumeClaim: {claimName: rwx}}]"));
        schedule(createVmi(ns, "host-device", "{}", "{hostDevices: [{name: nic, deviceName: vendor.com/nic}]}", "[]"));
        schedule(createVmi(ns, "annotated", "{sim.drainboard.dev/live-migratable: \"false\"}", "{}", "[]"));
        schedule(createVmi(ns, "container-disk", "{}", "{}", "[{name: root, containerDisk: {image: quay.io/containerdisks/fedora}}]"));
        // No interface declared: virt-api gives it the pod network bound by bridge, which does not migrate.
        schedule(client.resources(VirtualMachineInstance.class).resource(Serialization.unmarshal("""
                apiVersion: kubevirt.io/v1
                kind: VirtualMachineInstance
                metadata: {name: bridged, namespace: %s}
                spec: {domain: {devices: {}, memory: {guest: 1Gi}}}
                """.formatted(ns), VirtualMachineInstance.class)).create());

        for (String name : new String[]{"rwo-pvc", "rwx-pvc", "host-device", "annotated", "container-disk", "bridged"}) {
            await().atMost(TIMEOUT).until(() -> "Running".equals(vmi(ns, name).getStatus().getPhase()));
            assertThat(condition(vmi(ns, name), "Ready").getStatus()).as(name + " Ready").isEqualTo("True");
        }
        assertThat(condition(vmi(ns, "rwo-pvc", "LiveMigratable"), "LiveMigratable"))
                .extracting(Condition::getStatus, Condition::getReason, Condition::getMessage)
                .containsExactly("False", "DisksNotLiveMigratable",
                        "cannot migrate VMI: PVC rwo is not shared, live migration requires that all PVCs must be shared (using ReadWriteMany access mode)");
        assertThat(condition(vmi(ns, "host-device", "LiveMigratable"), "LiveMigratable"))
                .extracting(Condition::getStatus, Condition::getReason)
                .containsExactly("False", "HostDeviceNotLiveMigratable");
        assertThat(condition(vmi(ns, "annotated", "LiveMigratable"), "LiveMigratable"))
                .extracting(Condition::getStatus, Condition::getReason)
                .containsExactly("False", "NotMigratable");
        assertThat(condition(vmi(ns, "bridged", "LiveMigratable"), "LiveMigratable"))
                .extracting(Condition::getStatus, Condition::getReason, Condition::getMessage)
                .containsExactly("False", "InterfaceNotLiveMigratable",
                        "cannot migrate VMI which does not use masquerade or a migratable plugin to connect to the pod network");
        assertThat(vmi(ns, "container-disk").isMigratable()).isTrue();
        assertThat(vmi(ns, "rwx-pvc").isMigratable()).isTrue();
        assertThat(vmi(ns, "container-disk").getStatus().getPhaseTransitionTimestamps())
                .extracting(p -> p.getPhase()).contains("Running");
        // Unmodelled fields written by others survive the handler's patches.
        assertThat(vmi(ns, "container-disk").getStatus().getAdditionalProperties()).containsKey("guestOSInfo");

        var domain = cluster.cluster().hypervisors().forNode(NODE).orElseThrow().domain(vmi(ns, "container-disk").getMetadata().getUid());
        assertThat(domain).hasValueSatisfying(d -> {
            assertThat(d.state()).isEqualTo(DomainState.RUNNING);
            assertThat(d.memoryBytes()).isEqualTo(1L << 30);
        });
    }

    @Test
    void theConditionFollowsTheClaimAndTheAnnotation() {
        String ns = cluster.newNamespace("handler-follow");
        schedule(createVmi(ns, "vm", "{}", "{}", "[{name: d, persistentVolumeClaim: {claimName: later}}]"));
        await().atMost(TIMEOUT).until(() -> "Running".equals(vmi(ns, "vm").getStatus().getPhase()));
        assertThat(condition(vmi(ns, "vm"), "LiveMigratable").getMessage()).contains("Unable to determine if PVC later is shared");

        claim(ns, "later", "ReadWriteMany");
        await().atMost(TIMEOUT).until(() -> vmi(ns, "vm").isMigratable());

        client.resources(VirtualMachineInstance.class).inNamespace(ns).withName("vm")
                .patch(PatchContext.of(PatchType.JSON_MERGE), "{\"metadata\":{\"annotations\":{\"sim.drainboard.dev/live-migratable\":\"false\"}}}");
        await().atMost(TIMEOUT).until(() -> "NotMigratable".equals(condition(vmi(ns, "vm"), "LiveMigratable").getReason()));
    }

    @Test
    void aDeletedLauncherPodShutsTheGuestDownAndTheVmiSucceeds() {
        String ns = cluster.newNamespace("handler-shutdown");
        VirtualMachineInstance vmi = createVmi(ns, "vm", "{}", "{}", "[]");
        Pod launcher = launcherPod(ns, vmi);
        schedule(vmi);
        await().atMost(TIMEOUT).until(() -> "Running".equals(vmi(ns, "vm").getStatus().getPhase()));

        client.pods().inNamespace(ns).withName(launcher.getMetadata().getName()).delete();

        await().atMost(TIMEOUT).until(() -> "Succeeded".equals(vmi(ns, "vm").getStatus().getPhase()));
        assertThat(condition(vmi(ns, "vm"), "Ready").getStatus()).isEqualTo("False");
        await().atMost(TIMEOUT).until(() -> client.pods().inNamespace(ns).withName(launcher.getMetadata().getName()).get() == null);
        assertThat(cluster.cluster().hypervisors().forNode(NODE).orElseThrow().domain(vmi.getMetadata().getUid()))
                .hasValueSatisfying(d -> assertThat(d.stopReason()).isEqualTo(StopReason.SHUTDOWN));
        assertThat(client.v1().events().inNamespace(ns).list().getItems())
                .extracting(e -> e.getReason())
                .contains("Created", "Started", "ShuttingDown", "Stopped");
    }

    @Test
    void aCrashedGuestFailsTheVmiAndItsLauncherPodEndsFailedButStays() {
        String ns = cluster.newNamespace("handler-crash");
        VirtualMachineInstance vmi = createVmi(ns, "vm", "{}", "{}", "[]");
        Pod launcher = launcherPod(ns, vmi);
        schedule(vmi);
        await().atMost(TIMEOUT).until(() -> "Running".equals(vmi(ns, "vm").getStatus().getPhase()));

        SimulatedHypervisors.of(cluster.cluster().hypervisors(), NODE).crash(vmi.getMetadata().getUid());

        await().atMost(TIMEOUT).until(() -> "Failed".equals(vmi(ns, "vm").getStatus().getPhase()));
        await().atMost(TIMEOUT).until(() -> "Failed".equals(client.pods().inNamespace(ns).withName(launcher.getMetadata().getName()).get().getStatus().getPhase()));
    }

    @Test
    void aDeletedVmisDomainIsStoppedAndForgotten() {
        String ns = cluster.newNamespace("handler-delete");
        VirtualMachineInstance vmi = schedule(createVmi(ns, "vm", "{}", "{}", "[]"));
        await().atMost(TIMEOUT).until(() -> "Running".equals(vmi(ns, "vm").getStatus().getPhase()));
        Hypervisor node = cluster.cluster().hypervisors().forNode(NODE).orElseThrow();

        client.resources(VirtualMachineInstance.class).inNamespace(ns).withName("vm").delete();

        await().atMost(TIMEOUT).until(() -> node.domain(vmi.getMetadata().getUid()).isEmpty());
    }

    // --- helpers -------------------------------------------------------------------------------------------

    /** A VMI on the pod network by masquerade (as operators declare it), with the given devices besides. */
    private static VirtualMachineInstance createVmi(String ns, String name, String annotations, String devices, String volumes) {
        String withInterface = "{interfaces: [{name: default, masquerade: {}}]" + (devices.equals("{}") ? "}" : ", " + devices.substring(1));
        VirtualMachineInstance vmi = Serialization.unmarshal("""
                apiVersion: kubevirt.io/v1
                kind: VirtualMachineInstance
                metadata: {name: %s, namespace: %s, annotations: %s}
                spec:
                  domain:
                    devices: %s
                    memory: {guest: 1Gi}
                  networks: [{name: default, pod: {}}]
                  volumes: %s
                """.formatted(name, ns, annotations, withInterface, volumes), VirtualMachineInstance.class);
        return client.resources(VirtualMachineInstance.class).resource(vmi).create();
    }

    /**
     * What the VMI controller does once the launcher pod is Ready: Scheduled, on the node (plus a field we do not model).
     * No VMI controller runs here to release the finalizer virt-api adds, so it is dropped: a delete removes the VMI.
     */
    private static VirtualMachineInstance schedule(VirtualMachineInstance vmi) {
        return client.resources(VirtualMachineInstance.class).inNamespace(vmi.getMetadata().getNamespace())
                .withName(vmi.getMetadata().getName())
                .patch(PatchContext.of(PatchType.JSON_MERGE), """
                        {"metadata": {"finalizers": null},
                         "status": {"phase": "Scheduled", "nodeName": "%s", "guestOSInfo": {"name": "Fedora"}}}""".formatted(NODE));
    }

    private static Pod launcherPod(String ns, VirtualMachineInstance vmi) {
        Pod pod = Serialization.unmarshal("""
                apiVersion: v1
                kind: Pod
                metadata:
                  generateName: virt-launcher-%s-
                  namespace: %s
                  labels: {kubevirt.io: virt-launcher, kubevirt.io/created-by: %s}
                  annotations: {kubevirt.io/domain: %s}
                spec:
                  nodeName: %s
                  restartPolicy: Never
                  terminationGracePeriodSeconds: 60
                  containers: [{name: compute, image: quay.io/kubevirt/virt-launcher}]
                """.formatted(vmi.getMetadata().getName(), ns, vmi.getMetadata().getUid(), vmi.getMetadata().getName(), NODE), Pod.class);
        Pod created = client.pods().resource(pod).create();
        await().atMost(TIMEOUT).until(() -> "Running".equals(client.pods().inNamespace(ns).withName(created.getMetadata().getName()).get().getStatus().getPhase()));
        return created;
    }

    private static VirtualMachineInstance vmi(String ns, String name) {
        return client.resources(VirtualMachineInstance.class).inNamespace(ns).withName(name).get();
    }

    private static VirtualMachineInstance vmi(String ns, String name, String awaitCondition) {
        await().atMost(TIMEOUT).until(() -> Conditions.find(vmi(ns, name).getStatus().getConditions(), awaitCondition).isPresent());
        return vmi(ns, name);
    }

    private static Condition condition(VirtualMachineInstance vmi, String type) {
        return Conditions.find(vmi.getStatus().getConditions(), type).orElseThrow();
    }

    private static void claim(String ns, String name, String accessMode) {
        PersistentVolumeClaim claim = Serialization.unmarshal("""
                apiVersion: v1
                kind: PersistentVolumeClaim
                metadata: {name: %s, namespace: %s}
                spec:
                  accessModes: [%s]
                  resources: {requests: {storage: 10Gi}}
                """.formatted(name, ns, accessMode), PersistentVolumeClaim.class);
        client.persistentVolumeClaims().resource(claim).create();
    }
}
