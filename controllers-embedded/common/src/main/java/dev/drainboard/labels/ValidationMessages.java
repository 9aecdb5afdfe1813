package dev.drainboard.labels;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/** Renders errors the way apimachinery's field.Error and utilerrors.Aggregate print them, so messages match kube-apiserver's. */
public final class ValidationMessages {
    private ValidationMessages() {
    }

    /** field.Invalid(path, value, detail).Error() for a string value. */
    public static String invalid(String path, String value, String detail) {
        return invalidRendered(path, quote(value), detail);
    }

    /** field.Invalid(path, values, detail).Error() for a []string value, which Go prints with %#v. */
    public static String invalid(String path, List<String> values, String detail) {
        String rendered = values.isEmpty()
                ? "[]string(nil)"
                : values.stream().map(ValidationMessages::quote).collect(Collectors.joining(", ", "[]string{", "}"));
        return invalidRendered(path, rendered, detail);
    }

    private static String invalidRendered(String path, String renderedValue, String detail) {
        return path + ": Invalid value: " + renderedValue + ": " + detail;
    }

    /** ErrorList.ToAggregate().Error(): duplicates dropped, a single error bare, several bracketed. */
    public static String aggregate(List<String> errors) {
        Set<String> distinct = new LinkedHashSet<>(errors);
        return distinct.size() == 1 ? distinct.iterator().next() : "[" + String.join(", ", distinct) + "]";
    }

    /** Go's %q for the strings that can reach these messages. */
    public static String quote(String s) {
        StringBuilder out = new StringBuilder("\"");
        for (char c : s.toCharArray()) {
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                default -> {
                    if (c < 0x20 || c == 0x7f) {
                        out.append(String.format("\\x%02x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        return out.append('"').toString();
    }
}
