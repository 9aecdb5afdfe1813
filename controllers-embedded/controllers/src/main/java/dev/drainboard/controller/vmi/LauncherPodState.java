package dev.drainboard.controller.vmi;

import dev.drainboard.kubevirt.KubeVirtLabels;
import dev.drainboard.kubevirt.api.VirtualMachineInstance;
import io.fabric8.kubernetes.api.model.Pod;

import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/** Facts about a VMI's pods that the phase machine reads. Pure. */
public final class LauncherPodState {

    private static final Comparator<Pod> NEWEST_FIRST = Comparator
            .comparing((Pod p) -> Objects.requireNonNullElse(p.getMetadata().getCreationTimestamp(), ""))
            .thenComparing(p -> Objects.requireNonNullElse(p.getMetadata().getName(), ""))
            .reversed();

    private LauncherPodState() {
    }

    /** The pod is controlled by this VMI (same uid: a pod of an earlier VMI of the same name does not count). */
    public static boolean ownedBy(Pod pod, VirtualMachineInstance vmi) {
        String uid = vmi.getMetadata().getUid();
        return pod.getMetadata().getOwnerReferences() != null && pod.getMetadata().getOwnerReferences().stream()
                .anyMatch(ref -> Boolean.TRUE.equals(ref.getController()) && Objects.equals(uid, ref.getUid()));
    }

    /**
     * The pod that runs (or is to run) the VMI: on {@code status.nodeName} once it is set; before, the newest pod that
     * is not a migration target.
     */
    public static Optional<Pod> currentPod(VirtualMachineInstance vmi, List<Pod> pods) {
        String node = vmi.getStatus() == null ? null : vmi.getStatus().getNodeName();
        return pods.stream()
                .filter(p -> node == null || node.isEmpty()
                        ? !isMigrationTarget(p)
                        : node.equals(p.getSpec() == null ? null : p.getSpec().getNodeName()))
                .min(NEWEST_FIRST);
    }

    public static boolean isMigrationTarget(Pod pod) {
        return pod.getMetadata().getLabels() != null && pod.getMetadata().getLabels().containsKey(KubeVirtLabels.MIGRATION_JOB_UID);
    }

    public static boolean isTerminating(Pod pod) {
        return pod.getMetadata().getDeletionTimestamp() != null;
    }

    /** Succeeded or Failed: the launcher exited (restartPolicy Never: for good). */
    public static boolean isFinished(Pod pod) {
        String phase = pod.getStatus() == null ? null : pod.getStatus().getPhase();
        return "Succeeded".equals(phase) || "Failed".equals(phase);
    }

    public static boolean isFailed(Pod pod) {
        return pod.getStatus() != null && "Failed".equals(pod.getStatus().getPhase());
    }

    public static boolean isDownOrGoingDown(Pod pod) {
        return isTerminating(pod) || isFinished(pod);
    }

    public static boolean isRunning(Pod pod) {
        return pod.getStatus() != null && "Running".equals(pod.getStatus().getPhase());
    }

    public static boolean isReady(Pod pod) {
        return hasTrueCondition(pod, "Ready");
    }

    public static boolean hasTrueCondition(Pod pod, String type) {
        return pod.getStatus() != null && pod.getStatus().getConditions() != null && pod.getStatus().getConditions().stream()
                .anyMatch(c -> type.equals(c.getType()) && "True".equals(c.getStatus()));
    }
}
