package dev.drainboard.ops;

import dev.drainboard.architecture.Pure;
import dev.drainboard.controller.migration.MigrationDecision;
import dev.drainboard.controller.migration.MigrationSlots;
import dev.drainboard.kubevirt.api.MigrationPhase;
import dev.drainboard.kubevirt.api.VirtualMachineInstance;
import dev.drainboard.kubevirt.api.VirtualMachineInstanceMigration;
import dev.drainboard.kubevirt.api.VmiPhase;
import dev.drainboard.kubevirt.config.MigrationConfig;
import dev.drainboard.runtime.Keys;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * Why a migration has not started yet, in the operator's words, by the same rules the controllers wait on: the
 * migration controller's back-off ({@link MigrationDecision#backoffUntil}), its slots ({@link MigrationSlots}: the
 * started VMIMs for a VMIM, every unfinished one for a VMI the evacuation has yet to give a VMIM), its wait for the PDB
 * expansion (KubeVirt up to v1.5) and the scheduler's answer for the target pod. Pure: callers read the cluster.
 *
 * <pre>
 * a VMIM (no phase, Pending without a target pod)
 *   back-off running                     BACKOFF              "back-off after failed migrations until 13:05:20 UTC"
 *   no slot in the cluster               CLUSTER_LIMIT        "5 of 5 migrations in the cluster in use"
 *   no slot on its source node           NODE_LIMIT           "2 of 2 outbound migrations of node03 in use"
 *   its PDB not yet expanded / observed  PDB_EXPANSION        "waiting for PodDisruptionBudget … to be expanded …"
 *   otherwise                            QUEUED
 * a VMIM whose target pod exists
 *   PodScheduled=False                   TARGET_UNSCHEDULABLE the scheduler's message
 *   otherwise                            (under way: none)
 * a VMI marked for evacuation, no unfinished VMIM yet
 *   no slot in the cluster / on its node CLUSTER_LIMIT / NODE_LIMIT (unfinished VMIMs counted, as the evacuation does)
 *   otherwise                            QUEUED
 * </pre>
 */
@Pure
public final class WhyPendingDecision {

    /** What it waits for. */
    public enum Kind {
        NODE_LIMIT, CLUSTER_LIMIT, BACKOFF, TARGET_UNSCHEDULABLE, PDB_EXPANSION, QUEUED
    }

    /** @param until the end of a back-off, null otherwise */
    public record Why(Kind kind, String text, Instant until) {
        public Why {
            Objects.requireNonNull(kind, "kind");
            Objects.requireNonNull(text, "text");
        }
    }

    /**
     * The cluster around the migrations.
     *
     * @param migrations    every VMIM of the cluster
     * @param vmiNodes      the node each VMI ({@code namespace/name}) runs on
     * @param withTargetPod the uids of the VMIMs whose target pod exists
     * @param firstBackoff  the migration controller's first back-off (KubeVirt: 20 s)
     */
    public record Cluster(List<VirtualMachineInstanceMigration> migrations, Map<String, String> vmiNodes,
                          Set<String> withTargetPod, MigrationConfig config, Duration firstBackoff, Instant now) {
        public Cluster {
            migrations = List.copyOf(migrations);
            vmiNodes = Map.copyOf(vmiNodes);
            withTargetPod = Set.copyOf(withTargetPod);
        }

        boolean targetPodCreated(VirtualMachineInstanceMigration m) {
            return withTargetPod.contains(m.getMetadata().getUid());
        }
    }

    private static final DateTimeFormatter CLOCK = DateTimeFormatter.ofPattern("HH:mm:ss 'UTC'").withZone(ZoneOffset.UTC);

    private WhyPendingDecision() {
    }

