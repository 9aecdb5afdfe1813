package dev.drainboard.controller.vmi;

import io.fabric8.kubernetes.api.model.Pod;

import java.util.List;

/**
 * What one reconcile of a VMI does, as decided by {@link VmiDecision}.
 *
 * @param podToCreate           a launcher pod to create, or null
 * @param podsToDelete          owned pods to delete (default options: each pod's own grace period applies)
 * @param podsToMarkUnpaused    running pods whose readiness gate condition {@code kubevirt.io/virtual-machine-unpaused}
 *                              is to be set True (the VMI is not paused)
 * @param change                the patch to the VMI
 * @param blockedByMigration    a pod was needed but an active migration exists: retry later
 * @param evictionInProgress    the current launcher pod whose descheduler annotation {@code eviction-in-progress} is
 *                              to be added ({@code true}) or removed ({@code false}); null when nothing changes
 *                              (KubeVirt v1.7+, where the VMI controller keeps it in step with the eviction mark)
 */
public record VmiPlan(Pod podToCreate, List<Pod> podsToDelete, List<Pod> podsToMarkUnpaused, VmiChange change,
                      boolean blockedByMigration, EvictionInProgress evictionInProgress) {

    /** Put on ({@code inProgress}) or take off the descheduler's annotation on this pod. */
    public record EvictionInProgress(Pod pod, boolean inProgress) {
    }

    public VmiPlan {
        podsToDelete = List.copyOf(podsToDelete);
        podsToMarkUnpaused = List.copyOf(podsToMarkUnpaused);
    }

    public VmiPlan(Pod podToCreate, List<Pod> podsToDelete, List<Pod> podsToMarkUnpaused, VmiChange change,
                   boolean blockedByMigration) {
        this(podToCreate, podsToDelete, podsToMarkUnpaused, change, blockedByMigration, null);
    }
}
