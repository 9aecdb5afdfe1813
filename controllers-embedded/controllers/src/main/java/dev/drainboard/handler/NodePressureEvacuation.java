package dev.drainboard.handler;

import dev.drainboard.hypervisor.Domain;
import dev.drainboard.kubevirt.DrainboardAnnotations;
import dev.drainboard.kubevirt.KubeVirtDefaults;
import dev.drainboard.kubevirt.api.EvictionStrategy;
import dev.drainboard.kubevirt.api.VirtualMachineInstance;
import dev.drainboard.kubevirt.api.VmiPhase;
import dev.drainboard.kubevirt.config.ClusterConfig;
import dev.drainboard.simulation.SimulationKnobs;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;

/**
 * Node-pressure eviction turned into live migration, as proposed for KubeVirt (docs/behaviour.md): a launcher that
 * got SIGTERM while its VMI is not being deleted was not stopped by its owner but evicted
 * by the node (the kubelet under memory pressure). Behind the feature gate {@code NodePressureEvictionLiveMigration}
 * the node handler then leaves the guest running, marks the VMI for evacuation ({@code status.evacuationNodeName})
 * and lets the evacuation controller live-migrate it before the kubelet's kill. Pure.
 *
 * <pre>
 * gate off                                              shut down (graceful shutdown)
 * VMI not Running, or being deleted, or final           shut down
 * domain not alive, or already sent its ACPI shutdown   shut down (nothing left to save)
 * no SIGTERM from the launcher                          (not an eviction)
 * LiveMigrate, LiveMigrateIfPossible                    evacuate when LiveMigratable, else shut down
 * External                                              evacuate (the external actor decides)
 * None                                                  shut down
 * </pre>
 */
public final class NodePressureEvacuation {

    /** Sent when the kill is this close, the pause leaves room for the switch-over. */
    static final Duration MAX_PAUSE_MARGIN = Duration.ofSeconds(1);

    private NodePressureEvacuation() {
    }

    /** The proposal's {@code shouldEvacuateVMI}: the table above. */
    public static boolean shouldEvacuate(ClusterConfig config, VirtualMachineInstance vmi, Domain domain, boolean migratable) {
        if (!config.nodePressureEvictionLiveMigration()) {
            return false;
        }
        if (vmi == null || domain == null || vmi.phase().orElse(null) != VmiPhase.RUNNING || !domain.isAlive()
                || domain.incoming() || domain.shutdownRequestedAt() != null) {
            return false;
        }
        if (vmi.getMetadata().getDeletionTimestamp() != null || !domain.gracefulShutdownRequested()) {
            return false;
        }
        EvictionStrategy strategy = config.evictionStrategyFor(vmi);
        return switch (strategy) {
            case LIVE_MIGRATE, LIVE_MIGRATE_IF_POSSIBLE -> migratable;
            case EXTERNAL -> true;
            case NONE -> false;
        };
    }

    /**
     * When the kubelet is expected to kill the launcher: its SIGTERM plus the shorter of the node's
     * {@code evictionMaxPodGracePeriod} (annotation {@value SimulationKnobs#EVICTION_MAX_POD_GRACE_PERIOD},
     * when the node has one) and the launcher pod's own grace period (the VMI's + 30 s), as a kubelet caps a soft
     * eviction's grace period. Those are real seconds; the simulated kubelet divides them by the cluster's time scale,
     * and so does this.
     */
    public static Instant expectedKill(VirtualMachineInstance vmi, Domain domain, Map<String, String> nodeAnnotations, Instant now) {
        return expectedKill(vmi, domain, nodeAnnotations, 1.0, now);
    }

    /** The same at a time scale. */
    public static Instant expectedKill(VirtualMachineInstance vmi, Domain domain, Map<String, String> nodeAnnotations,
                                       double timeScale, Instant now) {
        Instant signalled = domain.gracefulShutdownRequestedAt() != null ? domain.gracefulShutdownRequestedAt() : now;
        Long vmiGrace = vmi.getSpec() == null ? null : vmi.getSpec().getTerminationGracePeriodSeconds();
        long grace = (vmiGrace != null ? vmiGrace : KubeVirtDefaults.GRACE_PERIOD_SECONDS) + 2 * KubeVirtDefaults.LAUNCHER_GRACE_PADDING_SECONDS;
        String max = nodeAnnotations == null ? null : nodeAnnotations.get(SimulationKnobs.EVICTION_MAX_POD_GRACE_PERIOD);
        if (max != null) {
            try {
                long cap = Long.parseLong(max.trim());
                if (cap >= 0) {
                    grace = Math.min(grace, cap);
                }
            } catch (NumberFormatException e) {
                // the kubelet refuses such a configuration; the pod's own grace period stands
            }
        }
        return signalled.plus(dev.drainboard.kubevirt.config.ClusterConfig.scaled(Duration.ofSeconds(grace), timeScale));
    }

    /** When a {@code PauseBeforeKill} migration must be done: a twentieth of the time before the kill (at most 1 s) early. */
    public static Instant pauseBy(Instant signalled, Instant kill) {
        Duration window = Duration.between(signalled, kill);
        Duration margin = window.dividedBy(20);
        if (margin.compareTo(MAX_PAUSE_MARGIN) > 0) {
            margin = MAX_PAUSE_MARGIN;
        }
        return kill.minus(margin.isNegative() ? Duration.ZERO : margin);
    }

    /** The VMI was marked by this handler for a node-pressure eviction (and not yet moved off that node). */
    public static boolean markedForNodePressure(VirtualMachineInstance vmi) {
        Map<String, String> annotations = vmi.getMetadata().getAnnotations();
        return annotations != null
                && DrainboardAnnotations.CAUSE_NODE_PRESSURE.equals(annotations.get(DrainboardAnnotations.EVACUATION_CAUSE))
                && annotations.containsKey(DrainboardAnnotations.NODE_PRESSURE_DEADLINE);
    }
}
