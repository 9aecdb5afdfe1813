package dev.drainboard.ops;

import dev.drainboard.architecture.Pure;
import dev.drainboard.controller.migration.MigrationDecision;
import dev.drainboard.handler.MigrationSync;
import dev.drainboard.handler.NodeHandler;
import dev.drainboard.kubevirt.api.MigrationPhase;
import dev.drainboard.kubevirt.api.VirtualMachineInstance;
import dev.drainboard.kubevirt.api.VirtualMachineInstanceMigration;
import dev.drainboard.kubevirt.config.MigrationConfig;
import io.fabric8.kubernetes.api.model.Node;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What a migration costs beyond its transfer, as the cluster's recent migrations show it: for each of the newest
 * {@value #SAMPLES} that succeeded, the time from {@code Scheduling} (its target pod created: it holds a slot) to
 * {@code Succeeded} less the transfer {@link DrainEstimate} would predict for it; their mean, never below zero.
 * That is the target pod's start, the hand-over and the API's round trips on that cluster. KubeVirt stamps phases to
 * the second, so one migration's figure is off by up to a second either way; the errors cancel out in the mean.
 */
@Pure
public final class MigrationOverhead {

    /** How many recent migrations are looked at. */
    static final int SAMPLES = 20;

    /** The overhead per migration and how many migrations it was seen in. */
    public record Observed(double secondsPerMigration, int samples) {
    }

    /** Nothing observed: no overhead counted. */
    public static final Observed NONE = new Observed(0, 0);

    private MigrationOverhead() {
    }

    /** One finished migration: how long it held its slot, and the transfer the estimate would have given it. */
    record Sample(Instant ended, double heldSeconds, double transferSeconds) {
    }

    /**
     * The overhead seen in these migrations of these VMIs (a migration whose VMI is not among them, or that did not
     * succeed, or lacks its phase times, is not looked at).
     */
    public static Observed of(List<VirtualMachineInstanceMigration> migrations, List<VirtualMachineInstance> vmis,
                              List<Node> nodes, MigrationConfig config) {
        List<Sample> samples = new ArrayList<>();
        for (VirtualMachineInstanceMigration vmim : migrations) {
            if (vmim.getStatus() == null || !MigrationPhase.SUCCEEDED.value().equals(vmim.getStatus().getPhase())
                    || vmim.getSpec() == null) {
                continue;
            }
            Optional<Instant> scheduling = stamp(vmim, MigrationPhase.SCHEDULING);
            Optional<Instant> succeeded = stamp(vmim, MigrationPhase.SUCCEEDED);
            Optional<VirtualMachineInstance> vmi = vmis.stream()
                    .filter(v -> v.getMetadata().getNamespace().equals(vmim.getMetadata().getNamespace())
                            && v.getMetadata().getName().equals(vmim.getSpec().getVmiName()))
                    .findFirst();
            if (scheduling.isEmpty() || succeeded.isEmpty() || vmi.isEmpty()) {
                continue;
            }
            String source = vmim.getStatus().getMigrationState() == null ? null : vmim.getStatus().getMigrationState().getSourceNode();
            Map<String, String> nodeAnnotations = nodes.stream().filter(n -> n.getMetadata().getName().equals(source))
                    .findFirst().map(n -> n.getMetadata().getAnnotations()).orElse(null);
            VirtualMachineInstance v = vmi.get();
            long memory = NodeHandler.definitionOf(v).memoryBytes();
            var options = MigrationSync.options(configOf(vmim, config), nodeAnnotations == null ? Map.of() : nodeAnnotations,
                    v.getMetadata().getAnnotations() == null ? Map.of() : v.getMetadata().getAnnotations(), memory);
            double transfer = DrainEstimate.Transfer.of(source, memory, options).seconds();
            double held = Duration.between(scheduling.get(), succeeded.get()).toMillis() / 1000.0;
            samples.add(new Sample(succeeded.get(), held, transfer));
        }
        return fromSamples(samples);
    }

    /** The configuration the migration ran with (its MigrationPolicy laid over the cluster's, as handed off), else the cluster's. */
    private static MigrationConfig configOf(VirtualMachineInstanceMigration vmim, MigrationConfig cluster) {
        var state = vmim.getStatus().getMigrationState();
        if (state == null || state.getMigrationConfiguration() == null) {
            return cluster;
        }
        try {
            return dev.drainboard.kubevirt.config.ClusterConfig.migrations(state.getMigrationConfiguration());
        } catch (dev.drainboard.kubevirt.config.InvalidClusterConfigException e) {
            return cluster;
        }
    }

    /** The mean of the newest samples' held time less their transfer, at least zero. */
    static Observed fromSamples(List<Sample> samples) {
        List<Sample> newest = samples.stream().filter(s -> Double.isFinite(s.transferSeconds()))
                .sorted(Comparator.comparing(Sample::ended).reversed()).limit(SAMPLES).toList();
        if (newest.isEmpty()) {
            return NONE;
        }
        double mean = newest.stream().mapToDouble(s -> s.heldSeconds() - s.transferSeconds()).average().orElse(0);
        return new Observed(Math.max(0, mean), newest.size());
    }

    private static Optional<Instant> stamp(VirtualMachineInstanceMigration vmim, MigrationPhase phase) {
        return MigrationDecision.transitionTime(vmim, phase);
    }
}
