package dev.drainboard.controller.vmi;

import dev.drainboard.kubevirt.api.Condition;
import dev.drainboard.kubevirt.api.PhaseTransitionTimestamp;
import dev.drainboard.kubevirt.api.VirtualMachineInstanceStatus.NetworkInterface;

import java.util.List;
import java.util.Map;

/**
 * What the VMI controller changes on a VMI: each field is the new value, or null for "leave as it is". Turned into
 * a JSON patch of exactly these paths ({@link VmiPatches}), never a full update: the VMI CRD has no status
 * subresource, and a full write from the partial model could undo what virt-handler or an admission webhook wrote.
 *
 * @param phase                     new {@code status.phase}
 * @param nodeName                  new {@code status.nodeName}
 * @param labels                    labels to set (added or replaced), never null
 * @param conditions                the whole new {@code status.conditions}
 * @param phaseTransitionTimestamps the whole new {@code status.phaseTransitionTimestamps}
 * @param finalizers                the whole new {@code metadata.finalizers}
 * @param interfaces                the whole new {@code status.interfaces}
 */
public record VmiChange(String phase, String nodeName, Map<String, String> labels, List<Condition> conditions,
                        List<PhaseTransitionTimestamp> phaseTransitionTimestamps, List<String> finalizers,
                        List<NetworkInterface> interfaces) {

    public static final VmiChange NONE = new VmiChange(null, null, Map.of(), null, null, null, null);

    public VmiChange {
        labels = Map.copyOf(labels);
    }

    /** A change that leaves the interfaces alone. */
    public VmiChange(String phase, String nodeName, Map<String, String> labels, List<Condition> conditions,
                     List<PhaseTransitionTimestamp> phaseTransitionTimestamps, List<String> finalizers) {
        this(phase, nodeName, labels, conditions, phaseTransitionTimestamps, finalizers, null);
    }

    public boolean isEmpty() {
        return phase == null && nodeName == null && labels.isEmpty() && conditions == null
                && phaseTransitionTimestamps == null && finalizers == null && interfaces == null;
    }
}
