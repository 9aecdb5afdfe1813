package dev.drainboard.controlplane;

import dev.drainboard.cluster.EmbeddedCluster;
import dev.drainboard.cluster.EmbeddedClusterOptions;
import dev.drainboard.kubevirt.api.VirtualMachine;
import dev.drainboard.kubevirt.api.VirtualMachineInstance;
import dev.drainboard.runtime.LeaderElection;
import dev.drainboard.testing.KubectlRequirement;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.fabric8.kubernetes.client.utils.Serialization;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** The VMI and VM controllers in a running ControlPlane against the embedded cluster. */
class ControlPlaneTest {

    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final ResourceDefinitionContext VMIS = new ResourceDefinitionContext.Builder()
            .withGroup("kubevirt.io").withVersion("v1").withPlural("virtualmachineinstances").withKind("VirtualMachineInstance")
            .withNamespaced(true).build();

    private static EmbeddedCluster cluster;
    private static KubernetesClient client;
    private static ControlPlane plane;

    @BeforeAll
    static void start() throws Exception {
        cluster = EmbeddedCluster.start(EmbeddedClusterOptions.defaults());
        // A release whose VMI controller keeps EvictionRequested in step with the eviction mark (KubeVirt v1.7+).
        cluster.setKubeVirtVersion("v1.8.0");
        Config config = Config.fromKubeconfig(Files.readString(cluster.kubeconfig()));
        client = new KubernetesClientBuilder().withConfig(config).build();
        TestClusters.node(client, "node01");
        TestClusters.node(client, "node02");
        plane = ControlPlane.builder(config)
                .leaderElection(LeaderElection.Options.defaults().withLeaseName("control-plane-test"))
                .build();
        plane.start();
        await().atMost(WAIT).until(plane::isLeader);
    }

    @AfterAll
    static void stop() {
        plane.close();
        client.close();
        cluster.close();
    }

    private static VirtualMachineInstance vmi(String ns, String name) {
        return client.resources(VirtualMachineInstance.class).inNamespace(ns).withName(name).get();
    }

    private static List<Pod> launcherPods(String ns, String vmiUid) {
        return client.pods().inNamespace(ns).withLabel("kubevirt.io/created-by", vmiUid).list().getItems();
    }

    private static Pod awaitLauncherPod(String ns, String vmiUid) {
        await().atMost(WAIT).until(() -> launcherPods(ns, vmiUid).size() == 1);
        return launcherPods(ns, vmiUid).getFirst();
    }

    private static String phase(String ns, String name) {
        VirtualMachineInstance v = vmi(ns, name);
        return v == null || v.getStatus() == null ? null : v.getStatus().getPhase();
    }

