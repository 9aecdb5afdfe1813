package dev.drainboard.app;

import dev.drainboard.cluster.EmbeddedCluster;
import dev.drainboard.cluster.EmbeddedClusterOptions;
import dev.drainboard.controlplane.LocalControlPlane;
import dev.drainboard.hypervisor.DomainState;
import dev.drainboard.kubevirt.api.VirtualMachine;
import dev.drainboard.kubevirt.api.VirtualMachineInstance;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static dev.drainboard.app.OperatorCommandsTest.run;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * {@code drainboard snapshot} of a served cluster, served again, gives the same nodes, VMs and placements: every VMI
 * runs again on the node it ran on (its domain boots there), and no Secret or ConfigMap data is in the copy.
 */
@DisplayName("drainboard snapshot: a served cluster copied and served again keeps its nodes, VMs and placements")
class SnapshotCommandTest {

    private static final Duration WAIT = Duration.ofSeconds(120);
    private static final String NS = "apps";

    @TempDir
    Path dir;

    /** What must survive the copy. */
    record State(Map<String, String> nodes, List<String> vms, Map<String, String> placements) {
    }

    @Test
    void aSnapshotServedAgainHasTheSameNodesVmsAndPlacements() throws Exception {
        Path scenario = dir.resolve("rehearsal.yaml");
        try (InputStream in = getClass().getResourceAsStream("/snapshot/rehearsal.yaml")) {
            Files.write(scenario, in.readAllBytes());
        }
        Path copy = dir.resolve("copy");
        State original;
        try (EmbeddedCluster cluster = EmbeddedCluster.start(EmbeddedClusterOptions.defaults().withScenario(scenario.toString())
                .withPort(0).withKubeconfigOut(dir.resolve("source.kubeconfig")));
             Running running = Running.on(cluster, 5)) {
            // vmi-a2 asked for rack r1, which no node has any more: only its status can bring it back to node-a.
            running.client().nodes().withName("node-a").edit(n -> {
                n.getMetadata().getLabels().remove("rack");
                return n;
            });
            original = running.state();
            assertThat(original.placements()).containsEntry("vm-a", "node-a").containsEntry("vmi-a2", "node-a")
                    .containsEntry("vm-b", "node-b").containsEntry("vmi-b2", "node-b");

            var snapshot = run("snapshot", "--kubeconfig", cluster.kubeconfig().toString(), "-o", copy.toString());
            assertThat(snapshot.exitCode()).as(snapshot.err()).isZero();
            assertThat(snapshot.out()).contains("wrote " + copy + ": 3 nodes, 2 VMs, 5 VMIs",
                    // the app's and KubeVirt's own, one per LiveMigrate VMI
                    "6 PDBs", "1 migration policies",
                    "serve it with: drainboard serve --scenario " + copy);

            // A second snapshot into the same folder is refused, and leaves it as it was.
            var again = run("snapshot", "--kubeconfig", cluster.kubeconfig().toString(), "-o", copy.toString());
            assertThat(again.exitCode()).isEqualTo(1);
            assertThat(again.err()).isEqualTo("drainboard snapshot: " + copy + " is not empty (use --force to replace the scenario files in it)\n");
            var forced = run("snapshot", "--kubeconfig", cluster.kubeconfig().toString(), "-o", copy.toString(), "--force");
            assertThat(forced.exitCode()).as(forced.err()).isZero();
        }

        String written = allText(copy); // the scenario files
        assertThat(written).doesNotContain("s3cr3t", "db-credentials", "do-not-copy-me", "resourceVersion", "managedFields")
                .contains("kind: \"MigrationPolicy\"", "kind: \"PodDisruptionBudget\"", "dedicated");
        assertThat(Files.readString(copy.resolve("README.txt"))).contains("Secrets: never copied", "ConfigMap data");

        try (EmbeddedCluster served = EmbeddedCluster.start(EmbeddedClusterOptions.defaults().withScenario(copy.toString())
                .withPort(0).withKubeconfigOut(dir.resolve("copy.kubeconfig")));
             Running running = Running.on(served, 5)) {
            State copied = running.state();
            assertThat(copied).isEqualTo(original);
            // Restored, not rescheduled: each guest was started again on the node its VMI names.
            for (VirtualMachineInstance vmi : running.vmis()) {
                var hypervisor = served.hypervisors().forNode(vmi.getStatus().getNodeName()).orElseThrow();
                await().atMost(WAIT).until(() -> hypervisor.domain(vmi.getMetadata().getUid())
                        .map(d -> d.state() == DomainState.RUNNING).orElse(false));
            }
            assertThat(running.client().secrets().inNamespace(NS).withName("db-credentials").get()).isNull();
            assertThat(running.client().configMaps().inNamespace(NS).withName("settings").get().getData()).isNullOrEmpty();
        }
    }

