package dev.drainboard.labels;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Label key and value rules of apimachinery's util/validation (IsQualifiedName, IsValidLabelValue), with the
 * v1.32 wording of their messages.
 */
public final class LabelSyntax {
    private static final String QUALIFIED_NAME_FORMAT = "([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]";
    private static final String QUALIFIED_NAME_MESSAGE =
            "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
    private static final String LABEL_VALUE_FORMAT = "(" + QUALIFIED_NAME_FORMAT + ")?";
    private static final String LABEL_VALUE_MESSAGE = "a valid label must be an empty string or consist of alphanumeric"
            + " characters, '-', '_' or '.', and must start and end with an alphanumeric character";
    private static final String DNS_LABEL_FORMAT = "[a-z0-9]([-a-z0-9]*[a-z0-9])?";
    private static final String DNS_SUBDOMAIN_FORMAT = DNS_LABEL_FORMAT + "(\\." + DNS_LABEL_FORMAT + ")*";
    private static final String DNS_SUBDOMAIN_MESSAGE = "a lowercase RFC 1123 subdomain must consist of lower case"
            + " alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character";
    private static final int NAME_MAX_BYTES = 63;
    private static final int LABEL_VALUE_MAX_BYTES = 63;
    private static final int DNS_SUBDOMAIN_MAX_BYTES = 253;

    private static final Pattern QUALIFIED_NAME = Pattern.compile(QUALIFIED_NAME_FORMAT);
    private static final Pattern LABEL_VALUE = Pattern.compile(LABEL_VALUE_FORMAT);
    private static final Pattern DNS_SUBDOMAIN = Pattern.compile(DNS_SUBDOMAIN_FORMAT);

    private LabelSyntax() {
    }

    /** The field error for an invalid label key at {@code path}, if any. */
    static Optional<String> keyError(String key, String path) {
        List<String> problems = qualifiedNameProblems(key);
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
        List<String> problems = new ArrayList<>();
        if (byteLength(value) > LABEL_VALUE_MAX_BYTES) {
            problems.add(maxLength(LABEL_VALUE_MAX_BYTES));
        }
        if (!LABEL_VALUE.matcher(value).matches()) {
            problems.add(regexProblem(LABEL_VALUE_MESSAGE, LABEL_VALUE_FORMAT, "MyValue", "my_value", "12345"));
        }
        return problems;
    }

    /**
     * IsQualifiedName: what is wrong with a label (or taint, annotation) key such as {@code example.com/MyName}, in
     * kube-apiserver's words; empty when it is valid.
     */
    public static List<String> qualifiedNameProblems(String key) {
        List<String> problems = new ArrayList<>();
        String[] parts = key.split("/", -1);
        String name;
        switch (parts.length) {
            case 1 -> name = parts[0];
            case 2 -> {
                String prefix = parts[0];
                name = parts[1];
                if (prefix.isEmpty()) {
                    problems.add("prefix part must be non-empty");
                } else {
                    dnsSubdomainProblems(prefix).forEach(p -> problems.add("prefix part " + p));
                }
            }
            default -> {
                return List.of("a qualified name "
                        + regexProblem(QUALIFIED_NAME_MESSAGE, QUALIFIED_NAME_FORMAT, "MyName", "my.name", "123-abc")
                        + " with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')");
            }
        }
        if (name.isEmpty()) {
            problems.add("name part must be non-empty");
        } else if (byteLength(name) > NAME_MAX_BYTES) {
            problems.add("name part " + maxLength(NAME_MAX_BYTES));
        }
        if (!QUALIFIED_NAME.matcher(name).matches()) {
            problems.add("name part "
                    + regexProblem(QUALIFIED_NAME_MESSAGE, QUALIFIED_NAME_FORMAT, "MyName", "my.name", "123-abc"));
        }
        return problems;
    }

    private static List<String> dnsSubdomainProblems(String value) {
        List<String> problems = new ArrayList<>();
        if (byteLength(value) > DNS_SUBDOMAIN_MAX_BYTES) {
            problems.add(maxLength(DNS_SUBDOMAIN_MAX_BYTES));
        }
        if (!DNS_SUBDOMAIN.matcher(value).matches()) {
            problems.add(regexProblem(DNS_SUBDOMAIN_MESSAGE, DNS_SUBDOMAIN_FORMAT, "example.com"));
        }
        return problems;
    }

    private static String maxLength(int bytes) {
        return "must be no more than " + bytes + " characters";
    }

    /** validation.RegexError, double spaces before "or" included, as kube-apiserver prints it. */
    private static String regexProblem(String message, String format, String... examples) {
        StringBuilder out = new StringBuilder(message).append(" (e.g. ");
        for (int i = 0; i < examples.length; i++) {
            if (i > 0) {
                out.append(" or ");
            }
            out.append('\'').append(examples[i]).append("', ");
        }
        return out.append("regex used for validation is '").append(format).append("')").toString();
    }

    /** Go measures strings in UTF-8 bytes. */
    private static int byteLength(String s) {
        return s.getBytes(StandardCharsets.UTF_8).length;
    }
}
