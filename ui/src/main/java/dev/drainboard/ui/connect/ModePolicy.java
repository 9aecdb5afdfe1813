package dev.drainboard.ui.connect;

import java.util.Optional;

/** Picks Control or Observe for a connection, and says why. Pure. */
public final class ModePolicy {

    /** The mode and a sentence for the status bar's tooltip. */
    public record Decision(Mode mode, String reason) {
    }

    /**
     * What is known about KubeVirt's own controller on the cluster.
     *
     * @param location  {@code namespace/name} of a virt-controller Deployment or pod, when one was found
     * @param checkable false when RBAC or an error kept us from looking
     */
    public record VirtControllerProbe(Optional<String> location, boolean checkable) {
        public static VirtControllerProbe absent() {
            return new VirtControllerProbe(Optional.empty(), true);
        }

        public static VirtControllerProbe found(String where) {
            return new VirtControllerProbe(Optional.of(where), true);
        }

        public static VirtControllerProbe unknown() {
            return new VirtControllerProbe(Optional.empty(), false);
        }
    }

    private ModePolicy() {
    }

    public static Decision decide(ModeChoice choice, boolean embedded, VirtControllerProbe probe) {
        String found = probe.location().map(l -> "virt-controller runs in this cluster (" + l + ")").orElse("");
        return switch (choice) {
            case CONTROL -> new Decision(Mode.CONTROL, probe.location().isPresent()
                    ? "Chosen by you, although " + found + ": two control planes will act on the same VMIs."
                    : "Chosen by you.");
            case OBSERVE -> new Decision(Mode.OBSERVE, "Chosen by you: controllers are off and this console changes nothing.");
            case AUTO -> {
                if (embedded) {
                    yield new Decision(Mode.CONTROL, "Embedded cluster: Drainboard runs KubeVirt's drain control plane here.");
                }
                if (probe.location().isPresent()) {
                    yield new Decision(Mode.OBSERVE, "Observe, because " + found + " and already drives evictions and migrations.");
                }
                if (!probe.checkable()) {
                    yield new Decision(Mode.OBSERVE, "Observe, because Drainboard may not list Deployments and pods to look for virt-controller; choose Control to run the controllers here.");
                }
                yield new Decision(Mode.CONTROL, "No virt-controller found in any namespace: Drainboard runs the drain control plane.");
            }
        };
    }
}
