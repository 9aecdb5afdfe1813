package dev.drainboard.validation;

import java.nio.charset.StandardCharsets;

/** Go's string formatting where kube-apiserver's messages depend on it. */
public final class GoStrings {

    private GoStrings() {
    }

    /**
     * {@code %q} (strconv.Quote): double quotes, backslash escapes for quotes, backslashes and control characters,
     * printable Unicode kept as it is.
     */
    public static String quote(String s) {
        StringBuilder out = new StringBuilder(s.length() + 2).append('"');
        s.codePoints().forEach(c -> {
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case 0x07 -> out.append("\\a");
                case '\b' -> out.append("\\b");
                case '\f' -> out.append("\\f");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                case 0x0b -> out.append("\\v");
                default -> {
                    if (c < 0x20 || c == 0x7f) {
                        out.append(String.format("\\x%02x", c));
                    } else if (!printable(c)) {
                        out.append(c > 0xffff ? String.format("\\U%08x", c) : String.format("\\u%04x", c));
                    } else {
                        out.appendCodePoint(c);
                    }
                }
            }
        });
        return out.append('"').toString();
    }

    private static boolean printable(int c) {
        if (c < 0x80) {
            return true;
        }
        int type = Character.getType(c);
        return Character.isDefined(c) && type != Character.CONTROL && type != Character.FORMAT
                && type != Character.SURROGATE && type != Character.PRIVATE_USE && type != Character.UNASSIGNED
                && type != Character.LINE_SEPARATOR && type != Character.PARAGRAPH_SEPARATOR
                && !(type == Character.SPACE_SEPARATOR && c != ' ');
    }

    /** {@code len(s)}: Go measures strings in UTF-8 bytes. */
    public static int length(String s) {
        return s.getBytes(StandardCharsets.UTF_8).length;
    }
}
