package dev.drainboard.ui.actions;

import dev.drainboard.ops.KubernetesValidation;
import dev.drainboard.ops.Taints;

import java.util.List;

/**
 * The taint dialog's fields, validated as the API server validates a taint (ops' {@link KubernetesValidation}, with
 * its wording): the key a qualified name, the value a label value, the effect one of the three.
 */
public record TaintForm(String key, String value, String effect) {

    public static final List<String> EFFECTS = List.of(Taints.NO_SCHEDULE, Taints.PREFER_NO_SCHEDULE, Taints.NO_EXECUTE);

    public TaintForm {
        key = key == null ? "" : key.strip();
        value = value == null ? "" : value.strip();
        effect = effect == null ? "" : effect;
    }

    /** KubeVirt's {@code kubevirt.io/drain:NoSchedule}: with it the evacuation controller migrates the node's VMIs away. */
    public static TaintForm kubevirtDrain() {
        return new TaintForm(Taints.KUBEVIRT_DRAIN_KEY, "", Taints.NO_SCHEDULE);
    }

    /** Empty when the key is valid; an empty key is "required" (the dialog shows that as a hint, not an error). */
    public List<String> keyErrors() {
        if (key.isEmpty()) {
            return List.of("a key is required");
        }
        return KubernetesValidation.qualifiedName(key);
    }

    public List<String> valueErrors() {
        return value.isEmpty() ? List.of() : KubernetesValidation.labelValue(value);
    }

    public List<String> effectErrors() {
        if (effect.isEmpty()) {
            return List.of("an effect is required");
        }
        return EFFECTS.contains(effect) ? List.of() : List.of("invalid taint effect: " + effect + ", unsupported taint effect");
    }

    public boolean valid() {
        return keyErrors().isEmpty() && valueErrors().isEmpty() && effectErrors().isEmpty();
    }

    /** {@code key[=value]:Effect}, the argument {@code kubectl taint} takes. */
    public String spec() {
        return key + (value.isEmpty() ? "" : "=" + value) + ":" + effect;
    }

    /**
     * The argument that removes a taint listed as the nodes table lists it ({@code key[=value]:Effect}):
     * {@code key:Effect-}.
     */
    public static String removal(String listed) {
        int colon = listed.lastIndexOf(':');
        String keyValue = colon < 0 ? listed : listed.substring(0, colon);
        String effect = colon < 0 ? "" : listed.substring(colon + 1);
        int equals = keyValue.indexOf('=');
        String key = equals < 0 ? keyValue : keyValue.substring(0, equals);
        return key + (effect.isEmpty() ? "" : ":" + effect) + "-";
    }
}
