package dev.drainboard.ops;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Kubernetes' own syntax checks for names and label values, with the API server's wording, so that an operator
 * sees here the message {@code kubectl} or the API server would give and nothing invalid is ever sent.
 * Each check returns the list of problems; empty means valid.
 */
public final class KubernetesValidation {

    private KubernetesValidation() {
    }

    private static final String QUALIFIED_NAME_FMT = "([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]";
    private static final Pattern QUALIFIED_NAME = Pattern.compile("^" + QUALIFIED_NAME_FMT + "$");
    private static final String QUALIFIED_NAME_ERR =
            "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
    static final int QUALIFIED_NAME_MAX = 63;

    private static final String LABEL_VALUE_FMT = "(" + QUALIFIED_NAME_FMT + ")?";
    private static final Pattern LABEL_VALUE = Pattern.compile("^" + LABEL_VALUE_FMT + "$");
    private static final String LABEL_VALUE_ERR = "a valid label must be an empty string or consist of alphanumeric "
            + "characters, '-', '_' or '.', and must start and end with an alphanumeric character";
    static final int LABEL_VALUE_MAX = 63;

    private static final String DNS1123_LABEL_FMT = "[a-z0-9]([-a-z0-9]*[a-z0-9])?";
    private static final String DNS1123_SUBDOMAIN_FMT = DNS1123_LABEL_FMT + "(\\." + DNS1123_LABEL_FMT + ")*";
    private static final Pattern DNS1123_SUBDOMAIN = Pattern.compile("^" + DNS1123_SUBDOMAIN_FMT + "$");
    private static final String DNS1123_SUBDOMAIN_ERR = "a lowercase RFC 1123 subdomain must consist of lower case "
            + "alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character";
    static final int DNS1123_SUBDOMAIN_MAX = 253;

    /** A key such as {@code example.com/MyName}: an optional DNS subdomain prefix and a name of at most 63 characters. */
    public static List<String> qualifiedName(String value) {
        List<String> errors = new ArrayList<>();
        String[] parts = value.split("/", -1);
        String name;
        switch (parts.length) {
            case 1 -> name = parts[0];
            case 2 -> {
                String prefix = parts[0];
                name = parts[1];
                if (prefix.isEmpty()) {
                    errors.add("prefix part " + emptyError());
                } else {
                    dns1123Subdomain(prefix).forEach(e -> errors.add("prefix part " + e));
                }
            }
            default -> {
                errors.add("a qualified name " + regexError(QUALIFIED_NAME_ERR, QUALIFIED_NAME_FMT, "MyName", "my.name", "123-abc")
                        + " with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')");
                return errors;
            }
        }
        if (name.isEmpty()) {
            errors.add("name part " + emptyError());
        } else if (name.length() > QUALIFIED_NAME_MAX) {
            errors.add("name part " + maxLenError(QUALIFIED_NAME_MAX));
        }
        if (!QUALIFIED_NAME.matcher(name).matches()) {
            errors.add("name part " + regexError(QUALIFIED_NAME_ERR, QUALIFIED_NAME_FMT, "MyName", "my.name", "123-abc"));
        }
        return errors;
    }

    public static List<String> labelValue(String value) {
        List<String> errors = new ArrayList<>();
        if (value.length() > LABEL_VALUE_MAX) {
            errors.add(maxLenError(LABEL_VALUE_MAX));
        }
        if (!LABEL_VALUE.matcher(value).matches()) {
            errors.add(regexError(LABEL_VALUE_ERR, LABEL_VALUE_FMT, "MyValue", "my_value", "12345"));
        }
        return errors;
    }

    static List<String> dns1123Subdomain(String value) {
        List<String> errors = new ArrayList<>();
        if (value.length() > DNS1123_SUBDOMAIN_MAX) {
            errors.add(maxLenError(DNS1123_SUBDOMAIN_MAX));
        }
        if (!DNS1123_SUBDOMAIN.matcher(value).matches()) {
            errors.add(regexError(DNS1123_SUBDOMAIN_ERR, DNS1123_SUBDOMAIN_FMT, "example.com"));
        }
        return errors;
    }

    static String emptyError() {
        return "must be non-empty";
    }

    static String maxLenError(int length) {
        return "must be no more than " + length + " characters";
    }

    /** The API server's phrasing: the rule, examples, then the regular expression. */
    static String regexError(String message, String format, String... examples) {
        StringBuilder text = new StringBuilder(message).append(" (e.g. ");
        for (int i = 0; i < examples.length; i++) {
            if (i > 0) {
                text.append(" or ");
            }
            text.append('\'').append(examples[i]).append("', ");
        }
        return text.append("regex used for validation is '").append(format).append("')").toString();
    }
}
