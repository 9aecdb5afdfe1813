package dev.drainboard.cluster.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.drainboard.controlplane.LocalControlPlane;
import dev.drainboard.kubevirt.KubeVirtProfile;
import dev.drainboard.kubevirt.api.VirtualMachineInstance;
import dev.drainboard.kubevirt.api.VirtualMachineInstanceMigration;
import dev.drainboard.ops.DrainOptions;
import dev.drainboard.ops.DrainResult;
import dev.drainboard.ops.Ops;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * KubeVirt v1.9's migration priority queue on the twin, set up and checked with the real kubectl: the KubeVirt CR
 * reports {@code observedKubeVirtVersion: v1.9.0}; draining a node of 12 LiveMigrate VMIs creates the 12 VMIMs at once,
 * each with priority {@code system-critical}, while the migration controller runs at most 2 from the node and 5 in the
 * cluster at every moment a watch sees; all succeed. A user's VMIM with a priority is refused with KubeVirt's message.
 */
@DisplayName("KubeVirt ≥ 1.9 priority queue: a 12-VMI node's migrations exist at once, at most 2 per node / 5 per cluster run")
class KubectlPriorityQueueDrainTest {

    private static final Duration WAIT = Duration.ofSeconds(120);
    private static final int VMIS = 12;
    private static final Set<String> NOT_STARTED = Set.of("", "Pending", "Succeeded", "Failed");

    @TempDir
    Path workDir;

    /** Four nodes (all but node01 cordoned, so the VMIs start there), the KubeVirt CR, the namespace. */
    private static final String CLUSTER = """
            apiVersion: v1
            kind: Node
            metadata: {name: node01, labels: {kubernetes.io/hostname: node01}, annotations: {sim.drainboard.dev/link-speed: 64Mi}}
            ---
            apiVersion: v1
            kind: Node
            metadata: {name: node02, labels: {kubernetes.io/hostname: node02}, annotations: {sim.drainboard.dev/link-speed: 64Mi}}
            spec: {unschedulable: true}
            ---
            apiVersion: v1
            kind: Node
            metadata: {name: node03, labels: {kubernetes.io/hostname: node03}, annotations: {sim.drainboard.dev/link-speed: 64Mi}}
            spec: {unschedulable: true}
            ---
            apiVersion: v1
            kind: Node
            metadata: {name: node04, labels: {kubernetes.io/hostname: node04}, annotations: {sim.drainboard.dev/link-speed: 64Mi}}
            spec: {unschedulable: true}
            ---
            apiVersion: v1
            kind: Namespace
            metadata: {name: bench}
            ---
            apiVersion: kubevirt.io/v1
            kind: KubeVirt
            metadata: {name: kubevirt, namespace: kubevirt}
            spec:
              configuration:
                evictionStrategy: LiveMigrate
            """;

    private static String vmi(int i) {
        return """
                apiVersion: kubevirt.io/v1
                kind: VirtualMachineInstance
                metadata: {name: vm%02d, namespace: bench}
                spec:
                  domain:
                    memory: {guest: 128Mi}
                    devices:
                      interfaces: [{name: default, masquerade: {}}]
                  networks: [{name: default, pod: {}}]
                  volumes: [{name: rootdisk, containerDisk: {image: quay.io/containerdisks/alpine:3.20}}]
                """.formatted(i);
    }

    /** The cluster reports KubeVirt v1.9.0, as virt-operator writes it once the install is done. */
    private static void reportVersion(Kubectl kubectl, String version) {
        kubectl.succeed("patch", "kubevirt", "kubevirt", "-n", "kubevirt", "--subresource=status", "--type=merge",
                "-p", "{\"status\":{\"observedKubeVirtVersion\":\"" + version + "\"}}");
    }

