package dev.drainboard.ops;

import dev.drainboard.labels.LabelSyntax;

import java.util.List;

/**
 * Kubernetes' own syntax checks for names and label values, with the API server's wording, so that an operator
 * sees here the message {@code kubectl} or the API server would give and nothing invalid is ever sent. The rules
 * are apimachinery's util/validation, kept once in {@link LabelSyntax}. Each check returns the list of problems;
 * empty means valid.
 */
public final class KubernetesValidation {

    private KubernetesValidation() {
    }

    /** A key such as {@code example.com/MyName}: an optional DNS subdomain prefix and a name of at most 63 characters. */
    public static List<String> qualifiedName(String value) {
        return LabelSyntax.qualifiedNameProblems(value);
    }

    public static List<String> labelValue(String value) {
        return LabelSyntax.labelValueProblems(value);
    }
}
