package dev.drainboard.validation;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * The string formats of apimachinery's {@code util/validation/validation.go} (v1.32) with their exact messages: each
 * check returns the problems found, empty when the value is valid.
 */
public final class Names {

    static final String QUALIFIED_NAME_FORMAT = "([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]";
    private static final String QUALIFIED_NAME_MESSAGE =
            "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
    public static final int QUALIFIED_NAME_MAX_LENGTH = 63;
    private static final String LABEL_VALUE_FORMAT = "(" + QUALIFIED_NAME_FORMAT + ")?";
    private static final String LABEL_VALUE_MESSAGE = "a valid label must be an empty string or consist of alphanumeric"
            + " characters, '-', '_' or '.', and must start and end with an alphanumeric character";
    public static final int LABEL_VALUE_MAX_LENGTH = 63;
    private static final String DNS1123_LABEL_FORMAT = "[a-z0-9]([-a-z0-9]*[a-z0-9])?";
    private static final String DNS1123_LABEL_MESSAGE = "a lowercase RFC 1123 label must consist of lower case"
            + " alphanumeric characters or '-', and must start and end with an alphanumeric character";
    public static final int DNS1123_LABEL_MAX_LENGTH = 63;
    private static final String DNS1123_SUBDOMAIN_FORMAT = DNS1123_LABEL_FORMAT + "(\\." + DNS1123_LABEL_FORMAT + ")*";
    private static final String DNS1123_SUBDOMAIN_MESSAGE = "a lowercase RFC 1123 subdomain must consist of lower case"
            + " alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character";
    public static final int DNS1123_SUBDOMAIN_MAX_LENGTH = 253;
    private static final String DNS1035_LABEL_FORMAT = "[a-z]([-a-z0-9]*[a-z0-9])?";
    private static final String DNS1035_LABEL_MESSAGE = "a DNS-1035 label must consist of lower case alphanumeric"
            + " characters or '-', start with an alphabetic character, and end with an alphanumeric character";
    public static final int DNS1035_LABEL_MAX_LENGTH = 63;

    private static final Pattern QUALIFIED_NAME = Pattern.compile(QUALIFIED_NAME_FORMAT);
    private static final Pattern LABEL_VALUE = Pattern.compile(LABEL_VALUE_FORMAT);
    private static final Pattern DNS1123_LABEL = Pattern.compile(DNS1123_LABEL_FORMAT);
    private static final Pattern DNS1123_SUBDOMAIN = Pattern.compile(DNS1123_SUBDOMAIN_FORMAT);
    private static final Pattern DNS1035_LABEL = Pattern.compile(DNS1035_LABEL_FORMAT);

    private Names() {
    }

    /** IsQualifiedName: label keys, annotation keys (lower-cased first), finalizers. */
    public static List<String> qualifiedName(String value) {
        List<String> errs = new ArrayList<>();
        String[] parts = value.split("/", -1);
        String name;
        switch (parts.length) {
            case 1 -> name = parts[0];
            case 2 -> {
                String prefix = parts[0];
                name = parts[1];
                if (prefix.isEmpty()) {
                    errs.add("prefix part " + emptyError());
                } else {
                    dns1123Subdomain(prefix).forEach(m -> errs.add("prefix part " + m));
                }
            }
            default -> {
                return List.of("a qualified name " + regexError(QUALIFIED_NAME_MESSAGE, QUALIFIED_NAME_FORMAT,
                        "MyName", "my.name", "123-abc") + " with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')");
            }
        }
        if (name.isEmpty()) {
            errs.add("name part " + emptyError());
        } else if (GoStrings.length(name) > QUALIFIED_NAME_MAX_LENGTH) {
            errs.add("name part " + maxLenError(QUALIFIED_NAME_MAX_LENGTH));
        }
        if (!QUALIFIED_NAME.matcher(name).matches()) {
            errs.add("name part " + regexError(QUALIFIED_NAME_MESSAGE, QUALIFIED_NAME_FORMAT, "MyName", "my.name", "123-abc"));
        }
        return errs;
    }