    @Test
    @DisplayName("drain of a 12-VMI node: 12 VMIMs at once with priority system-critical, ≤ 2 from the node and ≤ 5 in the cluster running at every moment, all succeed; kubectl get vmim lists them")
    void twelveMigrationsQueuedByPriority() throws Exception {
        try (E2eCluster e2e = E2eCluster.startWithKubectl(null, workDir)) {
            Kubectl kubectl = e2e.kubectl();
            Config config = Config.fromKubeconfig(Files.readString(e2e.cluster().kubeconfig()));
            try (LocalControlPlane plane = LocalControlPlane.start(config, e2e.cluster().hypervisors(), true);
                 KubernetesClient client = new KubernetesClientBuilder().withConfig(config).build();
                 Ops ops = Ops.connect(config)) {
                kubectl.apply(CLUSTER);
                reportVersion(kubectl, "v1.9.0");
                await().atMost(WAIT).until(() -> plane.controllers().orElseThrow().isLeader()
                        && plane.controllers().orElseThrow().clusterConfig().current().profile() == KubeVirtProfile.V1_9
                        && client.admissionRegistration().v1().validatingWebhookConfigurations().withName("virt-api-validator").get() != null);
                StringBuilder vmis = new StringBuilder();
                for (int i = 0; i < VMIS; i++) {
                    vmis.append(i == 0 ? "" : "---\n").append(vmi(i));
                }
                kubectl.apply(vmis.toString());
                await().atMost(WAIT).until(() -> client.resources(VirtualMachineInstance.class).inNamespace("bench").list().getItems()
                        .stream().filter(v -> v.getStatus() != null && "node01".equals(v.getStatus().getNodeName())
                                && "Running".equals(v.getStatus().getPhase()) && v.isMigratable()).count() == VMIS);
                kubectl.succeed("uncordon", "node02", "node03", "node04");

                Observed observed = new Observed();
                try (Watch ignored = client.resources(VirtualMachineInstanceMigration.class).inNamespace("bench").watch(observed)) {
                    DrainResult result = ops.drain("node01", DrainOptions.defaults().withIgnoreDaemonSets(true)
                            .withTimeout(WAIT)).result().get(WAIT.toSeconds() + 30, TimeUnit.SECONDS);
                    assertThat(result.status()).as(result.why()).isEqualTo(DrainResult.Status.DRAINED);
                    await().atMost(WAIT).until(() -> observed.succeeded() == VMIS);
                }
                synchronized (observed) {
                    assertThat(observed.violations).as("every moment the watch saw").isEmpty();
                    assertThat(observed.mostUnfinished).as("the 12 VMIMs existed at once").isEqualTo(VMIS);
                    assertThat(observed.priorities).as("each VMIM's spec.priority").containsOnlyKeys("system-critical");
                    assertThat(observed.priorities.get("system-critical")).hasSize(VMIS);
                    assertThat(observed.mostStartedFromNode).as("the node's two slots were used").isEqualTo(2);
                }
                assertThat(client.resources(VirtualMachineInstance.class).inNamespace("bench").list().getItems())
                        .allSatisfy(v -> assertThat(v.getStatus().getNodeName()).isNotEqualTo("node01"));

                Kubectl.Result listed = kubectl.succeed("get", "vmim", "-n", "bench", "--no-headers",
                        "-o", "custom-columns=NAME:.metadata.name,PRIORITY:.spec.priority,PHASE:.status.phase");
                List<String> rows = listed.stdout().lines().filter(l -> !l.isBlank()).toList();
                assertThat(rows).as(listed.describe()).hasSize(VMIS)
                        .allSatisfy(row -> assertThat(row).matches("kubevirt-evacuation-\\S+\\s+system-critical\\s+Succeeded"));
            }
        }
    }

    @Test
    @DisplayName("VMIMs of one priority created in the same second start in the order they were created, not by name")
    void equalPrioritiesFirstComeFirstServed() throws Exception {
        try (E2eCluster e2e = E2eCluster.startWithKubectl(null, workDir)) {
            Kubectl kubectl = e2e.kubectl();
            Config config = Config.fromKubeconfig(Files.readString(e2e.cluster().kubeconfig()));
            try (LocalControlPlane plane = LocalControlPlane.start(config, e2e.cluster().hypervisors(), true);
                 KubernetesClient client = new KubernetesClientBuilder().withConfig(config).build()) {
                // One migration at a time in the cluster: the others wait in the queue.
                kubectl.apply(CLUSTER.replace("evictionStrategy: LiveMigrate",
                        "evictionStrategy: LiveMigrate\n    migrations: {parallelMigrationsPerCluster: 1}"));
                reportVersion(kubectl, "v1.9.0");
                await().atMost(WAIT).until(() -> plane.controllers().orElseThrow().isLeader()
                        && plane.controllers().orElseThrow().clusterConfig().current().profile() == KubeVirtProfile.V1_9
                        && plane.controllers().orElseThrow().clusterConfig().current().migrations().parallelMigrationsPerCluster() == 1);
                int count = 4;
                StringBuilder vmis = new StringBuilder();
                for (int i = 0; i < count; i++) {
                    vmis.append(i == 0 ? "" : "---\n").append(vmi(i));
                }
                kubectl.apply(vmis.toString());
                await().atMost(WAIT).until(() -> client.resources(VirtualMachineInstance.class).inNamespace("bench").list().getItems()
                        .stream().filter(v -> v.getStatus() != null && "Running".equals(v.getStatus().getPhase()) && v.isMigratable())
                        .count() == count);
                kubectl.succeed("uncordon", "node02", "node03", "node04");

                List<String> started = new java.util.concurrent.CopyOnWriteArrayList<>();
                Watcher<VirtualMachineInstanceMigration> starts = new Watcher<>() {
                    @Override
                    public void eventReceived(Action action, VirtualMachineInstanceMigration m) {
                        String phase = m.getStatus() == null || m.getStatus().getPhase() == null ? "" : m.getStatus().getPhase();
                        if (!NOT_STARTED.contains(phase) && !started.contains(m.getMetadata().getName())) {
                            started.add(m.getMetadata().getName());
                        }
                    }

                    @Override
                    public void onClose(WatcherException cause) {
                    }
                };
                // Names in the reverse of the order of creation: the queue must not go by name.
                List<String> created = new ArrayList<>();
                try (Watch ignored = client.resources(VirtualMachineInstanceMigration.class).inNamespace("bench").watch(starts)) {
                    for (int i = 0; i < count; i++) {
                        String name = "mig-" + (char) ('z' - i);
                        VirtualMachineInstanceMigration m = new VirtualMachineInstanceMigration();
                        m.setMetadata(new io.fabric8.kubernetes.api.model.ObjectMetaBuilder().withName(name).withNamespace("bench").build());
                        m.setSpec(new dev.drainboard.kubevirt.api.VirtualMachineInstanceMigrationSpec("vm%02d".formatted(i)));
                        client.resources(VirtualMachineInstanceMigration.class).resource(m).create();
                        created.add(name);
                    }
                    await().atMost(WAIT).until(() -> started.size() == count);
                }
                assertThat(started).as("the order they started").containsExactlyElementsOf(created);
            }
        }
    }

