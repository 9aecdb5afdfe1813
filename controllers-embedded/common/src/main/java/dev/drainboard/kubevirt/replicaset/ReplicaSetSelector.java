package dev.drainboard.kubevirt.replicaset;

import dev.drainboard.labels.LabelSelector;
import dev.drainboard.labels.SelectorException;
import io.fabric8.kubernetes.api.model.LabelSelectorRequirement;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * A VMIRS's {@code spec.selector}, checked with the field paths of KubeVirt's VMIRS validation and ready to match VMI
 * labels, with the canonical text the API server prints for it ({@code status.labelSelector}, which the scale
 * subresource hands to {@code kubectl} and the HPA). The rules are metav1.LabelSelectorAsSelector's: keys are
 * qualified names, values are label values, {@code In} and {@code NotIn} need values, {@code Exists} and
 * {@code DoesNotExist} take none. Matching and printing are {@link LabelSelector}'s. Immutable and pure.
 */
public final class ReplicaSetSelector {

    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?");
    private static final Pattern DNS_SUBDOMAIN = Pattern.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*");

    /** Thrown for a selector that cannot be used; the message says what is wrong, field by field. */
    public static final class InvalidSelectorException extends Exception {
        public InvalidSelectorException(String message) {
            super(message);
        }
    }

    private final LabelSelector selector;

    private ReplicaSetSelector(LabelSelector selector) {
        this.selector = selector;
    }

    /**
     * Checks and reads a structured selector.
     *
     * @throws InvalidSelectorException for a null selector, a bad key, value or operator
     */
    public static ReplicaSetSelector parse(io.fabric8.kubernetes.api.model.LabelSelector selector) throws InvalidSelectorException {
        if (selector == null) {
            throw new InvalidSelectorException("Required value");
        }
        List<String> errors = new ArrayList<>();
        Map<String, String> matchLabels = selector.getMatchLabels() == null ? Map.of() : new TreeMap<>(selector.getMatchLabels());
        for (Map.Entry<String, String> label : matchLabels.entrySet()) {
            String value = label.getValue() == null ? "" : label.getValue();
            keyError("matchLabels", label.getKey(), errors);
            valueError("matchLabels[" + label.getKey() + "]", value, errors);
        }
        List<LabelSelectorRequirement> expressions = selector.getMatchExpressions() == null ? List.of() : selector.getMatchExpressions();
        for (int i = 0; i < expressions.size(); i++) {
            LabelSelectorRequirement e = expressions.get(i);
            String at = "matchExpressions[" + i + "]";
            String key = e.getKey() == null ? "" : e.getKey();
            List<String> values = e.getValues() == null ? List.of() : List.copyOf(e.getValues());
            keyError(at + ".key", key, errors);
            String operator = Objects.requireNonNullElse(e.getOperator(), "");
            switch (operator) {
                case "In", "NotIn" -> {
                    if (values.isEmpty()) {
                        errors.add(at + ".values: Required value: must be specified when `operator` is 'In' or 'NotIn'");
                    }
                }
                case "Exists", "DoesNotExist" -> {
                    if (!values.isEmpty()) {
                        errors.add(at + ".values: Forbidden: may not be specified when `operator` is 'Exists' or 'DoesNotExist'");
                    }
                }
                default -> errors.add(at + ".operator: Invalid value: \"" + operator + "\": not a valid selector operator");
            }
            for (int v = 0; v < values.size(); v++) {
                valueError(at + ".values[" + v + "]", values.get(v), errors);
            }
        }
        if (!errors.isEmpty()) {
            throw new InvalidSelectorException(String.join("; ", errors));
        }
        try {
            return new ReplicaSetSelector(LabelSelector.fromModel(selector));
        } catch (SelectorException e) {
            throw new InvalidSelectorException(e.getMessage());
        }
    }

    /** True when the selector has no requirement: it would select every VMI of its namespace. */
    public boolean isEmpty() {
        return selector.isEverything();
    }

    /** Whether these labels (null: none) satisfy every requirement. */
    public boolean matches(Map<String, String> labels) {
        return selector.matches(labels);
    }

    /** The canonical text (sorted by key), as kube-apiserver prints a selector: {@code app=web,tier in (a,b)}. */
    @Override
    public String toString() {
        return selector.toString();
    }

    private static void keyError(String field, String key, List<String> errors) {
        String name = key;
        int slash = key.indexOf('/');
        if (slash >= 0) {
            String prefix = key.substring(0, slash);
            name = key.substring(slash + 1);
            if (prefix.isEmpty() || prefix.length() > 253 || !DNS_SUBDOMAIN.matcher(prefix).matches()) {
                errors.add(field + ": Invalid value: \"" + key + "\": prefix part must be a lowercase RFC 1123 subdomain");
                return;
            }
        }
        if (name.isEmpty() || name.length() > 63 || !NAME.matcher(name).matches()) {
            errors.add(field + ": Invalid value: \"" + key + "\": name part must consist of alphanumeric characters, '-', '_' or '.', "
                    + "must start and end with an alphanumeric character and be at most 63 characters");
        }
    }

    private static void valueError(String field, String value, List<String> errors) {
        if (!value.isEmpty() && (value.length() > 63 || !NAME.matcher(value).matches())) {
            errors.add(field + ": Invalid value: \"" + value + "\": a valid label must be an empty string or consist of alphanumeric "
                    + "characters, '-', '_' or '.', must start and end with an alphanumeric character and be at most 63 characters");
        }
    }
}