    /** IsValidLabelValue. */
    public static List<String> labelValue(String value) {
        List<String> errs = new ArrayList<>();
        if (GoStrings.length(value) > LABEL_VALUE_MAX_LENGTH) {
            errs.add(maxLenError(LABEL_VALUE_MAX_LENGTH));
        }
        if (!LABEL_VALUE.matcher(value).matches()) {
            errs.add(regexError(LABEL_VALUE_MESSAGE, LABEL_VALUE_FORMAT, "MyValue", "my_value", "12345"));
        }
        return errs;
    }

    /** IsDNS1123Label. */
    public static List<String> dns1123Label(String value) {
        List<String> errs = new ArrayList<>();
        if (GoStrings.length(value) > DNS1123_LABEL_MAX_LENGTH) {
            errs.add(maxLenError(DNS1123_LABEL_MAX_LENGTH));
        }
        if (!DNS1123_LABEL.matcher(value).matches()) {
            if (DNS1123_SUBDOMAIN.matcher(value).matches()) {
                // a valid subdomain but not a valid label: with the length checked, it must be the dots
                errs.add("must not contain dots");
            } else {
                errs.add(regexError(DNS1123_LABEL_MESSAGE, DNS1123_LABEL_FORMAT, "my-name", "123-abc"));
            }
        }
        return errs;
    }

    /** IsDNS1123Subdomain. */
    public static List<String> dns1123Subdomain(String value) {
        List<String> errs = new ArrayList<>();
        if (GoStrings.length(value) > DNS1123_SUBDOMAIN_MAX_LENGTH) {
            errs.add(maxLenError(DNS1123_SUBDOMAIN_MAX_LENGTH));
        }
        if (!DNS1123_SUBDOMAIN.matcher(value).matches()) {
            errs.add(regexError(DNS1123_SUBDOMAIN_MESSAGE, DNS1123_SUBDOMAIN_FORMAT, "example.com"));
        }
        return errs;
    }

    /** IsDNS1035Label. */
    public static List<String> dns1035Label(String value) {
        List<String> errs = new ArrayList<>();
        if (GoStrings.length(value) > DNS1035_LABEL_MAX_LENGTH) {
            errs.add(maxLenError(DNS1035_LABEL_MAX_LENGTH));
        }
        if (!DNS1035_LABEL.matcher(value).matches()) {
            errs.add(regexError(DNS1035_LABEL_MESSAGE, DNS1035_LABEL_FORMAT, "my-name", "abc-123"));
        }
        return errs;
    }

    /** IsFullyQualifiedName: a DNS subdomain of at least three segments (webhook names). */
    public static List<FieldError> fullyQualifiedName(String field, String name) {
        if (name.isEmpty()) {
            return List.of(FieldError.required(field, ""));
        }
        List<String> errs = dns1123Subdomain(name);
        if (!errs.isEmpty()) {
            return List.of(FieldError.invalid(field, name, String.join(",", errs)));
        }
        if (name.split("\\.", -1).length < 3) {
            return List.of(FieldError.invalid(field, name, "should be a domain with at least three segments separated by dots"));
        }
        return List.of();
    }

    /** IsValidPortNum. */
    public static List<String> portNumber(long port) {
        return port >= 1 && port <= 65535 ? List.of() : List.of(inclusiveRangeError(1, 65535));
    }

    static String maxLenError(int length) {
        return "must be no more than " + length + " characters";
    }

    static String emptyError() {
        return "must be non-empty";
    }

    static String inclusiveRangeError(int lo, int hi) {
        return "must be between " + lo + " and " + hi + ", inclusive";
    }

    /** RegexError, with its double space before "or" when there are several examples. */
    static String regexError(String message, String format, String... examples) {
        if (examples.length == 0) {
            return message + " (regex used for validation is '" + format + "')";
        }
        StringBuilder out = new StringBuilder(message).append(" (e.g. ");
        for (int i = 0; i < examples.length; i++) {
            if (i > 0) {
                out.append(" or ");
            }
            out.append('\'').append(examples[i]).append("', ");
        }
        return out.append("regex used for validation is '").append(format).append("')").toString();
    }
}
