package dev.drainboard.controller.replicaset;

import dev.drainboard.kubevirt.api.VirtualMachineInstance;
import dev.drainboard.kubevirt.api.VmiPhase;

import java.time.Instant;
import java.util.Comparator;
import java.util.List;

/**
 * Which VMIs a replica set deletes first when it scales down: not ready, then migrating, then ready, the order
 * KubeVirt's {@code docs/replica-sets.md} plans (docs/behaviour.md, "Replica sets"), with the ties broken as the
 * ReplicaSet controller for pods breaks them. Pure.
 *
 * <ol>
 *   <li>not ready (whether migrating or not), then ready and migrating, then ready and not migrating;</li>
 *   <li>not scheduled to a node, then scheduled;</li>
 *   <li>not yet running (no phase, Pending, Scheduling, Scheduled, WaitingForSync), then Unknown, then Running;</li>
 *   <li>newer, then older ({@code creationTimestamp}): the longest-lived replicas stay;</li>
 *   <li>name, so the order is the same on every pass.</li>
 * </ol>
 * Why: a not-ready VMI serves nothing, so removing it costs nothing; a migrating one is about to cost a second
 * node's resources and its copy would be wasted; a ready one serves.
 */
public final class ScaleDownOrder {

    /** Victims first. */
    public static final Comparator<VirtualMachineInstance> VICTIMS_FIRST = Comparator
            .comparingInt(ScaleDownOrder::readiness)
            .thenComparing(ReplicaSetVmis::scheduled)
            .thenComparingInt(ScaleDownOrder::phaseRank)
            .thenComparing(ScaleDownOrder::created, Comparator.reverseOrder())
            .thenComparing(v -> v.getMetadata().getName());

    private ScaleDownOrder() {
    }

    /** The first {@code count} of the VMIs in deletion order. */
    public static List<VirtualMachineInstance> victims(List<VirtualMachineInstance> active, int count) {
        return active.stream().sorted(VICTIMS_FIRST).limit(Math.max(0, count)).toList();
    }

    /** 0 not ready, 1 migrating, 2 ready. */
    static int readiness(VirtualMachineInstance vmi) {
        if (!ReplicaSetVmis.ready(vmi)) {
            return 0;
        }
        return ReplicaSetVmis.migrating(vmi) ? 1 : 2;
    }

    /** 0 not yet running, 1 Unknown, 2 Running (pods: Pending, Unknown, Running). */
    static int phaseRank(VirtualMachineInstance vmi) {
        VmiPhase phase = vmi.phase().orElse(null);
        if (phase == VmiPhase.RUNNING) {
            return 2;
        }
        return phase == VmiPhase.UNKNOWN ? 1 : 0;
    }

    private static Instant created(VirtualMachineInstance vmi) {
        String ts = vmi.getMetadata().getCreationTimestamp();
        try {
            return ts == null ? Instant.MAX : Instant.parse(ts);
        } catch (java.time.format.DateTimeParseException e) {
            return Instant.MAX;
        }
    }
}