    /**
     * Credentials that may list everything but pods (a read-only role someone trimmed): the rest is written, pods are
     * named as missing on stderr and in README.txt, and the exit code is 3.
     */
    @Test
    void writesWhatItMayReadAndNamesWhatItMayNot() throws Exception {
        try (EmbeddedCluster cluster = EmbeddedCluster.start(EmbeddedClusterOptions.defaults().withScenario("demo")
                .withPort(0).withKubeconfigOut(dir.resolve("admin.kubeconfig")));
             KubernetesClient admin = new KubernetesClientBuilder()
                     .withConfig(Config.fromKubeconfig(Files.readString(cluster.kubeconfig()))).build()) {
            admin.resource(io.fabric8.kubernetes.client.utils.Serialization.unmarshal("""
                    {"apiVersion":"v1","kind":"ServiceAccount","metadata":{"name":"auditor","namespace":"default"}}""",
                    io.fabric8.kubernetes.api.model.ServiceAccount.class)).create();
            admin.resource(io.fabric8.kubernetes.client.utils.Serialization.unmarshal("""
                    {"apiVersion":"rbac.authorization.k8s.io/v1","kind":"ClusterRole","metadata":{"name":"no-pods"},
                     "rules":[{"apiGroups":["","apps","policy","storage.k8s.io","kubevirt.io","migrations.kubevirt.io",
                               "instancetype.kubevirt.io","pool.kubevirt.io"],
                               "resources":["namespaces","nodes","persistentvolumes","persistentvolumeclaims","configmaps",
                                 "storageclasses","daemonsets","deployments","replicasets","statefulsets","poddisruptionbudgets",
                                 "kubevirts","virtualmachines","virtualmachineinstances","virtualmachineinstancereplicasets",
                                 "migrationpolicies","virtualmachineinstancetypes","virtualmachineclusterinstancetypes",
                                 "virtualmachinepreferences","virtualmachineclusterpreferences","virtualmachinepools"],
                               "verbs":["get","list"]},
                              {"nonResourceURLs":["/version","/api","/api/*","/apis","/apis/*"],"verbs":["get"]}]}""",
                    io.fabric8.kubernetes.api.model.rbac.ClusterRole.class)).create();
            admin.resource(io.fabric8.kubernetes.client.utils.Serialization.unmarshal("""
                    {"apiVersion":"rbac.authorization.k8s.io/v1","kind":"ClusterRoleBinding","metadata":{"name":"auditor-no-pods"},
                     "roleRef":{"apiGroup":"rbac.authorization.k8s.io","kind":"ClusterRole","name":"no-pods"},
                     "subjects":[{"kind":"ServiceAccount","name":"auditor","namespace":"default"}]}""",
                    io.fabric8.kubernetes.api.model.rbac.ClusterRoleBinding.class)).create();
            String token = admin.serviceAccounts().inNamespace("default").withName("auditor")
                    .tokenRequest(new io.fabric8.kubernetes.api.model.authentication.TokenRequestBuilder().withNewSpec()
                            .withExpirationSeconds(3600L).endSpec().build()).getStatus().getToken();
            Path kubeconfig = dir.resolve("auditor.kubeconfig");
            dev.drainboard.pki.KubeconfigWriter.write(kubeconfig, "auditor", cluster.url(), cluster.caPem(), token);

            Path copy = dir.resolve("partial");
            var run = run("snapshot", "--kubeconfig", kubeconfig.toString(), "-o", copy.toString());
            assertThat(run.exitCode()).as(run.err()).isEqualTo(3);
            assertThat(run.err()).startsWith("drainboard snapshot: could not read pods: forbidden (pods is forbidden: "
                    + "User \"system:serviceaccount:default:auditor\" cannot list resource \"pods\" in API group \"\" at the cluster scope)");
            assertThat(run.out()).contains("4 nodes", "0 pods", "INCOMPLETE, see README.txt");
            assertThat(Files.readString(copy.resolve("README.txt"))).contains("INCOMPLETE", "pods: forbidden");
            assertThat(copy.resolve("10-nodes.yaml")).exists();
            assertThat(copy.resolve("70-pods.yaml")).doesNotExist();
        }
    }