    @Test
    void aVmiGetsItsLauncherPodAndIsScheduledOnceThePodIsReadyKeepingUnknownFields() throws Exception {
        String ns = "vmi-lifecycle";
        TestClusters.namespace(client, ns);
        String yaml = """
                apiVersion: kubevirt.io/v1
                kind: VirtualMachineInstance
                metadata:
                  name: db-01
                  labels: {app: db}
                  annotations:
                    team: storage
                    kubectl.kubernetes.io/last-applied-configuration: "{}"
                spec:
                  evictionStrategy: LiveMigrate
                  schedulerName: bound-by-this-test
                  domain:
                    devices:
                      disks: [{name: root, disk: {bus: virtio}}]
                      interfaces: [{name: default, masquerade: {}}]
                    memory: {guest: 1Gi}
                    firmware: {uuid: 5d307ca9-b3ef-428c-8861-06e72d69f223}
                  networks: [{name: default, pod: {}}]
                  volumes: [{name: root, containerDisk: {image: quay.io/containerdisks/fedora:40}}]
                  hostname: db-01
                  dnsConfig: {nameservers: [10.0.0.10], options: [{name: ndots, value: "2"}]}
                """;
        client.genericKubernetesResources(VMIS).inNamespace(ns)
                .load(new ByteArrayInputStream(yaml.getBytes(StandardCharsets.UTF_8))).create();
        String uid = vmi(ns, "db-01").getMetadata().getUid();

        Pod pod = awaitLauncherPod(ns, uid);
        assertThat(pod.getMetadata().getName()).startsWith("virt-launcher-db-01-");
        assertThat(pod.getMetadata().getLabels()).containsExactlyInAnyOrderEntriesOf(Map.of(
                "app", "db", "kubevirt.io", "virt-launcher", "kubevirt.io/created-by", uid,
                "vm.kubevirt.io/name", "db-01", "vmi.kubevirt.io/id", "db-01"));
        assertThat(pod.getMetadata().getAnnotations()).containsExactlyInAnyOrderEntriesOf(Map.of(
                "kubevirt.io/domain", "db-01", "team", "storage",
                "kubectl.kubernetes.io/default-container", "compute",
                "kubevirt.io/migrationTransportUnix", "true",
                "descheduler.alpha.kubernetes.io/request-evict-only", ""));
        assertThat(pod.getMetadata().getOwnerReferences()).singleElement().satisfies(ref -> {
            assertThat(ref.getKind()).isEqualTo("VirtualMachineInstance");
            assertThat(ref.getUid()).isEqualTo(uid);
            assertThat(ref.getController()).isTrue();
            assertThat(ref.getBlockOwnerDeletion()).isTrue();
        });
        assertThat(pod.getSpec().getTerminationGracePeriodSeconds()).isEqualTo(60L);
        assertThat(pod.getSpec().getRestartPolicy()).isEqualTo("Never");

        await().atMost(WAIT).until(() -> "Scheduling".equals(phase(ns, "db-01")));
        TestClusters.bind(client, pod, "node02");
        await().atMost(WAIT).until(() -> List.of("Scheduled", "Running").contains(phase(ns, "db-01")));

        VirtualMachineInstance scheduled = vmi(ns, "db-01");
        assertThat(scheduled.getStatus().getNodeName()).isEqualTo("node02");
        assertThat(scheduled.getMetadata().getLabels()).containsEntry("kubevirt.io/nodeName", "node02");
        assertThat(scheduled.getMetadata().getFinalizers()).contains("kubevirt.io/foregroundDeleteVirtualMachine");
        assertThat(scheduled.getStatus().getPhaseTransitionTimestamps()).extracting(t -> t.getPhase())
                .startsWith("Pending", "Scheduling", "Scheduled");
        Pod running = client.pods().inNamespace(ns).withName(pod.getMetadata().getName()).get();
        assertThat(running.getStatus().getConditions()).anySatisfy(c -> {
            assertThat(c.getType()).isEqualTo("kubevirt.io/virtual-machine-unpaused");
            assertThat(c.getStatus()).isEqualTo("True");
        });

        // Fields the model does not know went through every patch untouched.
        GenericKubernetesResource raw = client.genericKubernetesResources(VMIS).inNamespace(ns).withName("db-01").get();
        Map<String, Object> spec = raw.get("spec");
        // (KubeVirt fields Drainboard's model does not have: an invented field would be pruned by KubeVirt's schema.)
        assertThat(spec).containsEntry("hostname", "db-01");
        assertThat(Serialization.asJson(spec.get("dnsConfig"))).contains("10.0.0.10", "ndots");
        assertThat(spec).containsKeys("networks", "volumes");
        assertThat(Serialization.asJson(raw.get("spec", "domain"))).contains("\"firmware\"", "\"disks\"", "virtio");
        assertThat(raw.getMetadata().getAnnotations()).containsEntry("kubectl.kubernetes.io/last-applied-configuration", "{}");

        // Marked for eviction → EvictionRequested; unmarked → gone.
        client.resources(VirtualMachineInstance.class).inNamespace(ns).withName("db-01").patch(
                io.fabric8.kubernetes.client.dsl.base.PatchContext.of(io.fabric8.kubernetes.client.dsl.base.PatchType.JSON),
                "[{\"op\":\"add\",\"path\":\"/status/evacuationNodeName\",\"value\":\"node02\"}]");
        await().atMost(WAIT).untilAsserted(() -> assertThat(vmi(ns, "db-01").getStatus().getConditions())
                .anySatisfy(c -> {
                    assertThat(c.getType()).isEqualTo("EvictionRequested");
                    assertThat(c.getReason()).isEqualTo("EvictionRequested");
                    assertThat(c.getMessage()).isEqualTo("VMI is marked for eviction");
                }));
        client.resources(VirtualMachineInstance.class).inNamespace(ns).withName("db-01").patch(
                io.fabric8.kubernetes.client.dsl.base.PatchContext.of(io.fabric8.kubernetes.client.dsl.base.PatchType.JSON),
                "[{\"op\":\"remove\",\"path\":\"/status/evacuationNodeName\"}]");
        await().atMost(WAIT).untilAsserted(() -> assertThat(
                java.util.Objects.requireNonNullElse(vmi(ns, "db-01").getStatus().getConditions(), List.<dev.drainboard.kubevirt.api.Condition>of()))
                .noneSatisfy(c -> assertThat(c.getType()).isEqualTo("EvictionRequested")));

        // The controller's events, as kubectl shows them.
        await().atMost(WAIT).untilAsserted(() -> assertThat(client.v1().events().inNamespace(ns).list().getItems())
                .anySatisfy(e -> {
                    assertThat(e.getReason()).isEqualTo("SuccessfulCreate");
                    assertThat(e.getMessage()).isEqualTo("Created virtual machine pod " + pod.getMetadata().getName());
                    assertThat(e.getInvolvedObject().getKind()).isEqualTo("VirtualMachineInstance");
                    assertThat(e.getSource().getComponent()).isEqualTo("virtualmachine-controller");
                }));
        Optional<Path> kubectl = KubectlRequirement.ifInstalled();
        if (kubectl.isPresent()) {
            Process p = new ProcessBuilder(kubectl.get().toString(), "--kubeconfig=" + cluster.kubeconfig(), "-n", ns, "get", "events")
                    .redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
            assertThat(out).contains("SuccessfulCreate", "virtualmachineinstance/db-01",
                    "Created virtual machine pod " + pod.getMetadata().getName());
        }

        // Deleting the VMI deletes its pod; the finalizer goes once the pod is gone.
        client.resources(VirtualMachineInstance.class).inNamespace(ns).withName("db-01").delete();
        await().atMost(WAIT).until(() -> vmi(ns, "db-01") == null && launcherPods(ns, uid).isEmpty());
        assertThat(client.v1().events().inNamespace(ns).list().getItems()).extracting(Event::getMessage)
                .contains("Deleted virtual machine pod " + pod.getMetadata().getName());
    }

