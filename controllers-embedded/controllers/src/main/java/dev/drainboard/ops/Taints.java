package dev.drainboard.ops;

import io.fabric8.kubernetes.api.model.Taint;
import io.fabric8.kubernetes.api.model.TaintBuilder;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * {@code kubectl taint} arguments as pure functions: {@code key=value:Effect} and {@code key:Effect} add,
 * {@code key:Effect-} and {@code key-} remove. Keys, values and effects are validated as Kubernetes validates them
 * and errors carry kubectl's wording, so a bad argument is refused before anything is written.
 */
public final class Taints {

    private Taints() {
    }

    public static final String NO_SCHEDULE = "NoSchedule";
    public static final String PREFER_NO_SCHEDULE = "PreferNoSchedule";
    public static final String NO_EXECUTE = "NoExecute";
    public static final Set<String> EFFECTS = Set.of(NO_SCHEDULE, PREFER_NO_SCHEDULE, NO_EXECUTE);

    /** KubeVirt's default {@code nodeDrainTaintKey}: with this taint the evacuation controller migrates VMIs away. */
    public static final String KUBEVIRT_DRAIN_KEY = "kubevirt.io/drain";

    /** {@code kubevirt.io/drain:NoSchedule}. */
    public static Taint kubevirtDrain() {
        return taint(KUBEVIRT_DRAIN_KEY, null, NO_SCHEDULE);
    }

    public static Taint taint(String key, String value, String effect) {
        return new TaintBuilder().withKey(key).withValue(value == null || value.isEmpty() ? null : value).withEffect(effect).build();
    }

    /** Parses and validates taint arguments as {@code kubectl taint NODE <args>} does. */
    public static TaintChange parse(List<String> specs) throws InvalidTaintException {
        List<Taint> toAdd = new ArrayList<>();
        List<Taint> toRemove = new ArrayList<>();
        for (String spec : specs) {
            if (spec.endsWith("-")) {
                // kubectl parses what comes before the "-" as a taint, so KEY, KEY:EFFECT and KEY=VALUE:EFFECT (the
                // value ignored) remove, and a bad key, value or effect is refused the same way as when adding.
                Taint removal = parseTaint(spec.substring(0, spec.length() - 1));
                toRemove.add(taint(removal.getKey(), null, removal.getEffect()));
            } else {
                Taint taint = parseTaint(spec);
                if (taint.getEffect() == null) {
                    throw new InvalidTaintException("invalid taint spec: " + spec);
                }
                for (Taint earlier : toAdd) {
                    if (earlier.getKey().equals(taint.getKey()) && earlier.getEffect().equals(taint.getEffect())) {
                        throw new InvalidTaintException("duplicated taints with the same key and effect: " + goFormat(taint));
                    }
                }
                toAdd.add(taint);
            }
        }
        List<String> conflicts = new ArrayList<>();
        for (Taint add : toAdd) {
            for (Taint remove : toRemove) {
                if (add.getKey().equals(remove.getKey())
                        && (remove.getEffect() == null || add.getEffect().equals(remove.getEffect()))) {
                    conflicts.add("{\"" + remove.getKey() + "\":\"" + Objects.requireNonNullElse(remove.getEffect(), "") + "\"}");
                }
            }
        }
        if (!conflicts.isEmpty()) {
            throw new InvalidTaintException("can not both modify and remove the following taint(s) in the same command: "
                    + String.join(", ", conflicts));
        }
        return new TaintChange(toAdd, toRemove);
    }

