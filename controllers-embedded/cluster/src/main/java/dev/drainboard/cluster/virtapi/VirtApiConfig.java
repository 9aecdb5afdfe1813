package dev.drainboard.cluster.virtapi;

import com.fasterxml.jackson.databind.JsonNode;
import dev.drainboard.architecture.Pure;

/**
 * What virt-api's admission reads from the KubeVirt CR's {@code spec.configuration}, over KubeVirt's defaults
 * (pkg/virt-config/virt-config.go and configuration.go): the eviction strategy stamped into new VMIs ({@code None}),
 * the binding of the default pod interface ({@code network.defaultNetworkInterface}, {@code bridge}), whether bridge
 * may bind the pod network ({@code network.permitBridgeInterfaceOnPodNetwork}, true), the VM rollout strategy
 * ({@code LiveUpdate}) and the network binding plugins.
 */
@Pure
public record VirtApiConfig(String evictionStrategy, String defaultNetworkInterface,
                            boolean permitBridgeInterfaceOnPodNetwork, String vmRolloutStrategy) {

    public static final String BRIDGE = "bridge";
    public static final String MASQUERADE = "masquerade";
    public static final String SLIRP = "slirp";

    public static VirtApiConfig defaults() {
        return new VirtApiConfig("None", BRIDGE, true, "LiveUpdate");
    }

    /** From a KubeVirt CR (null: KubeVirt's defaults). */
    public static VirtApiConfig from(JsonNode kubeVirt) {
        VirtApiConfig d = defaults();
        if (kubeVirt == null) {
            return d;
        }
        JsonNode configuration = kubeVirt.path("spec").path("configuration");
        JsonNode network = configuration.path("network");
        return new VirtApiConfig(
                text(configuration.path("evictionStrategy"), d.evictionStrategy()),
                text(network.path("defaultNetworkInterface"), d.defaultNetworkInterface()),
                network.path("permitBridgeInterfaceOnPodNetwork").isBoolean()
                        ? network.path("permitBridgeInterfaceOnPodNetwork").asBoolean() : d.permitBridgeInterfaceOnPodNetwork(),
                text(configuration.path("vmRolloutStrategy"), d.vmRolloutStrategy()));
    }

    public boolean liveUpdateRollout() {
        return "LiveUpdate".equals(vmRolloutStrategy);
    }

    private static String text(JsonNode node, String otherwise) {
        return node.isTextual() && !node.asText().isEmpty() ? node.asText() : otherwise;
    }
}