    private static void createVm(String ns, String name, String runStrategy) {
        String yaml = """
                apiVersion: kubevirt.io/v1
                kind: VirtualMachine
                metadata: {name: %s}
                spec:
                  runStrategy: %s
                  template:
                    metadata:
                      labels: {app: %s}
                    spec:
                      evictionStrategy: None
                      schedulerName: bound-by-this-test
                      networks:
                      - name: default
                        pod: {}
                      domain:
                        devices:
                          interfaces:
                          - name: default
                            masquerade: {}
                        resources: {requests: {memory: 512Mi}}
                """.formatted(name, runStrategy, name);
        client.resources(VirtualMachine.class).inNamespace(ns)
                .load(new ByteArrayInputStream(yaml.getBytes(StandardCharsets.UTF_8))).create();
    }

    /** Waits for the VM's VMI and its pod, binds the pod, and waits until the VMI is Scheduled (or Running). */
    private static VirtualMachineInstance awaitScheduledVmi(String ns, String name, String node, String notUid) throws Exception {
        await().atMost(WAIT).until(() -> {
            VirtualMachineInstance v = vmi(ns, name);
            return v != null && !v.getMetadata().getUid().equals(notUid);
        });
        VirtualMachineInstance v = vmi(ns, name);
        Pod pod = awaitLauncherPod(ns, v.getMetadata().getUid());
        TestClusters.bind(client, pod, node);
        await().atMost(WAIT).until(() -> List.of("Scheduled", "Running").contains(phase(ns, name)));
        return vmi(ns, name);
    }

