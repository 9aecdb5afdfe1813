package dev.drainboard.cluster.virtapi;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.drainboard.cluster.apiserver.ApiServer;
import dev.drainboard.cluster.apiserver.Json;
import dev.drainboard.cluster.apiserver.ResourceType;
import dev.drainboard.kubevirt.DrainboardAnnotations;
import dev.drainboard.kubevirt.KubeVirtValues;

import java.math.BigDecimal;

/**
 * Tells the controllers how fast the embedded cluster runs: annotation {@value DrainboardAnnotations#TIME_SCALE} on
 * the KubeVirt CR in force (they read it into {@code ClusterConfig.timeScale()}; they never look inside the cluster).
 * The cluster's own value always wins over one a scenario brought (a snapshot of a time-scaled cluster), so the
 * controllers and the simulated nodes agree.
 */
public final class KubeVirtTimeScale {

    private KubeVirtTimeScale() {
    }

    /**
     * Writes {@code scale} on the KubeVirt CR in force, creating {@code kubevirt/kubevirt} (empty spec: KubeVirt's
     * defaults) when the cluster has none and the scale is not 1; at scale 1 removes an annotation a scenario brought.
     */
    public static void set(ApiServer api, double scale) {
        ResourceType type = VirtApi.kubeVirtType(api).orElse(null);
        if (type == null) {
            if (scale != 1.0) {
                throw new IllegalStateException("a time scale needs KubeVirt's CRDs: the cluster serves no KubeVirt CRD");
            }
            return;
        }
        String text = format(scale);
        JsonNode current = VirtApi.kubeVirtInForce(api);
        if (current.isMissingNode()) {
            if (scale == 1.0) {
                return;
            }
            ObjectNode kubeVirt = Json.object();
            kubeVirt.put("apiVersion", "kubevirt.io/v1").put("kind", "KubeVirt");
            kubeVirt.putObject("metadata").put("name", "kubevirt").put("namespace", KubeVirtValues.DEFAULT_INSTALL_NAMESPACE)
                    .putObject("annotations").put(DrainboardAnnotations.TIME_SCALE, text);
            kubeVirt.putObject("spec");
            api.load(kubeVirt);
            return;
        }
        boolean has = current.path("metadata").path("annotations").has(DrainboardAnnotations.TIME_SCALE);
        if (scale == 1.0 && !has) {
            return;
        }
        api.store().update(type, Json.namespace((ObjectNode) current), Json.name((ObjectNode) current), kubeVirt -> {
            ObjectNode annotations = Json.metadata(kubeVirt).with("annotations");
            if (scale == 1.0) {
                annotations.remove(DrainboardAnnotations.TIME_SCALE);
            } else {
                annotations.put(DrainboardAnnotations.TIME_SCALE, text);
            }
            return kubeVirt;
        }, false);
    }

    /** {@code 10}, {@code 2.5}: the shortest decimal, no exponent. */
    public static String format(double scale) {
        return BigDecimal.valueOf(scale).stripTrailingZeros().toPlainString();
    }
}
