package dev.drainboard.controller.disruptionbudget;

import dev.drainboard.kubevirt.KubeVirtLabels;
import dev.drainboard.kubevirt.api.VirtualMachineInstance;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;

import java.util.Map;
import java.util.Objects;

/**
 * Which updates can change what {@link DisruptionBudgetDecision} decides: only those get a pass. A VMI changes about
 * five times on its way to Running, its launcher pod as often, and the cluster rewrites its PDB's status each time a
 * pod moves; the decision reads none of the status fields that change along the way.
 */
final class BudgetRelevance {

    private BudgetRelevance() {
    }

    /** The VMI fields the decision reads: identity, deletion, eviction strategy, migratability, final phase. */
    static boolean vmiChanged(VirtualMachineInstance before, VirtualMachineInstance after) {
        return !Objects.equals(before.getMetadata().getUid(), after.getMetadata().getUid())
                || (before.getMetadata().getDeletionTimestamp() == null) != (after.getMetadata().getDeletionTimestamp() == null)
                || !Objects.equals(strategy(before), strategy(after))
                || before.isMigratable() != after.isMigratable()
                || before.isFinal() != after.isFinal();
    }

    /** A pod counts as an active launcher of a VMI (its label and owner) until it terminates or finishes. */
    static boolean podChanged(Pod before, Pod after) {
        return !Objects.equals(createdBy(before), createdBy(after))
                || !Objects.equals(before.getMetadata().getOwnerReferences(), after.getMetadata().getOwnerReferences())
                || active(before) != active(after);
    }

    /** Anything but the status (which the cluster keeps) and the resourceVersion. */
    static boolean budgetChanged(PodDisruptionBudget before, PodDisruptionBudget after) {
        var b = before.getMetadata();
        var a = after.getMetadata();
        return !Objects.equals(b.getDeletionTimestamp(), a.getDeletionTimestamp())
                || !Objects.equals(b.getOwnerReferences(), a.getOwnerReferences())
                || !Objects.equals(b.getAnnotations(), a.getAnnotations())
                || !Objects.equals(b.getLabels(), a.getLabels())
                || !Objects.equals(before.getSpec(), after.getSpec());
    }

    private static String strategy(VirtualMachineInstance vmi) {
        return vmi.getSpec() == null ? null : vmi.getSpec().getEvictionStrategy();
    }

    private static String createdBy(Pod pod) {
        Map<String, String> labels = pod.getMetadata().getLabels();
        return labels == null ? null : labels.get(KubeVirtLabels.CREATED_BY);
    }

    private static boolean active(Pod pod) {
        String phase = pod.getStatus() == null ? null : pod.getStatus().getPhase();
        return pod.getMetadata().getDeletionTimestamp() == null && !"Succeeded".equals(phase) && !"Failed".equals(phase);
    }
}
