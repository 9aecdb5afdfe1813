package dev.drainboard.cluster.apiserver.select;

import dev.drainboard.labels.SelectorException;
import java.util.ArrayList;
import java.util.List;

/** The {@code fieldSelector=} syntax of apimachinery's fields.ParseSelector, backslash escapes included. */
final class FieldSelectorSyntax {
    /** Tried in this order at each position, so "a!=b" is not read as "a!" = "b". */
    private static final List<String> OPERATORS = List.of("!=", "==", "=");

    private FieldSelectorSyntax() {
    }

    /** The terms of {@code text} in apimachinery's order (sorted as written), empty terms dropped. */
    static List<FieldRequirement> parse(String text) throws SelectorException {
        List<String> terms = splitOnUnescapedCommas(text);
        terms.sort(null);
        List<FieldRequirement> requirements = new ArrayList<>();
        for (String term : terms) {
            if (!term.isEmpty()) {
                requirements.add(requirement(text, term));
            }
        }
        return requirements;
    }

    private static FieldRequirement requirement(String text, String term) throws SelectorException {
        for (int i = 0; i < term.length(); i++) {
            for (String operator : OPERATORS) {
                if (term.startsWith(operator, i)) {
                    String value = unescape(term.substring(i + operator.length()));
                    return new FieldRequirement(term.substring(0, i), value, !operator.equals("!="));
                }
            }
        }
        throw new SelectorException("invalid selector: '" + text + "'; can't understand '" + term + "'");
    }

    /** A backslash protects the next character, so "a=x\,y" is one term; the backslash stays for unescape. */
    private static List<String> splitOnUnescapedCommas(String text) {
        List<String> terms = new ArrayList<>();
        if (text.isEmpty()) {
            return terms;
        }
        int start = 0;
        boolean escaped = false;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (escaped) {
                escaped = false;
            } else if (c == '\\') {
                escaped = true;
            } else if (c == ',') {
                terms.add(text.substring(start, i));
                start = i + 1;
            }
        }
        terms.add(text.substring(start));
        return terms;
    }

    /** fields.UnescapeValue: only \\, \, and \= are escapes, and , or = must be escaped. */
    static String unescape(String raw) throws SelectorException {
        StringBuilder value = new StringBuilder();
        boolean escaped = false;
        for (int i = 0; i < raw.length(); ) {
            int c = raw.codePointAt(i);
            i += Character.charCount(c);
            if (escaped) {
                if (c != '\\' && c != ',' && c != '=') {
                    throw new SelectorException("invalid field selector: invalid escape sequence: \\" + Character.toString(c));
                }
                value.appendCodePoint(c);
                escaped = false;
            } else if (c == '\\') {
                escaped = true;
            } else if (c == ',' || c == '=') {
                // Go prints the offending rune with %v, i.e. as its code point number.
                throw new SelectorException("invalid field selector: unescaped character in value: " + c);
            } else {
                value.appendCodePoint(c);
            }
        }
        if (escaped) {
            throw new SelectorException("invalid field selector: invalid escape sequence: \\");
        }
        return value.toString();
    }

    /** fields.EscapeValue, the inverse of {@link #unescape}. */
    static String escape(String value) {
        return value.replace("\\", "\\\\").replace(",", "\\,").replace("=", "\\=");
    }
}
