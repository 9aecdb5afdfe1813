package dev.drainboard.handler;

import dev.drainboard.hypervisor.MigrationOptions;
import dev.drainboard.hypervisor.MigrationProgress;
import dev.drainboard.kubevirt.DrainboardAnnotations;
import dev.drainboard.kubevirt.KubeVirtLabels;
import dev.drainboard.kubevirt.api.MigrationState;
import dev.drainboard.kubevirt.api.VirtualMachineInstance;
import dev.drainboard.kubevirt.config.ClusterConfig;
import dev.drainboard.kubevirt.config.InvalidClusterConfigException;
import dev.drainboard.kubevirt.config.MigrationConfig;
import dev.drainboard.simulation.SimulationKnobs;
import io.fabric8.kubernetes.api.model.Quantity;

import dev.drainboard.kubevirt.config.NodePressureAssist;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;

/**
 * The node-side steps of a live migration, after the migration controller's hand-off (KubeVirt's
 * {@code pkg/virt-handler/migration-source.go} and {@code migration-target.go}, with the timeouts of
 * {@code pkg/virt-launcher/virtwrap/live-migration-source.go}). Pure.
 *
 * <pre>
 * the VMI's migrationState                          this node is  step
 * not this migration's, completed or failed          -            NONE
 * no targetNodeAddress yet (label names the target)  target       PREPARE_TARGET: incoming domain, address, ready time
 * targetNodeAddress, no startTimestamp               source       START: the transfer, startTimestamp, mode PreCopy
 * started, transfer running, abortRequested          source       ABORT
 * started, transfer running                          source       REPORT_PROGRESS
 * started, transfer completed                        source       COMPLETE: the VMI moves to the target node
 * started, transfer failed (or lost)                 source       FAIL: migrationState failed, the guest stays
 * </pre>
 */
public final class MigrationSync {

    /** Link speed of a node without the {@value SimulationKnobs#LINK_SPEED} annotation: 512 MiB/s. */
    public static final long DEFAULT_LINK_BYTES_PER_SECOND = 512L << 20;

    public enum Step { NONE, PREPARE_TARGET, START, ABORT, REPORT_PROGRESS, COMPLETE, FAIL }

    private MigrationSync() {
    }

    /**
     * @param servesSource this process drives the VMI's node (status.nodeName)
     * @param servesTarget this process drives the migration's target node
     * @param transfer     the source hypervisor's latest transfer of this VMI, or null
     */
    public static Step decide(VirtualMachineInstance vmi, boolean servesSource, boolean servesTarget, MigrationProgress transfer) {
        MigrationState state = vmi == null || vmi.getStatus() == null ? null : vmi.getStatus().getMigrationState();
        if (state == null || state.getMigrationUid() == null || state.getTargetNode() == null
                || Boolean.TRUE.equals(state.getCompleted()) || Boolean.TRUE.equals(state.getFailed())) {
            return Step.NONE;
        }
        if (state.getTargetNodeAddress() == null) {
            Map<String, String> labels = vmi.getMetadata().getLabels();
            boolean called = labels != null && state.getTargetNode().equals(labels.get(KubeVirtLabels.MIGRATION_TARGET_NODE_NAME));
            return servesTarget && called ? Step.PREPARE_TARGET : Step.NONE;
        }
        if (!servesSource) {
            return Step.NONE;
        }
        if (state.getStartTimestamp() == null) {
            return Step.START;
        }
        if (transfer == null) {
            return Step.FAIL; // the transfer this VMI reports started is not known here (the process restarted)
        }
        return switch (transfer.state()) {
            case RUNNING -> Boolean.TRUE.equals(state.getAbortRequested()) ? Step.ABORT : Step.REPORT_PROGRESS;
            case COMPLETED -> Step.COMPLETE;
            case FAILED -> Step.FAIL;
        };
    }

    /**
     * The configuration a migration follows: its own {@code migrationState.migrationConfiguration} (the cluster's
     * with the matching MigrationPolicy laid over it, written by the migration controller at the hand-off), else the
     * cluster's (a hand-off by a controller that does not write it). One KubeVirt would refuse counts as absent.
     */
    public static MigrationConfig configOf(MigrationState state, MigrationConfig cluster) {
        if (state == null || state.getMigrationConfiguration() == null) {
            return cluster;
        }
        try {
            return ClusterConfig.migrations(state.getMigrationConfiguration());
        } catch (InvalidClusterConfigException e) {
            return cluster;
        }
    }