    /**
     * Why a VMIM has not started; empty when it is under way or finished.
     *
     * @param vmi        its VMI, null when gone
     * @param targetPod  its newest target pod, null when none exists
     * @param budget     the VMI's PDB, null when none
     * @param wantsBudget the cluster's profile expands the PDB before a migration (KubeVirt up to v1.5)
     */
    public static Optional<Why> forMigration(VirtualMachineInstanceMigration vmim, VirtualMachineInstance vmi, Pod targetPod,
                                             PodDisruptionBudget budget, boolean wantsBudget, Cluster cluster) {
        if (vmim.isFinal() || vmi == null) {
            return Optional.empty();
        }
        MigrationPhase phase = vmim.phase().orElse(null);
        if (targetPod != null) {
            return unschedulable(targetPod).map(message -> new Why(Kind.TARGET_UNSCHEDULABLE,
                    "target pod " + targetPod.getMetadata().getName() + " unschedulable: " + message, null));
        }
        if (phase != null && phase != MigrationPhase.PENDING) {
            return Optional.empty();
        }
        String ns = vmim.getMetadata().getNamespace();
        List<VirtualMachineInstanceMigration> siblings = cluster.migrations().stream()
                .filter(m -> ns.equals(m.getMetadata().getNamespace()) && m.getSpec() != null
                        && Objects.equals(m.getSpec().getVmiName(), vmim.getSpec().getVmiName()))
                .toList();
        if (MigrationDecision.isEvacuation(vmim)) {
            Optional<Instant> until = MigrationDecision.backoffUntil(vmim, siblings, cluster.firstBackoff());
            if (until.isPresent() && cluster.now().isBefore(until.get())) {
                return Optional.of(new Why(Kind.BACKOFF, "back-off after failed migrations until "
                        + CLOCK.format(until.get()), until.get()));
            }
        }
        if (vmi.phase().orElse(null) != VmiPhase.RUNNING) {
            return Optional.of(queued());
        }
        String uid = vmim.getMetadata().getUid();
        List<VirtualMachineInstanceMigration> started = MigrationSlots.started(cluster.migrations().stream()
                .filter(m -> !Objects.equals(m.getMetadata().getUid(), uid)).toList(), cluster::targetPodCreated);
        String node = vmi.getStatus() == null ? null : vmi.getStatus().getNodeName();
        Optional<Why> limit = limit(started, node, cluster);
        if (limit.isPresent()) {
            return limit;
        }
        if (wantsBudget) {
            String name = vmim.getMetadata().getName();
            if (budget == null || !MigrationDecision.isExpandedFor(budget, name) || !MigrationDecision.expansionObserved(budget)) {
                String pdb = budget == null ? "of VMI " + vmi.getMetadata().getName() : budget.getMetadata().getName();
                return Optional.of(new Why(Kind.PDB_EXPANSION, "waiting for PodDisruptionBudget " + pdb
                        + " to be expanded to 2 for the migration", null));
            }
        }
        return Optional.of(queued());
    }

    /** Why a VMI marked for evacuation has no migration yet (the evacuation creates one when a slot is free). */
    public static Why forMarkedVmi(VirtualMachineInstance vmi, Cluster cluster) {
        String node = vmi.getStatus() == null ? null : vmi.getStatus().getNodeName();
        return limit(MigrationSlots.unfinished(cluster.migrations()), node, cluster).orElse(queued());
    }

    private static Optional<Why> limit(List<VirtualMachineInstanceMigration> holding, String node, Cluster cluster) {
        MigrationSlots.Limits limits = MigrationSlots.Limits.of(cluster.config());
        MigrationSlots.InFlight inFlight = MigrationSlots.inFlight(holding, node, cluster.vmiNodes()::get);
        if (limits.freeInCluster(inFlight.inCluster()) <= 0) {
            // More than the limit can be under way (migrations started before the limit was lowered, or by others).
            String count = inFlight.inCluster() > limits.perCluster()
                    ? inFlight.inCluster() + " migrations in the cluster under way, limit " + limits.perCluster()
                    : inFlight.inCluster() + " of " + limits.perCluster() + " migrations in the cluster in use";
            return Optional.of(new Why(Kind.CLUSTER_LIMIT, count, null));
        }
        if (limits.freeOnNode(inFlight.fromNode()) <= 0) {
            return Optional.of(new Why(Kind.NODE_LIMIT, inFlight.fromNode() + " of " + limits.perSourceNode()
                    + " outbound migrations of " + node + " in use", null));
        }
        return Optional.empty();
    }

    private static Why queued() {
        return new Why(Kind.QUEUED, "queued", null);
    }

    /** The scheduler's message while the pod's PodScheduled condition is False. */
    public static Optional<String> unschedulable(Pod pod) {
        if (pod.getStatus() == null || pod.getStatus().getConditions() == null) {
            return Optional.empty();
        }
        for (PodCondition c : pod.getStatus().getConditions()) {
            if ("PodScheduled".equals(c.getType()) && "False".equals(c.getStatus())) {
                String message = c.getMessage() == null || c.getMessage().isBlank() ? c.getReason() : c.getMessage();
                return Optional.of(message == null ? "not scheduled" : message);
            }
        }
        return Optional.empty();
    }

    /** The key of a VMIM's VMI. */
    static String vmiKey(VirtualMachineInstanceMigration m) {
        return Keys.of(m.getMetadata().getNamespace(), m.getSpec() == null ? "" : m.getSpec().getVmiName());
    }
}
