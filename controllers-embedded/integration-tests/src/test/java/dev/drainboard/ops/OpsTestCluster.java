package dev.drainboard.ops;

import dev.drainboard.cluster.EmbeddedCluster;
import dev.drainboard.cluster.EmbeddedClusterOptions;
import dev.drainboard.controlplane.LocalControlPlane;
import dev.drainboard.kubevirt.api.VirtualMachineInstance;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import static org.awaitility.Awaitility.await;

/**
 * An embedded cluster with Drainboard's control plane running on it as {@code drainboard serve} runs it (controllers,
 * eviction webhook while leader, node handler of the simulated nodes), and {@link Ops} on it.
 */
final class OpsTestCluster implements AutoCloseable {

    static final Duration WAIT = Duration.ofSeconds(60);

    final EmbeddedCluster cluster;
    final LocalControlPlane plane;
    final KubernetesClient client;
    final Ops ops;

    private OpsTestCluster(EmbeddedCluster cluster) throws Exception {
        this.cluster = cluster;
        Config config = Config.fromKubeconfig(Files.readString(cluster.kubeconfig()));
        this.plane = LocalControlPlane.start(config, cluster.hypervisors(), true);
        this.client = new KubernetesClientBuilder().withConfig(config).build();
        this.ops = Ops.connect(config);
        await().atMost(WAIT).until(() -> plane.controllers().orElseThrow().isLeader()
                && client.admissionRegistration().v1().validatingWebhookConfigurations().withName("virt-api-validator").get() != null);
    }

    /** A cluster seeded from this YAML. */
    static OpsTestCluster start(Path dir, String scenario) throws Exception {
        Path file = dir.resolve("scenario.yaml");
        Files.writeString(file, scenario);
        return new OpsTestCluster(EmbeddedCluster.start(EmbeddedClusterOptions.defaults().withScenario(file.toString())
                .withPort(0).withKubeconfigOut(dir.resolve("kubeconfig"))));
    }

    static OpsTestCluster demo(Path dir) throws Exception {
        return new OpsTestCluster(EmbeddedCluster.start(EmbeddedClusterOptions.defaults().withScenario("demo")
                .withPort(0).withKubeconfigOut(dir.resolve("kubeconfig"))));
    }

    List<Pod> podsOn(String node) {
        return client.pods().inAnyNamespace().withField("spec.nodeName", node).list().getItems();
    }

    Pod pod(String ns, String name) {
        return client.pods().inNamespace(ns).withName(name).get();
    }

    VirtualMachineInstance vmi(String ns, String name) {
        return client.resources(VirtualMachineInstance.class).inNamespace(ns).withName(name).get();
    }

    /** The launcher pod of a running VMI, once it runs and its LiveMigratable condition is reported. */
    Pod awaitRunningLauncher(String ns, String vmiName) {
        await().atMost(WAIT).until(() -> {
            VirtualMachineInstance vmi = vmi(ns, vmiName);
            return vmi != null && vmi.getStatus() != null && "Running".equals(vmi.getStatus().getPhase())
                    && vmi.getStatus().getConditions() != null
                    && vmi.getStatus().getConditions().stream().anyMatch(c -> "LiveMigratable".equals(c.getType()));
        });
        String uid = vmi(ns, vmiName).getMetadata().getUid();
        return client.pods().inNamespace(ns).withLabel("kubevirt.io/created-by", uid).list().getItems().stream()
                .filter(p -> p.getStatus() != null && "Running".equals(p.getStatus().getPhase()))
                .findFirst().orElseThrow();
    }

    @Override
    public void close() {
        ops.close();
        client.close();
        plane.close();
        cluster.close();
    }
}
