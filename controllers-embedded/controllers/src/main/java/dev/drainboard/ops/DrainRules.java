package dev.drainboard.ops;

import dev.drainboard.admission.EvictionAdmitter;
import dev.drainboard.architecture.Pure;
import dev.drainboard.kubevirt.KubeVirtMessages;
import dev.drainboard.kubevirt.api.VirtualMachineInstance;
import io.fabric8.kubernetes.api.model.Pod;

/** The drain loop's small decisions, pure so that tables test them. */
@Pure
final class DrainRules {

    private DrainRules() {
    }

    /** What a 429 means for the pod: waiting for its VMI to move away, or blocked until something else changes. */
    static PodState afterRefusal(PodPreview preview, VirtualMachineInstance vmi, String message) {
        String notMigratable = KubeVirtMessages.NOT_LIVE_MIGRATABLE.formatted(preview.vmi() == null ? "" : preview.vmi());
        if (message != null && message.endsWith(notMigratable)) {
            return PodState.BLOCKED;
        }
        boolean evacuating = vmi != null && vmi.isMarkedForEviction()
                || message != null && message.contains("Eviction triggered evacuation of VMI");
        if (preview.vmi() != null && evacuating) {
            return PodState.WAITING_FOR_MIGRATION;
        }
        return PodState.BLOCKED;
    }

    /** The state a pod is in by what the API shows of it (null: unchanged by this observation). */
    static PodState observed(PodState current, String trackedUid, Pod seen) {
        if (current.isFinal()) {
            return null;
        }
        if (seen == null || trackedUid != null && !trackedUid.equals(seen.getMetadata().getUid())) {
            return PodState.GONE;
        }
        if (seen.getMetadata().getDeletionTimestamp() != null && current != PodState.EVICTED) {
            return PodState.EVICTED;
        }
        return null;
    }

    /** Whether a change of this VMI can change the answer for the pod. */
    static boolean concerns(PodPreview preview, VirtualMachineInstance vmi) {
        return preview.vmi() != null && preview.vmi().equals(vmi.getMetadata().getName())
                && preview.namespace().equals(vmi.getMetadata().getNamespace());
    }

    static boolean isLauncher(Pod pod) {
        return EvictionAdmitter.isLauncher(pod);
    }
}
