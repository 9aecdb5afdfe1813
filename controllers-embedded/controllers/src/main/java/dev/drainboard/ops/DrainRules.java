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
        // From v1.5 the webhook refuses a launcher pod that is not on its VMI's node as a migration target's: so is the
        // source pod of a migration that has just ended until it exits by itself (virt-api's pod-eviction-admitter.go).
        boolean evacuating = vmi != null && vmi.isMarkedForEviction()
                || message != null && (message.contains("Eviction triggered evacuation of VMI")
                        || message.endsWith(KubeVirtMessages.EVICTION_OF_TARGET_POD));
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

    /**
     * Why a drain refuses to start over blockers (null: it may start): any on this node or on a node drained with it,
     * unless the operator allowed stranding.
     */
    static String refusalForBlockers(DrainPreview own, java.util.List<DrainPreview> others, DrainOptions options) {
        if (options.allowStranded()) {
            return null;
        }
        java.util.List<String> lines = new java.util.ArrayList<>();
        own.blockers().forEach(b -> lines.add(blockerLine(b)));
        for (DrainPreview other : others) {
            other.blockers().forEach(b -> lines.add("node " + other.node() + ": " + blockerLine(b)));
        }
        if (lines.isEmpty()) {
            return null;
        }
        return "refused to start: " + lines.size() + " blocker(s) (--allow-stranded to drain anyway): " + String.join("; ", lines);
    }

    static String blockerLine(Blocker b) {
        return b.kind() + " " + b.key() + ": " + b.reason();
    }

    /** The end message of a drain that got every pod off: and what it left with nowhere to run, if anything. */
    static String drainedWhy(String node, int evicted, java.util.List<Blocker> stranded) {
        String drained = evicted == 0 ? "node " + node + " drained: no pods to evict"
                : "node " + node + " drained: all " + evicted + " evicted pods are gone";
        if (stranded.isEmpty()) {
            return drained;
        }
        return drained + "; " + Blocker.nowhereToRun(stranded);
    }

    /** A pod left behind, in the operator's words: a VMI with strategy External is not waiting for a migration. */
    static String waitingFor(PodPreview preview, PodState state) {
        if (preview.outcome() == PodOutcome.EXTERNAL_EVACUATION && state == PodState.WAITING_FOR_MIGRATION) {
            return "waiting for something outside KubeVirt to remove VMI " + preview.vmi() + " (strategy External)";
        }
        return state.toString();
    }

    static boolean isLauncher(Pod pod) {
        return EvictionAdmitter.isLauncher(pod);
    }
}
