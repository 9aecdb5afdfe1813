package dev.drainboard.labels;

import dev.drainboard.validation.Names;

import java.util.List;
import java.util.Optional;

/**
 * Label key and value rules of apimachinery's util/validation (IsQualifiedName, IsValidLabelValue), worded as label
 * selector errors: a key's or value's problems joined by "; ". The rules themselves are {@link Names}'.
 */
public final class LabelSyntax {

    private LabelSyntax() {
    }

    /** The field error for an invalid label key at {@code path}, if any. */
    static Optional<String> keyError(String key, String path) {
        List<String> problems = Names.qualifiedName(key);
        return problems.isEmpty()
                ? Optional.empty()
                : Optional.of(ValidationMessages.invalid(path, key, String.join("; ", problems)));
    }

    /** The field error for an invalid label value at {@code path}, if any. */
    static Optional<String> valueError(String value, String path) {
        List<String> problems = labelValueProblems(value);
        return problems.isEmpty()
                ? Optional.empty()
                : Optional.of(ValidationMessages.invalid(path, value, String.join("; ", problems)));
    }

    /** IsValidLabelValue: what is wrong with a label value, in kube-apiserver's words; empty when it is valid. */
    public static List<String> labelValueProblems(String value) {
        return Names.labelValue(value);
    }

    /**
     * IsQualifiedName: what is wrong with a label (or taint, annotation) key such as {@code example.com/MyName}, in
     * kube-apiserver's words; empty when it is valid.
     */
    public static List<String> qualifiedNameProblems(String key) {
        return Names.qualifiedName(key);
    }
}