    @Test
    @DisplayName("kubectl create of a VMIM with spec.priority: refused with KubeVirt's message (only virt-controller may set it)")
    void userPriorityRefused() throws Exception {
        try (E2eCluster e2e = E2eCluster.startWithKubectl(null, workDir)) {
            Kubectl kubectl = e2e.kubectl();
            kubectl.apply(CLUSTER);
            reportVersion(kubectl, "v1.9.0");
            String vmim = """
                    apiVersion: kubevirt.io/v1
                    kind: VirtualMachineInstanceMigration
                    metadata: {name: mine, namespace: bench}
                    spec: {vmiName: vm00, priority: system-critical}
                    """;
            Kubectl.Result refused = kubectl.runWithInput(vmim, "create", "-f", "-");
            assertThat(refused.exitCode()).as(refused.describe()).isNotZero();
            // A 422 with its cause, as virt-api answers it: kubectl prints the cause's field and message.
            assertThat(refused.stderr().strip()).as(refused.describe()).isEqualTo("The request is invalid: "
                    + "spec.migrationPriority: Migration priority queue, only virt-controller is allowed to set priority field");
            assertThat(kubectl.succeed("get", "vmim", "-n", "bench", "-o", "name").stdout()).isBlank();

            // v1.7–v1.8 without the gate: the field exists, the queue does not.
            reportVersion(kubectl, "v1.8.1");
            Kubectl.Result gateOff = kubectl.runWithInput(vmim, "create", "-f", "-");
            assertThat(gateOff.stderr().strip()).as(gateOff.describe()).isEqualTo("The request is invalid: "
                    + "spec.migrationPriority: MigrationPriorityQueue feature gate is not enabled in kubevirt resource");
            // Before v1.7 the field does not exist; no check of it (the VMI's absence is what refuses this one).
            reportVersion(kubectl, "v1.6.0");
            Kubectl.Result noField = kubectl.runWithInput(vmim, "create", "-f", "-");
            assertThat(noField.stderr()).as(noField.describe()).contains("the VMI \"bench/vm00\" does not exist")
                    .doesNotContain("priority");
        }
    }

    /** What a watch on the VMIMs sees, checked at every event. */
    private static final class Observed implements Watcher<VirtualMachineInstanceMigration> {
        final Map<String, VirtualMachineInstanceMigration> latest = new HashMap<>();
        final List<String> violations = new ArrayList<>();
        final Map<String, List<String>> priorities = new HashMap<>();
        int mostUnfinished;
        int mostStartedFromNode;

        @Override
        public synchronized void eventReceived(Action action, VirtualMachineInstanceMigration m) {
            String name = m.getMetadata().getName();
            if (action == Action.DELETED) {
                latest.remove(name);
            } else {
                latest.put(name, m);
                if (!priorities.values().stream().anyMatch(l -> l.contains(name))) {
                    priorities.computeIfAbsent(String.valueOf(m.getSpec().getPriority()), p -> new ArrayList<>()).add(name);
                }
            }
            int unfinished = 0;
            int started = 0;
            Map<String, Integer> fromNode = new HashMap<>();
            for (VirtualMachineInstanceMigration v : latest.values()) {
                String phase = v.getStatus() == null || v.getStatus().getPhase() == null ? "" : v.getStatus().getPhase();
                if (!v.isFinal()) {
                    unfinished++;
                }
                if (!NOT_STARTED.contains(phase)) {
                    started++;
                    String node = v.getMetadata().getAnnotations().get("kubevirt.io/evacuationMigration");
                    fromNode.merge(String.valueOf(node), 1, Integer::sum);
                }
            }
            mostUnfinished = Math.max(mostUnfinished, unfinished);
            int most = fromNode.values().stream().mapToInt(Integer::intValue).max().orElse(0);
            mostStartedFromNode = Math.max(mostStartedFromNode, most);
            if (started > 5 || most > 2) {
                violations.add(started + " running, " + fromNode + " by source node, at " + name + " " + action);
            }
        }

        synchronized int succeeded() {
            return (int) latest.values().stream()
                    .filter(v -> v.getStatus() != null && "Succeeded".equals(v.getStatus().getPhase())).count();
        }

        @Override
        public void onClose(WatcherException cause) {
            if (cause != null) {
                synchronized (this) {
                    violations.add("the watch closed: " + cause.getMessage());
                }
            }
        }
    }
}
