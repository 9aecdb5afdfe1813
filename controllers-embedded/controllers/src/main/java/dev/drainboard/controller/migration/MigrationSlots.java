package dev.drainboard.controller.migration;

import dev.drainboard.architecture.Pure;
import dev.drainboard.kubevirt.api.MigrationPhase;
import dev.drainboard.kubevirt.api.MigrationState;
import dev.drainboard.kubevirt.api.VirtualMachineInstanceMigration;
import dev.drainboard.kubevirt.config.MigrationConfig;
import dev.drainboard.runtime.Keys;

import java.util.Collection;
import java.util.List;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * The migration limits ({@code parallelMigrationsPerCluster}, {@code parallelOutboundMigrationsPerNode}): which
 * VMIMs take a slot, which node a migration leaves from, and how many slots are free. The one place both the
 * evacuation controller (before it creates VMIMs) and the migration controller (before it starts one) count;
 * the drain estimate is meant to count here too. Pure: callers read the caches and pass what they found.
 *
 * <pre>
 * standing of a VMIM
 *   FINISHED  Succeeded or Failed
 *   STARTED   past Pending, or no phase / Pending with its target pod created
 *   QUEUED    no phase / Pending without a target pod; WaitingForSync, Synchronizing (decentralized, not ours)
 * what takes a slot
 *   before a migration starts (its target pod is created)   the STARTED ones, itself excluded
 *   before the evacuation creates a VMIM                    every unfinished one, QUEUED too
 * free slots = min(parallelMigrationsPerCluster − in the cluster, parallelOutboundMigrationsPerNode − from the node)
 * </pre>
 *
 * <p>The first rule is KubeVirt's ({@code findRunningMigrations} in pkg/virt-controller/watch/migration/migration.go:
 * a VMIM that {@code IsRunning}, or one whose target pods exist). The evacuation counts queued VMIMs too, where
 * KubeVirt's evacuation controller counts only running ones and lets the migration controller hold the rest back:
 * that way a VMIM it creates always fits the limits, and at no moment do more VMIMs wait than there are slots.
 *
 * <p>Both controllers pass the VMIMs of {@code FreshMigrations}: the cache plus this process's own writes it does not
 * show yet, so a VMIM just created or just finished counts (or stops counting) at once. The migration controller
 * likewise counts a target pod as created from the moment its create returned, before the pod cache shows it.
 */
@Pure
public final class MigrationSlots {

    /** Where a VMIM stands towards the limits. */
    public enum Standing {
        FINISHED, QUEUED, STARTED
    }

    /** The two limits, from the cluster's migration configuration. */
    public record Limits(int perCluster, int perSourceNode) {

        public static Limits of(MigrationConfig config) {
            return new Limits(config.parallelMigrationsPerCluster(), config.parallelOutboundMigrationsPerNode());
        }

        /** Slots the cluster has left (negative when more migrations run than allowed). */
        public int freeInCluster(int inCluster) {
            return perCluster - inCluster;
        }

        /** Slots a source node has left (negative when more migrations leave it than allowed). */
        public int freeOnNode(int fromNode) {
            return perSourceNode - fromNode;
        }

        /** Migrations that may start from the node now; zero or less: none. */
        public int free(InFlight inFlight) {
            return Math.min(freeInCluster(inFlight.inCluster()), freeOnNode(inFlight.fromNode()));
        }
    }

    /** Slots taken: in the whole cluster, and by migrations leaving one node. */
    public record InFlight(int inCluster, int fromNode) {
    }

    private MigrationSlots() {
    }

    /**
     * @param targetPodCreated the VMIM's target pod exists (in the pod cache, or created by this process and not
     *                         yet seen there); only asked for a VMIM that has not gone past Pending
     */
    public static Standing standing(VirtualMachineInstanceMigration m, Predicate<VirtualMachineInstanceMigration> targetPodCreated) {
        MigrationPhase phase = m.phase().orElse(null);
        if (phase == null || phase == MigrationPhase.PENDING) {
            return targetPodCreated.test(m) ? Standing.STARTED : Standing.QUEUED;
        }
        if (phase.isFinal()) {
            return Standing.FINISHED;
        }
        return phase == MigrationPhase.WAITING_FOR_SYNC || phase == MigrationPhase.SYNCHRONIZING ? Standing.QUEUED : Standing.STARTED;
    }

    /** What a migration about to start counts: the started VMIMs (leave the one deciding out of {@code migrations}). */
    public static List<VirtualMachineInstanceMigration> started(Collection<VirtualMachineInstanceMigration> migrations,
                                                                Predicate<VirtualMachineInstanceMigration> targetPodCreated) {
        return migrations.stream().filter(m -> standing(m, targetPodCreated) == Standing.STARTED).toList();
    }

    /** What the evacuation counts before it creates VMIMs: every unfinished VMIM, started or queued. */
    public static List<VirtualMachineInstanceMigration> unfinished(Collection<VirtualMachineInstanceMigration> migrations) {
        return migrations.stream().filter(m -> !m.isFinal()).toList();
    }

    /**
     * The slots {@code holding} take, in the cluster and from {@code node}.
     *
     * @param nodeOfVmi the node a VMI ({@code namespace/name}) runs on, null when unknown
     */
    public static InFlight inFlight(Collection<VirtualMachineInstanceMigration> holding, String node,
                                    Function<String, String> nodeOfVmi) {
        return new InFlight(holding.size(), fromNode(holding, node, nodeOfVmi));
    }

    /** How many of {@code holding} move a VMI away from {@code node}. */
    public static int fromNode(Collection<VirtualMachineInstanceMigration> holding, String node, Function<String, String> nodeOfVmi) {
        if (node == null) {
            return 0;
        }
        return (int) holding.stream().filter(m -> node.equals(sourceNode(m, nodeOfVmi))).count();
    }

    /**
     * The node a VMIM moves its VMI away from: the migration state's source node once the hand-off wrote it (the VMI
     * may have moved on since), else the node its VMI runs on now; null when neither is known.
     */
    public static String sourceNode(VirtualMachineInstanceMigration m, Function<String, String> nodeOfVmi) {
        MigrationState state = m.getStatus() == null ? null : m.getStatus().getMigrationState();
        if (state != null && state.getSourceNode() != null) {
            return state.getSourceNode();
        }
        if (m.getSpec() == null || m.getSpec().getVmiName() == null) {
            return null;
        }
        return nodeOfVmi.apply(Keys.of(m.getMetadata().getNamespace(), m.getSpec().getVmiName()));
    }
}