    /**
     * The options of a transfer: {@code bandwidthPerMigration} when set, else the source node's link speed; the
     * VMI's dirty rate; KubeVirt's downtime and timeouts, the completion timeout per started decimal GB of memory.
     */
    public static MigrationOptions options(MigrationConfig config, Map<String, String> nodeAnnotations,
                                           Map<String, String> vmiAnnotations, long memoryBytes) {
        return options(config, nodeAnnotations, vmiAnnotations, memoryBytes, 1.0);
    }

    /**
     * The same at a time scale ({@code ClusterConfig.timeScale()}): rates (link speed or bandwidth cap, dirty rate)
     * multiplied by it, downtime and timeouts divided by it. A pre-copy transfer's course depends only on the ratios
     * of these (what a pass leaves dirty = dirty rate × pass length), so it converges, or not, exactly as at real
     * time, in 1/scale of the time; the hypervisor's reported durations times the scale are real time.
     */
    public static MigrationOptions options(MigrationConfig config, Map<String, String> nodeAnnotations,
                                           Map<String, String> vmiAnnotations, long memoryBytes, double timeScale) {
        long bandwidth = config.bandwidthLimited() ? config.bandwidthBytesPerSecond()
                : quantity(nodeAnnotations, SimulationKnobs.LINK_SPEED, DEFAULT_LINK_BYTES_PER_SECOND);
        long dirty = quantity(vmiAnnotations, SimulationKnobs.MEMORY_DIRTY_RATE, 0);
        long gigabytes = Math.max(1, (memoryBytes + 999_999_999L) / 1_000_000_000L);
        return new MigrationOptions(Math.round(bandwidth * timeScale), Math.round(dirty * timeScale),
                ClusterConfig.scaled(Duration.ofMillis(config.maxDowntimeMs()), timeScale),
                ClusterConfig.scaled(Duration.ofSeconds(config.progressTimeout()), timeScale),
                ClusterConfig.scaled(Duration.ofSeconds(config.completionTimeoutPerGiB() * gigabytes), timeScale),
                config.allowPostCopy(), config.allowWorkloadDisruption(), config.allowAutoConverge(), null);
    }

    /**
     * Phase 1 (docs/behaviour.md, "Node-pressure eviction turned into live migration") for a VMI that a node-pressure
     * eviction is moving ({@link NodePressureEvacuation}): auto-converge,
     * or a pause timed to finish just before the expected kill. Other migrations keep their options.
     *
     * @param signalled when the launcher got its SIGTERM (null: unknown, the pause keeps a 1 s margin)
     */
    public static MigrationOptions withNodePressureAssist(MigrationOptions options, NodePressureAssist assist,
                                                          VirtualMachineInstance vmi, Instant signalled) {
        if (assist == NodePressureAssist.NONE || !NodePressureEvacuation.markedForNodePressure(vmi)) {
            return options;
        }
        if (assist == NodePressureAssist.AUTO_CONVERGE) {
            return options.withAssist(true, options.pauseBy());
        }
        Instant kill;
        try {
            kill = Instant.parse(vmi.getMetadata().getAnnotations().get(DrainboardAnnotations.NODE_PRESSURE_DEADLINE));
        } catch (RuntimeException e) {
            return options;
        }
        Instant from = signalled != null ? signalled : kill.minus(NodePressureEvacuation.MAX_PAUSE_MARGIN.multipliedBy(20));
        return options.withAssist(options.autoConverge(), NodePressureEvacuation.pauseBy(from, kill));
    }

    static long quantity(Map<String, String> annotations, String key, long fallback) {
        String text = annotations == null ? null : annotations.get(key);
        if (text == null || text.isBlank()) {
            return fallback;
        }
        try {
            return Quantity.getAmountInBytes(new Quantity(text.trim())).longValue();
        } catch (RuntimeException e) {
            return fallback;
        }
    }
}
