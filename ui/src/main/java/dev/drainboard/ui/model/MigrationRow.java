package dev.drainboard.ui.model;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * What the console shows of one VirtualMachineInstanceMigration.
 *
 * @param cause          why it exists: the {@code drainboard.dev/migration-cause} annotation, else what KubeVirt's own
 *                       annotations say (evacuation, workload update), else {@code requested}
 * @param sourcePod      {@code migrationState.sourcePod}, empty until the handoff
 * @param targetPod      {@code migrationState.targetPod}, empty until the target pod exists
 * @param since          when it took a migration slot: its creation (the throttles count it from then on)
 * @param until          when it became final (end timestamp, else the final phase's transition time); null while
 *                       in flight
 * @param progress       the transfer as last reported by the source node; null before the transfer starts
 * @param failureReason  {@code migrationState.failureReason}, empty if none
 * @param priority       {@code spec.priority} ({@code system-critical}, {@code user-triggered},
 *                       {@code system-maintenance}) with the migration priority queue (KubeVirt v1.7+); empty if none
 * @param waiting        why it has not started ({@code dev.drainboard.ops.WhyPendingDecision}: a slot limit, a back-off,
 *                       the target pod unschedulable, the PDB expansion, queued); empty once under way
 */
public record MigrationRow(
        String namespace,
        String name,
        String uid,
        String vmi,
        String phase,
        String sourceNode,
        String targetNode,
        String sourcePod,
        String targetPod,
        String cause,
        String started,
        String ended,
        String created,
        Instant since,
        Instant until,
        TransferProgress progress,
        String failureReason,
        String priority,
        String waiting) implements Row {

    /** A row without a priority (KubeVirt before v1.7, or the queue off) that does not wait. */
    public MigrationRow(String namespace, String name, String uid, String vmi, String phase, String sourceNode,
                        String targetNode, String sourcePod, String targetPod, String cause, String started, String ended,
                        String created, Instant since, Instant until, TransferProgress progress, String failureReason) {
        this(namespace, name, uid, vmi, phase, sourceNode, targetNode, sourcePod, targetPod, cause, started, ended,
                created, since, until, progress, failureReason, "", "");
    }

    /** A row with its priority, not (yet) saying why it waits. */
    public MigrationRow(String namespace, String name, String uid, String vmi, String phase, String sourceNode,
                        String targetNode, String sourcePod, String targetPod, String cause, String started, String ended,
                        String created, Instant since, Instant until, TransferProgress progress, String failureReason,
                        String priority) {
        this(namespace, name, uid, vmi, phase, sourceNode, targetNode, sourcePod, targetPod, cause, started, ended,
                created, since, until, progress, failureReason, priority, "");
    }

    /** The same row saying why it waits. */
    public MigrationRow withWaiting(String why) {
        return new MigrationRow(namespace, name, uid, vmi, phase, sourceNode, targetNode, sourcePod, targetPod, cause,
                started, ended, created, since, until, progress, failureReason, priority, why == null ? "" : why);
    }

    /** The phase of a migration deleted before it finished (KubeVirt has no such phase: the object is gone). */
    public static final String CANCELLED = "Cancelled";

    /** Succeeded, Failed or Cancelled: nothing will happen to it any more. */
    public boolean finished() {
        return "Succeeded".equals(phase) || "Failed".equals(phase) || CANCELLED.equals(phase);
    }

    /** Cancelled or Failed: it did not move the VMI. */
    public boolean aborted() {
        return "Failed".equals(phase) || CANCELLED.equals(phase);
    }

    /**
     * What the console keeps showing once the VMIM is deleted: a migration deleted before it finished as Cancelled
     * (ended {@code now}), a failed one as it was (KubeVirt garbage-collects all but the newest finished ones);
     * null for a succeeded one, which goes.
     */
    public MigrationRow afterDeletion(Instant now) {
        if ("Succeeded".equals(phase)) {
            return null;
        }
        if ("Failed".equals(phase) || CANCELLED.equals(phase)) {
            return this;
        }
        return asCancelled(now);
    }

    /**
     * This migration as cancelled: its VMIM is being deleted (KubeVirt then fails or aborts it and lets it go), so it
     * ends Cancelled, at its own end or {@code now}, with KubeVirt's reason if it gave one.
     */
    public MigrationRow asCancelled(Instant now) {
        if ("Succeeded".equals(phase) || CANCELLED.equals(phase)) {
            return this;
        }
        return new MigrationRow(namespace, name, uid, vmi, CANCELLED, sourceNode, targetNode, sourcePod, targetPod, cause,
                started, ended, created, since, until != null ? until : now, progress,
                !failureReason.isEmpty() ? failureReason
                        // Failed is what the abort itself made of it, not the phase it was cancelled in.
                        : "Failed".equals(phase) ? "deleted before it finished (cancelled)"
                        : "deleted before it finished (cancelled) while " + phase);
    }

    public Optional<TransferProgress> transfer() {
        return Optional.ofNullable(progress);
    }

    /** Time since it was created, until it finished (or until {@code now} while in flight). */
    public Duration elapsed(Instant now) {
        Instant end = until != null ? until : now;
        return since == null || end.isBefore(since) ? Duration.ZERO : Duration.between(since, end);
    }

    @Override
    public ObjectRef ref() {
        return new ObjectRef(ObjectRef.Kind.VMIM, namespace, name);
    }

    @Override
    public String searchText() {
        return String.join(" ", namespace, name, vmi, phase, sourceNode, targetNode, cause, priority, waiting);
    }
}
