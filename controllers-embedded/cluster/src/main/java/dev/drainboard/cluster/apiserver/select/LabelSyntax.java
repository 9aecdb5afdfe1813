package dev.drainboard.cluster.apiserver.select;

import dev.drainboard.cluster.apiserver.validation.Names;

import java.util.List;
import java.util.Optional;

/**
 * Label key and value rules of apimachinery's util/validation (IsQualifiedName, IsValidLabelValue), worded as label
 * selector errors: a key's or value's problems joined by "; ". The rules themselves are {@link Names}'.
 */
final class LabelSyntax {

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
        List<String> problems = Names.labelValue(value);
        return problems.isEmpty()
                ? Optional.empty()
                : Optional.of(ValidationMessages.invalid(path, value, String.join("; ", problems)));
    }
}