    /** One taint {@code key[=value][:Effect]}; the effect may be missing (null) only when removing. */
    public static Taint parseTaint(String spec) throws InvalidTaintException {
        String[] parts = spec.split(":", -1);
        String key;
        String value = null;
        String effect = null;
        switch (parts.length) {
            case 1 -> key = parts[0];
            case 2 -> {
                effect = parts[1];
                validateEffect(effect);
                String[] keyValue = parts[0].split("=", -1);
                if (keyValue.length > 2) {
                    throw new InvalidTaintException("invalid taint spec: " + spec);
                }
                key = keyValue[0];
                if (keyValue.length == 2) {
                    value = keyValue[1];
                    List<String> errors = KubernetesValidation.labelValue(value);
                    if (!errors.isEmpty()) {
                        throw new InvalidTaintException("invalid taint spec: " + spec + ", " + String.join("; ", errors));
                    }
                }
            }
            default -> throw new InvalidTaintException("invalid taint spec: " + spec);
        }
        List<String> errors = KubernetesValidation.qualifiedName(key);
        if (!errors.isEmpty()) {
            throw new InvalidTaintException("invalid taint spec: " + spec + ", " + String.join("; ", errors));
        }
        return taint(key, value, effect);
    }

    static void validateEffect(String effect) throws InvalidTaintException {
        if (!EFFECTS.contains(effect)) {
            throw new InvalidTaintException("invalid taint effect: " + effect + ", unsupported taint effect");
        }
    }

    /**
     * The node's taints after the change, as {@code kubectl taint} computes them: an added taint replaces one with
     * the same key and effect only with {@code overwrite}; removing a taint that is not there is an error.
     */
    public static List<Taint> apply(String nodeName, List<Taint> current, TaintChange change, boolean overwrite)
            throws InvalidTaintException {
        List<Taint> existing = current == null ? List.of() : current;
        if (!overwrite) {
            for (Taint add : change.toAdd()) {
                for (Taint old : existing) {
                    if (add.getKey().equals(old.getKey()) && add.getEffect().equals(old.getEffect())) {
                        throw new InvalidTaintException("Node " + nodeName + " already has " + add.getKey()
                                + " taint(s) with same effect(s) and --overwrite is false");
                    }
                }
            }
        }
        List<String> notFound = new ArrayList<>();
        for (Taint remove : change.toRemove()) {
            boolean found = existing.stream().anyMatch(old -> matchesRemoval(old, remove));
            if (!found) {
                notFound.add("taint \"" + describe(remove) + "\" not found");
            }
        }
        if (!notFound.isEmpty()) {
            throw new InvalidTaintException(String.join("; ", notFound));
        }
        Map<String, Taint> added = new LinkedHashMap<>();
        change.toAdd().forEach(t -> added.put(t.getKey() + ":" + t.getEffect(), t));
        List<Taint> result = new ArrayList<>();
        for (Taint old : existing) {
            if (change.toRemove().stream().anyMatch(r -> matchesRemoval(old, r))) {
                continue;
            }
            Taint replacement = added.remove(old.getKey() + ":" + old.getEffect());
            result.add(replacement == null ? old : replacement);
        }
        result.addAll(added.values());
        return result;
    }

    /** {@code tainted}, {@code untainted} or {@code modified}, as kubectl reports it. */
    public static String verb(TaintChange change) {
        if (change.toRemove().isEmpty()) {
            return "tainted";
        }
        return change.toAdd().isEmpty() ? "untainted" : "modified";
    }

    private static boolean matchesRemoval(Taint old, Taint remove) {
        return old.getKey().equals(remove.getKey()) && (remove.getEffect() == null || remove.getEffect().equals(old.getEffect()));
    }

    /** {@code key=value:Effect}, leaving out what is not set. */
    public static String describe(Taint taint) {
        StringBuilder text = new StringBuilder(taint.getKey());
        if (taint.getValue() != null && !taint.getValue().isEmpty()) {
            text.append('=').append(taint.getValue());
        }
        if (taint.getEffect() != null && !taint.getEffect().isEmpty()) {
            text.append(':').append(taint.getEffect());
        }
        return text.toString();
    }

    /** How kubectl prints a taint struct in its duplicate error: {@code {key value Effect <nil>}}. */
    private static String goFormat(Taint taint) {
        return "{" + taint.getKey() + " " + Objects.requireNonNullElse(taint.getValue(), "") + " " + taint.getEffect() + " <nil>}";
    }
}
