package dev.drainboard.controller.maintenance;

import static org.awaitility.Awaitility.await;

import dev.drainboard.cluster.EmbeddedCluster;
import dev.drainboard.cluster.EmbeddedClusterOptions;
import dev.drainboard.controlplane.ControlPlane;
import dev.drainboard.controlplane.LocalControlPlane;
import dev.drainboard.handler.NodeHandler;
import dev.drainboard.kubevirt.KubeVirtProfile;
import dev.drainboard.kubevirt.api.KubeVirt;
import dev.drainboard.kubevirt.api.VirtualMachineInstance;
import dev.drainboard.kubevirt.api.VirtualMachineInstanceMigration;
import dev.drainboard.maintenance.MaintenancePlan;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import io.fabric8.kubernetes.client.utils.Serialization;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The embedded cluster with the whole control plane, as {@code drainboard serve} runs it (the controllers, without
 * leader election, and the simulated nodes' handler), a KubeVirt CR of a given release, nodes and VMIs; it counts
 * how often each node is cordoned.
 */
final class MaintenanceTestCluster implements AutoCloseable {

    static final Duration WAIT = Duration.ofSeconds(120);

    final EmbeddedCluster cluster;
    final KubernetesClient client;
    ControlPlane plane;
    private final Config config;
    final NodeHandler handler;
    private final KubernetesClient handlerClient;
    private final Watch nodeWatch;
    /** How many times each node went from schedulable to cordoned. */
    final Map<String, Integer> cordons = new ConcurrentHashMap<>();
    private final Map<String, Boolean> unschedulable = new ConcurrentHashMap<>();
    /** The most nodes cordoned at one time (as this watch saw them, in order). */
    final java.util.concurrent.atomic.AtomicInteger mostCordoned = new java.util.concurrent.atomic.AtomicInteger();

    MaintenanceTestCluster(Path workDir) throws Exception {
        this(workDir, null);
    }

    /** With the executor's actions wrapped by {@code actions} (null: as they are). */
    MaintenanceTestCluster(Path workDir, java.util.function.UnaryOperator<MaintenanceActions> actions) throws Exception {
        this(workDir, null, actions);
    }

    /** Started with a scenario ({@code serve --scenario}: a built-in name or a file; null: empty). */
    MaintenanceTestCluster(Path workDir, String scenario, java.util.function.UnaryOperator<MaintenanceActions> actions) throws Exception {
        cluster = EmbeddedCluster.start(EmbeddedClusterOptions.defaults().withScenario(scenario).withPort(0)
                .withKubeconfigOut(workDir.resolve("kubeconfig")));
        config = Config.fromKubeconfig(Files.readString(cluster.kubeconfig()));
        client = new KubernetesClientBuilder().withConfig(config).build();
        handlerClient = new KubernetesClientBuilder().withConfig(config).build();
        handler = new NodeHandler(handlerClient, cluster.hypervisors());
        handler.start();
        ControlPlane.Builder builder = ControlPlane.builder(LocalControlPlane.asVirtController(config)).withoutLeaderElection();
        if (actions != null) {
            builder.maintenanceActions(actions);
        }
        plane = builder.build();
        plane.start();
        nodeWatch = client.nodes().watch(new Watcher<>() {
            @Override
            public void eventReceived(Action action, Node node) {
                boolean now = node.getSpec() != null && Boolean.TRUE.equals(node.getSpec().getUnschedulable());
                Boolean was = unschedulable.put(node.getMetadata().getName(), now);
                if (now && !Boolean.TRUE.equals(was)) {
                    cordons.merge(node.getMetadata().getName(), 1, Integer::sum);
                }
                int cordoned = (int) unschedulable.values().stream().filter(Boolean::booleanValue).count();
                mostCordoned.accumulateAndGet(cordoned, Math::max);
            }

            @Override
            public void onClose(WatcherException cause) {
            }
        });
    }

    /** The controllers stopped and started again (a new leader): what they had in memory is gone. */
    void restartControllers() {
        plane.close();
        plane = ControlPlane.builder(LocalControlPlane.asVirtController(config)).withoutLeaderElection().build();
        plane.start();
    }

    void node(String name) {
        client.nodes().resource(new NodeBuilder().withNewMetadata().withName(name).endMetadata().build()).create();
        await().atMost(WAIT).until(() -> cluster.hypervisors().serves(name));
    }

    /** A KubeVirt CR whose status reports {@code version}; returns once the controllers run that release's profile. */
    void kubeVirtVersion(String version, KubeVirtProfile expected) {
        KubeVirt kv = Serialization.unmarshal("""
                apiVersion: kubevirt.io/v1
                kind: KubeVirt
                metadata: {name: kubevirt, namespace: kubevirt}
                spec: {}
                """, KubeVirt.class);
        client.resources(KubeVirt.class).resource(kv).create();
        client.resources(KubeVirt.class).inNamespace("kubevirt").withName("kubevirt").subresource("status")
                .patch(io.fabric8.kubernetes.client.dsl.base.PatchContext.of(io.fabric8.kubernetes.client.dsl.base.PatchType.JSON_MERGE),
                        "{\"status\":{\"observedKubeVirtVersion\":\"" + version + "\"}}");
        await().atMost(WAIT).until(() -> plane.clusterConfig().current().profile() == expected);
    }

    /** A running VMI (container disk, {@code memory} guest, strategy LiveMigrate). */
    void createVmi(String name, String memory) {
        VirtualMachineInstance vmi = Serialization.unmarshal("""
                apiVersion: kubevirt.io/v1
                kind: VirtualMachineInstance
                metadata: {name: %s, namespace: default}
                spec:
                  evictionStrategy: LiveMigrate
                  networks:
                  - name: default
                    pod: {}
                  domain:
                    devices:
                      interfaces:
                      - name: default
                        masquerade: {}
                    memory: {guest: %s}
                  volumes: [{name: root, containerDisk: {image: quay.io/containerdisks/cirros}}]
                """.formatted(name, memory), VirtualMachineInstance.class);
        client.resources(VirtualMachineInstance.class).resource(vmi).create();
    }

    VirtualMachineInstance vmi(String name) {
        return client.resources(VirtualMachineInstance.class).inNamespace("default").withName(name).get();
    }

    void awaitRunningMigratable(String name) {
        await().atMost(WAIT).until(() -> {
            VirtualMachineInstance v = vmi(name);
            return v != null && v.getStatus() != null && "Running".equals(v.getStatus().getPhase()) && v.isMigratable();
        });
    }

    List<VirtualMachineInstanceMigration> migrations() {
        return client.resources(VirtualMachineInstanceMigration.class).inNamespace("default").list().getItems();
    }

    MaintenancePlan plan(String name) {
        return client.resources(MaintenancePlan.class).withName(name).get();
    }

    MaintenancePlan create(MaintenancePlan plan) {
        return client.resources(MaintenancePlan.class).resource(plan).create();
    }

    @Override
    public void close() {
        nodeWatch.close();
        plane.close();
        handler.close();
        handlerClient.close();
        client.close();
        cluster.close();
    }
}
