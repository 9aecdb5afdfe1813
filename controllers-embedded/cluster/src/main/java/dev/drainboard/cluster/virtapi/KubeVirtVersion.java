package dev.drainboard.cluster.virtapi;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.drainboard.cluster.apiserver.ApiServer;
import dev.drainboard.cluster.apiserver.Json;
import dev.drainboard.cluster.apiserver.ResourceType;
import dev.drainboard.kubevirt.ProfileChoice;
import dev.drainboard.kubevirt.KubeVirtValues;

import java.util.Optional;

/**
 * The KubeVirt release the embedded cluster says it runs: the KubeVirt CR's {@code status.observedKubeVirtVersion}, as
 * virt-operator reports it on a real installation. Everything that follows the release (the controllers, the
 * webhook registration, virt-api's subresources, the console) reads it from there, so setting it here is how a
 * scenario or {@code drainboard serve --kubevirt-version} picks a profile (docs/kubevirt-versions.md).
 */
public final class KubeVirtVersion {

    private KubeVirtVersion() {
    }

    /**
     * Writes {@code version} into the status of the KubeVirt CR in force, creating {@code kubevirt/kubevirt} (empty
     * spec: KubeVirt's defaults) when the cluster has none.
     *
     * @throws IllegalArgumentException when {@code version} names no KubeVirt release ({@code v1.6.0}, {@code 1.9})
     */
    public static void set(ApiServer api, String version) {
        if (ProfileChoice.override(version).isEmpty()) {
            throw new IllegalArgumentException("not a KubeVirt version: '" + version + "' (e.g. v1.4.0, v1.6.0, v1.9.0)");
        }
        String text = version.trim().startsWith("v") ? version.trim() : "v" + version.trim();
        ResourceType type = VirtApi.kubeVirtType(api).orElseThrow(() ->
                new IllegalStateException("the cluster serves no KubeVirt CRD"));
        JsonNode current = VirtApi.kubeVirtInForce(api);
        if (current.isMissingNode()) {
            ObjectNode kubeVirt = Json.object();
            kubeVirt.put("apiVersion", "kubevirt.io/v1").put("kind", "KubeVirt");
            kubeVirt.putObject("metadata").put("name", "kubevirt").put("namespace", KubeVirtValues.DEFAULT_INSTALL_NAMESPACE);
            kubeVirt.putObject("spec");
            kubeVirt.putObject("status").put("observedKubeVirtVersion", text);
            api.load(kubeVirt);
            return;
        }
        api.store().update(type, Json.namespace((ObjectNode) current), Json.name((ObjectNode) current), kubeVirt -> {
            ObjectNode status = kubeVirt.get("status") instanceof ObjectNode s ? s : kubeVirt.putObject("status");
            status.put("observedKubeVirtVersion", text);
            return kubeVirt;
        }, false);
    }

    /** The version the KubeVirt CR in force reports, if any. */
    public static Optional<String> reported(ApiServer api) {
        String version = VirtApi.kubeVirtInForce(api).path("status").path("observedKubeVirtVersion").asText("");
        return version.isEmpty() ? Optional.empty() : Optional.of(version);
    }
}