    @Test
    void serveRefusesATimeScaleThatIsNotAPositiveNumber() {
        var run = run("serve", "--port", "0", "--time-scale", "0");
        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.err()).isEqualTo("drainboard serve: --time-scale must be a number above 0 and at most 1000, got '0'\n");
        assertThat(run("serve", "--port", "0", "--time-scale", "fast").exitCode()).isEqualTo(2);
    }

    @Test
    void refusesAnOutputThatIsAFile() throws IOException {
        Path file = Files.writeString(dir.resolve("notes.txt"), "mine");
        var run = run("snapshot", "--kubeconfig", file.toString(), "-o", file.toString());
        assertThat(run.exitCode()).isEqualTo(1);
        assertThat(run.err()).isEqualTo("drainboard snapshot: " + file + " is a file, not a folder\n");
        assertThat(Files.readString(file)).isEqualTo("mine");
    }

    @Test
    void saysWhenTheClusterCannotBeReachedAndWritesNothing() throws Exception {
        Path kubeconfig;
        try (EmbeddedCluster cluster = EmbeddedCluster.start(EmbeddedClusterOptions.defaults().withPort(0)
                .withKubeconfigOut(dir.resolve("gone.kubeconfig")))) {
            kubeconfig = cluster.kubeconfig();
        }
        var run = run("snapshot", "--kubeconfig", kubeconfig.toString(), "-o", dir.resolve("out").toString());
        assertThat(run.exitCode()).isEqualTo(1);
        assertThat(run.err()).startsWith("drainboard snapshot: cannot reach the cluster at https://127.0.0.1:");
        assertThat(dir.resolve("out")).doesNotExist();
    }

    private static String allText(Path folder) throws IOException {
        try (Stream<Path> files = Files.list(folder)) {
            StringBuilder all = new StringBuilder();
            for (Path f : files.filter(f -> f.toString().endsWith(".yaml")).sorted().toList()) {
                all.append(Files.readString(f));
            }
            return all.toString();
        }
    }

    /** A cluster with its control plane, once the expected VMIs run. */
    record Running(LocalControlPlane plane, KubernetesClient client) implements AutoCloseable {

        static Running on(EmbeddedCluster cluster, int vmis) throws IOException {
            Config config = Config.fromKubeconfig(Files.readString(cluster.kubeconfig()));
            LocalControlPlane plane = LocalControlPlane.start(config, cluster.hypervisors(), true);
            KubernetesClient client = new KubernetesClientBuilder().withConfig(config).build();
            Running running = new Running(plane, client);
            await().atMost(WAIT).until(() -> {
                List<VirtualMachineInstance> list = running.vmis();
                return list.size() == vmis && list.stream().allMatch(v -> v.getStatus() != null
                        && "Running".equals(v.getStatus().getPhase()) && v.getStatus().getNodeName() != null);
            });
            return running;
        }

        List<VirtualMachineInstance> vmis() {
            return client.resources(VirtualMachineInstance.class).inNamespace(NS).list().getItems();
        }

        State state() {
            Map<String, String> nodes = new TreeMap<>();
            for (Node n : client.nodes().list().getItems()) {
                nodes.put(n.getMetadata().getName(), new TreeMap<>(n.getMetadata().getLabels()) + " taints="
                        + (n.getSpec().getTaints() == null ? List.of() : n.getSpec().getTaints().stream()
                        .map(t -> t.getKey() + "=" + t.getValue() + ":" + t.getEffect()).toList())
                        + " unschedulable=" + Boolean.TRUE.equals(n.getSpec().getUnschedulable())
                        + " memory=" + n.getStatus().getCapacity().get("memory")
                        + " allocatable=" + n.getStatus().getAllocatable().get("cpu"));
            }
            List<String> vms = client.resources(VirtualMachine.class).inNamespace(NS).list().getItems().stream()
                    .map(v -> v.getMetadata().getName()).sorted().toList();
            Map<String, String> placements = vmis().stream().collect(Collectors.toMap(v -> v.getMetadata().getName(),
                    v -> v.getStatus().getNodeName(), (a, b) -> a, TreeMap::new));
            return new State(nodes, vms, placements);
        }

        @Override
        public void close() {
            client.close();
            plane.close();
        }
    }
}