    @Test
    void deletingAVmRemovesItsVmiAndPods() throws Exception {
        String ns = "vm-delete";
        TestClusters.namespace(client, ns);
        createVm(ns, "web", "Always");
        VirtualMachineInstance v = awaitScheduledVmi(ns, "web", "node01", null);
        assertThat(v.getMetadata().getOwnerReferences()).singleElement()
                .satisfies(ref -> assertThat(ref.getKind()).isEqualTo("VirtualMachine"));
        await().atMost(WAIT).untilAsserted(() -> {
            VirtualMachine vm = client.resources(VirtualMachine.class).inNamespace(ns).withName("web").get();
            assertThat(vm.getStatus().getCreated()).isTrue();
            assertThat(vm.getStatus().getRunStrategy()).isEqualTo("Always");
            assertThat(vm.getStatus().getPrintableStatus()).isIn("Starting", "Running");
        });

        client.resources(VirtualMachine.class).inNamespace(ns).withName("web").delete();

        await().atMost(WAIT).until(() -> client.resources(VirtualMachine.class).inNamespace(ns).withName("web").get() == null
                && vmi(ns, "web") == null
                && client.pods().inNamespace(ns).list().getItems().isEmpty());
    }

    @Test
    void aVmWithRunStrategyAlwaysGetsANewVmiAfterItsPodIsEvicted() throws Exception {
        String ns = "vm-evicted";
        TestClusters.namespace(client, ns);
        createVm(ns, "app", "Always");
        VirtualMachineInstance first = awaitScheduledVmi(ns, "app", "node01", null);
        Pod pod = launcherPods(ns, first.getMetadata().getUid()).getFirst();

        assertThat(client.pods().inNamespace(ns).withName(pod.getMetadata().getName()).evict()).isTrue();

        VirtualMachineInstance second = awaitScheduledVmi(ns, "app", "node02", first.getMetadata().getUid());
        assertThat(second.getMetadata().getUid()).isNotEqualTo(first.getMetadata().getUid());
        assertThat(second.getStatus().getNodeName()).isEqualTo("node02");
        assertThat(client.v1().events().inNamespace(ns).list().getItems()).extracting(Event::getMessage)
                .contains("Started the virtual machine by creating the new virtual machine instance app",
                        "Stopped the virtual machine by deleting the virtual machine instance " + first.getMetadata().getUid());
    }

    /**
     * A cluster without KubeVirt's newer CRDs (instancetype.kubevirt.io here, deleted): the controllers keep running
     * (their informers for those kinds wait for discovery to list them) and VMs start as ever.
     */
    @Test
    void withoutTheInstancetypeCrdsVmsStart() {
        String ns = "no-instancetype-crd";
        TestClusters.namespace(client, ns);
        for (String plural : List.of("virtualmachineinstancetypes", "virtualmachineclusterinstancetypes",
                "virtualmachinepreferences", "virtualmachineclusterpreferences")) {
            client.apiextensions().v1().customResourceDefinitions().withName(plural + ".instancetype.kubevirt.io").delete();
        }
        await().atMost(WAIT).until(() -> client.apiextensions().v1().customResourceDefinitions().list().getItems().stream()
                .noneMatch(crd -> crd.getSpec().getGroup().equals("instancetype.kubevirt.io")));

        client.resource("""
                apiVersion: kubevirt.io/v1
                kind: VirtualMachine
                metadata: {name: plain, namespace: %s}
                spec:
                  runStrategy: Always
                  template:
                    spec:
                      domain: {devices: {}, memory: {guest: 128Mi}}
                """.formatted(ns)).create();

        await().atMost(WAIT).until(() -> vmi(ns, "plain") != null);
    }
}
