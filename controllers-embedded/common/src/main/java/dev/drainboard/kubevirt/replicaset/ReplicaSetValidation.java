package dev.drainboard.kubevirt.replicaset;

import dev.drainboard.kubevirt.KubeVirtMessages;
import dev.drainboard.kubevirt.api.VirtualMachineInstanceReplicaSet;
import dev.drainboard.kubevirt.api.VirtualMachineInstanceReplicaSetSpec;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * What a VMIRS must satisfy to be stored, as KubeVirt's VMIRS admission webhook and the ReplicaSet API checks
 * decide: a template, a selector that parses, is not empty and matches the template's labels, and
 * {@code replicas ≥ 0}. Used by the embedded API server (create and update: 422 Invalid, nothing stored), by the ops
 * layer before it writes, and by the controller as its guard. Pure.
 */
public final class ReplicaSetValidation {

    /** One problem: the field path and kube's text for it ({@code Required value: …}, {@code Invalid value: …}). */
    public record FieldError(String field, String message) {
        @Override
        public String toString() {
            return field + ": " + message;
        }
    }

    private ReplicaSetValidation() {
    }

    /** Every problem of the VMIRS's spec, in field order; empty when it may be stored. */
    public static List<FieldError> validate(VirtualMachineInstanceReplicaSet rs) {
        List<FieldError> errors = new ArrayList<>();
        VirtualMachineInstanceReplicaSetSpec spec = rs.getSpec();
        if (spec == null) {
            errors.add(new FieldError("spec", "Required value"));
            return errors;
        }
        if (spec.getReplicas() != null && spec.getReplicas() < 0) {
            errors.add(new FieldError("spec.replicas", "Invalid value: " + spec.getReplicas() + ": must be greater than or equal to 0"));
        }
        ReplicaSetSelector selector = null;
        if (spec.getSelector() == null) {
            errors.add(new FieldError("spec.selector", "Required value"));
        } else {
            try {
                selector = ReplicaSetSelector.parse(spec.getSelector());
                if (selector.isEmpty()) {
                    errors.add(new FieldError("spec.selector",
                            "Invalid value: {}: empty selector is invalid for a VirtualMachineInstanceReplicaSet (it would select every VMI of the namespace)"));
                    selector = null;
                }
            } catch (ReplicaSetSelector.InvalidSelectorException e) {
                errors.add(new FieldError("spec.selector", e.getMessage()));
            }
        }
        if (spec.getTemplate() == null) {
            errors.add(new FieldError("spec.template", "Required value: " + KubeVirtMessages.RS_MISSING_TEMPLATE));
        } else if (selector != null) {
            Map<String, String> labels = spec.getTemplate().getMetadata() == null ? null : spec.getTemplate().getMetadata().getLabels();
            if (!selector.matches(labels)) {
                errors.add(new FieldError("spec.selector", "Invalid value: \"" + selector + "\": " + KubeVirtMessages.RS_SELECTOR_MISMATCH
                        + " (template labels: " + (labels == null || labels.isEmpty() ? "none" : labelsText(labels)) + ")"));
            }
        }
        return errors;
    }

    /** The errors as one line, kube-style: {@code a: x} or {@code [a: x, b: y]}. */
    public static String describe(List<FieldError> errors) {
        if (errors.size() == 1) {
            return errors.getFirst().toString();
        }
        return errors.stream().map(FieldError::toString).collect(java.util.stream.Collectors.joining(", ", "[", "]"));
    }

    private static String labelsText(Map<String, String> labels) {
        return new java.util.TreeMap<>(labels).entrySet().stream().map(e -> e.getKey() + "=" + e.getValue())
                .collect(java.util.stream.Collectors.joining(","));
    }
}
