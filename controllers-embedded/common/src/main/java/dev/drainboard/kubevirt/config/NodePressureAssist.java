package dev.drainboard.kubevirt.config;

import java.util.Arrays;
import java.util.Optional;

/**
 * Phase 1 of node-pressure eviction turned into live migration (docs/behaviour.md): how the source node helps a live
 * migration started by a node-pressure eviction finish before the kubelet kills the launcher. Set on the KubeVirt CR
 * with the annotation {@code drainboard.dev/node-pressure-migration-assist}.
 */
public enum NodePressureAssist {
    /** Plain pre-copy, as the cluster's migration configuration says. */
    NONE("None"),
    /** Throttle the guest's vCPUs more with every pass that does not converge (QEMU auto-converge). */
    AUTO_CONVERGE("AutoConverge"),
    /** Keep the guest running, but pause it once the rest of the transfer only just fits before the kill. */
    PAUSE_BEFORE_KILL("PauseBeforeKill");

    private final String value;

    NodePressureAssist(String value) {
        this.value = value;
    }

    public String value() {
        return value;
    }

    public static Optional<NodePressureAssist> parse(String text) {
        return Arrays.stream(values()).filter(a -> a.value.equals(text)).findFirst();
    }
}
