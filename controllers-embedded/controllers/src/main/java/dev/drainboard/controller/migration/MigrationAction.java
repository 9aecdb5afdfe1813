package dev.drainboard.controller.migration;

import dev.drainboard.kubevirt.api.MigrationState;
import io.fabric8.kubernetes.api.model.Pod;

/** A write the migration controller makes for one VMIM; the loop applies them in order. */
public sealed interface MigrationAction {

    /** What KubeVirt's mutating webhook would have added: the finalizer, the vmi-name label, and the cause. */
    record EnsureMetadata(boolean finalizer, String vmiNameLabel, String cause) implements MigrationAction {
    }

    /** The VMIM is final: let it go. */
    record RemoveFinalizer() implements MigrationAction {
    }

    /**
     * The VMI's PDB to {@code minAvailable: 2}, labelled {@code kubevirt.io/migrationName: <vmim>}, as KubeVirt up to
     * v1.5 expanded it (docs/behaviour.md, "One PodDisruptionBudget per VMI").
     */
    record ExpandBudget(String budgetName, String migrationName) implements MigrationAction {
    }

    record CreateTargetPod(Pod pod) implements MigrationAction {
    }

    /** Deletes a target pod; {@code message} is the event's text. */
    record DeleteTargetPod(String podName, String message) implements MigrationAction {
    }

    /**
     * The hand-off (KubeVirt's {@code handleTargetPodHandoff}): the VMI's {@code status.migrationState} and the target
     * node label, which wakes the target node.
     */
    record HandOff(MigrationState state) implements MigrationAction {
    }

    /**
     * The VMI's migration state marked failed (and completed), e.g. "Target pod is down" (KubeVirt's
     * {@code handleMarkMigrationFailedOnVMI}).
     */
    record MarkVmiMigrationFailed(String reason) implements MigrationAction {
    }

    /** The VMIM was deleted after hand-off: ask the source node to abort ({@code migrationState.abortRequested}). */
    record RequestAbort() implements MigrationAction {
    }

    /**
     * {@code descheduler.alpha.kubernetes.io/eviction-in-progress} on ({@code true}) or off the source pod, as KubeVirt
     * v1.3 to v1.6 did (docs/behaviour.md, "Descheduler annotations").
     */
    record SourcePodEvictionInProgress(String podName, boolean inProgress) implements MigrationAction {
    }
}
