package dev.drainboard.validation;

import java.util.List;

/**
 * One field-level validation error, as apimachinery's {@code field.Error} (util/validation/field/errors.go, v1.32):
 * the cause type a Status carries ({@code FieldValueInvalid}…), the field path, the bad value and the detail.
 * {@link #body()} prints it as {@code ErrorBody()} does, so the messages are kube-apiserver's word for word.
 *
 * @param type     the error type
 * @param field    the field path, e.g. {@code metadata.labels}
 * @param badValue the value as Go would print it: a {@link String} (quoted, {@code %q}), a number or boolean
 *                 ({@code %v}), a {@link GoValue} already rendered, or null ({@code null})
 * @param detail   the explanation after the value, or ""
 */
public record FieldError(Type type, String field, Object badValue, String detail) {

    /** field.ErrorType: the Status cause type and the words ErrorBody starts with. */
    public enum Type {
        NOT_FOUND("FieldValueNotFound", "Not found"),
        REQUIRED("FieldValueRequired", "Required value"),
        DUPLICATE("FieldValueDuplicate", "Duplicate value"),
        INVALID("FieldValueInvalid", "Invalid value"),
        NOT_SUPPORTED("FieldValueNotSupported", "Unsupported value"),
        FORBIDDEN("FieldValueForbidden", "Forbidden"),
        TOO_LONG("FieldValueTooLong", "Too long"),
        TOO_MANY("FieldValueTooMany", "Too many"),
        INTERNAL("InternalError", "Internal error");

        private final String causeType;
        private final String words;

        Type(String causeType, String words) {
            this.causeType = causeType;
            this.words = words;
        }

        /** The {@code type} of a Status cause ({@code reason} in the JSON). */
        public String causeType() {
            return causeType;
        }

        public String words() {
            return words;
        }
    }

    /** A value printed verbatim, for Go values that are neither strings nor numbers ({@code %#v} of a slice…). */
    public record GoValue(String rendered) {
        /** {@code %#v} of a {@code []string}: {@code []string{"a", "b"}}, or {@code []string(nil)} when empty. */
        public static GoValue stringSlice(String goType, List<String> values) {
            if (values.isEmpty()) {
                return new GoValue(goType + "(nil)");
            }
            StringBuilder out = new StringBuilder(goType).append('{');
            for (int i = 0; i < values.size(); i++) {
                out.append(i == 0 ? "" : ", ").append(GoStrings.quote(values.get(i)));
            }
            return new GoValue(out.append('}').toString());
        }

        @Override
        public String toString() {
            return rendered;
        }
    }

    public static FieldError required(String field, String detail) {
        return new FieldError(Type.REQUIRED, field, "", detail);
    }

    public static FieldError invalid(String field, Object value, String detail) {
        return new FieldError(Type.INVALID, field, value, detail);
    }

    public static FieldError forbidden(String field, String detail) {
        return new FieldError(Type.FORBIDDEN, field, "", detail);
    }

    public static FieldError duplicate(String field, Object value) {
        return new FieldError(Type.DUPLICATE, field, value, "");
    }

    /** field.NotSupported: the detail lists the supported values, quoted. */
    public static FieldError notSupported(String field, Object value, List<String> supported) {
        String detail = supported.isEmpty() ? "" : "supported values: "
                + String.join(", ", supported.stream().map(GoStrings::quote).toList());
        return new FieldError(Type.NOT_SUPPORTED, field, value, detail);
    }

    /** field.TooLong: the value is never shown. */
    public static FieldError tooLong(String field, int maxBytes) {
        return new FieldError(Type.TOO_LONG, field, "<value omitted>",
                maxBytes >= 0 ? "may not be more than " + maxBytes + " bytes" : "value is too long");
    }

    /** A cause whose text is already worded ({@code Invalid value: …: …}): kept as it is. */
    public static FieldError worded(String field, String body) {
        Type type = body.startsWith(Type.REQUIRED.words()) ? Type.REQUIRED : Type.INVALID;
        return new FieldError(type, field, new Worded(body), "");
    }

    private record Worded(String body) {
    }

    /** ErrorBody(): the type's words, the value for types that show one, then the detail. */
    public String body() {
        if (badValue instanceof Worded worded) {
            return worded.body();
        }
        StringBuilder s = new StringBuilder(type.words());
        boolean showsValue = switch (type) {
            case REQUIRED, FORBIDDEN, TOO_LONG, INTERNAL -> false;
            default -> true;
        };
        if (showsValue) {
            s.append(": ").append(render(badValue));
        }
        if (!detail.isEmpty()) {
            s.append(": ").append(detail);
        }
        return s.toString();
    }

    /** Error(): {@code field: body}. */
    public String text() {
        return field + ": " + body();
    }

    /** Go's {@code %q} of a string. */
    public static String quote(String s) {
        return GoStrings.quote(s);
    }

    private static String render(Object value) {
        if (value == null) {
            return "null";
        }
        if (value instanceof String s) {
            return GoStrings.quote(s);
        }
        return value.toString();
    }
}
