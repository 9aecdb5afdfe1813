package dev.drainboard.ops;

import dev.drainboard.kubevirt.KubeVirtValues;
import dev.drainboard.kubevirt.api.KubeVirt;
import dev.drainboard.kubevirt.api.VirtualMachine;
import dev.drainboard.kubevirt.api.MigrationPolicy;
import dev.drainboard.kubevirt.api.VirtualMachineInstance;
import dev.drainboard.kubevirt.api.VirtualMachineInstanceMigration;
import dev.drainboard.kubevirt.config.ClusterConfig;
import dev.drainboard.kubevirt.config.VirtControllerImage;
import dev.drainboard.kubevirt.config.InvalidClusterConfigException;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Function;

/** Reads what a {@link DrainPreview} needs from the API: one list per kind and namespace concerned. */
final class ClusterReads {

    private ClusterReads() {
    }

    static DrainInputs read(KubernetesClient client, NodeOps nodes, String node, DrainOptions options) {
        // The reads go out side by side (a drain starts that many round trips sooner); the node's absence is reported
        // before anything else.
        try (ExecutorService reads = Executors.newVirtualThreadPerTaskExecutor()) {
            Future<?> nodeRead = reads.submit(() -> nodes.get(node));
            Future<List<Pod>> podRead = reads.submit(() -> podsOn(client, node, options));
            Future<ClusterConfig> configRead = reads.submit(() -> clusterConfig(client));
            await(nodeRead);
            List<Pod> pods = await(podRead);
            TreeSet<String> namespaces = new TreeSet<>();
            pods.forEach(p -> namespaces.add(p.getMetadata().getNamespace()));
            Future<List<VirtualMachineInstance>> vmis = reads.submit(() -> perNamespace(namespaces,
                    ns -> client.resources(VirtualMachineInstance.class).inNamespace(ns).list().getItems()));
            Future<List<VirtualMachine>> vms = reads.submit(() -> perNamespace(namespaces,
                    ns -> client.resources(VirtualMachine.class).inNamespace(ns).list().getItems()));
            Future<List<PodDisruptionBudget>> budgets = reads.submit(() -> perNamespace(namespaces,
                    ns -> client.policy().v1().podDisruptionBudget().inNamespace(ns).list().getItems()));
            Future<List<VirtualMachineInstanceMigration>> migrations = reads.submit(() -> perNamespace(namespaces,
                    ns -> client.resources(VirtualMachineInstanceMigration.class).inNamespace(ns).list().getItems()));
            return new DrainInputs(node, pods, await(vmis), await(vms), await(budgets), await(configRead), options, Instant.now(),
                    await(migrations));
        }
    }

    /** Each node's inputs, then every node and pod of the cluster for the placement check. */
    static List<DrainInputs> readEach(KubernetesClient client, NodeOps nodes, List<String> names, DrainOptions options) {
        List<DrainInputs> perNode = new ArrayList<>();
        for (String name : names) {
            perNode.add(read(client, nodes, name, options));
        }
        return perNode;
    }

    static PlacementInputs placement(KubernetesClient client) {
        try {
            List<MigrationPolicy> policies = perNamespace(List.of(""),
                    ns -> client.resources(MigrationPolicy.class).list().getItems());
            Map<String, Map<String, String>> namespaceLabels = new java.util.HashMap<>();
            if (!policies.isEmpty()) {
                client.namespaces().list().getItems().forEach(n -> namespaceLabels.put(n.getMetadata().getName(),
                        n.getMetadata().getLabels() == null ? Map.of() : n.getMetadata().getLabels()));
            }
            return new PlacementInputs(client.nodes().list().getItems(), client.pods().inAnyNamespace().list().getItems(),
                    policies, namespaceLabels);
        } catch (KubernetesClientException e) {
            throw OpsException.from("nodes and pods", e);
        }
    }

    private static List<Pod> podsOn(KubernetesClient client, String node, DrainOptions options) {
        try {
            var query = client.pods().inAnyNamespace().withField("spec.nodeName", node);
            return (options.podSelector().isEmpty() ? query : query.withLabelSelector(options.podSelector())).list().getItems();
        } catch (KubernetesClientException e) {
            if (e.getCode() == 400 && !options.podSelector().isEmpty()) {
                throw new OpsException(OpsException.Kind.REFUSED, "invalid --pod-selector \"" + options.podSelector() + "\": "
                        + (e.getStatus() == null ? e.getMessage() : e.getStatus().getMessage()), e);
            }
            throw OpsException.from("pods on node \"" + node + "\"", e);
        }
    }

    /** The read's result, or the exception it threw as it was thrown. */
    private static <T> T await(Future<T> read) {
        try {
            return read.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new OpsException(OpsException.Kind.UNREACHABLE, "interrupted while reading the cluster", e);
        } catch (ExecutionException e) {
            switch (e.getCause()) {
                case RuntimeException r -> throw r;
                case Error r -> throw r;
                default -> throw new OpsException(OpsException.Kind.UNREACHABLE, "reading the cluster failed: " + e.getCause(), e.getCause());
            }
        }
    }

    /** The KubeVirt configuration as KubeVirt would choose it; its defaults without KubeVirt (or with an invalid CR). */
    static ClusterConfig clusterConfig(KubernetesClient client) {
        List<KubeVirt> kubeVirts = perNamespace(List.of(""), ns -> client.resources(KubeVirt.class).inAnyNamespace().list().getItems());
        Optional<KubeVirt> chosen = ClusterConfig.select(kubeVirts, KubeVirtValues.DEFAULT_INSTALL_NAMESPACE);
        try {
            if (chosen.isEmpty()) {
                return ClusterConfig.defaults();
            }
            KubeVirt kubeVirt = chosen.get();
            String image = ClusterConfig.reportsVersion(kubeVirt) ? null
                    : VirtControllerImage.read(client, kubeVirt.getMetadata().getNamespace()).orElse(null);
            return ClusterConfig.from(kubeVirt, image);
        } catch (InvalidClusterConfigException e) {
            return ClusterConfig.defaults();
        }
    }

    /** Lists per namespace; a kind the cluster does not serve (KubeVirt not installed) reads as none. */
    private static <T extends HasMetadata> List<T> perNamespace(Iterable<String> namespaces, Function<String, List<T>> list) {
        List<T> all = new ArrayList<>();
        for (String ns : namespaces) {
            try {
                all.addAll(list.apply(ns));
            } catch (KubernetesClientException e) {
                if (e.getCode() != 404) {
                    throw OpsException.from("reading namespace " + ns, e);
                }
            }
        }
        return all;
    }
}
