package dev.drainboard.ops;

import dev.drainboard.kubevirt.KubeVirtNames;
import dev.drainboard.kubevirt.api.KubeVirt;
import dev.drainboard.kubevirt.api.VirtualMachine;
import dev.drainboard.kubevirt.api.VirtualMachineInstance;
import dev.drainboard.kubevirt.config.ClusterConfig;
import dev.drainboard.kubevirt.config.InvalidClusterConfigException;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.TreeSet;
import java.util.function.Function;

/** Reads what a {@link DrainPreview} needs from the API: one list per kind and namespace concerned. */
final class ClusterReads {

    private ClusterReads() {
    }

    static DrainInputs read(KubernetesClient client, NodeOps nodes, String node, DrainOptions options) {
        nodes.get(node); // NOT_FOUND before anything else
        List<Pod> pods;
        try {
            var query = client.pods().inAnyNamespace().withField("spec.nodeName", node);
            pods = (options.podSelector().isEmpty() ? query : query.withLabelSelector(options.podSelector())).list().getItems();
        } catch (KubernetesClientException e) {
            if (e.getCode() == 400 && !options.podSelector().isEmpty()) {
                throw new OpsException(OpsException.Kind.REFUSED, "invalid --pod-selector \"" + options.podSelector() + "\": "
                        + (e.getStatus() == null ? e.getMessage() : e.getStatus().getMessage()), e);
            }
            throw OpsException.from("pods on node \"" + node + "\"", e);
        }
        TreeSet<String> namespaces = new TreeSet<>();
        pods.forEach(p -> namespaces.add(p.getMetadata().getNamespace()));
        List<VirtualMachineInstance> vmis = perNamespace(namespaces,
                ns -> client.resources(VirtualMachineInstance.class).inNamespace(ns).list().getItems());
        List<VirtualMachine> vms = perNamespace(namespaces,
                ns -> client.resources(VirtualMachine.class).inNamespace(ns).list().getItems());
        List<PodDisruptionBudget> budgets = perNamespace(namespaces,
                ns -> client.policy().v1().podDisruptionBudget().inNamespace(ns).list().getItems());
        return new DrainInputs(node, pods, vmis, vms, budgets, clusterConfig(client), options, Instant.now());
    }

    /** The KubeVirt configuration as KubeVirt would choose it; its defaults without KubeVirt (or with an invalid CR). */
    static ClusterConfig clusterConfig(KubernetesClient client) {
        List<KubeVirt> kubeVirts = perNamespace(List.of(""), ns -> client.resources(KubeVirt.class).inAnyNamespace().list().getItems());
        Optional<KubeVirt> chosen = ClusterConfig.select(kubeVirts, KubeVirtNames.Values.DEFAULT_INSTALL_NAMESPACE);
        try {
            return chosen.isPresent() ? ClusterConfig.from(chosen.get()) : ClusterConfig.defaults();
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
