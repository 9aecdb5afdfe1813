package dev.drainboard.labels;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Splits label selector text into tokens exactly where apimachinery's labels.Lexer does. */
final class LabelSelectorLexer {
    enum Kind {
        END, IDENTIFIER, IN, NOT_IN, OPEN_PAREN, CLOSE_PAREN, COMMA,
        DOES_NOT_EXIST, EQUALS, DOUBLE_EQUALS, NOT_EQUALS, GREATER_THAN, LESS_THAN
    }

    record Token(Kind kind, String literal) {
    }

    private static final Map<String, Kind> KEYWORDS = Map.ofEntries(
            Map.entry(")", Kind.CLOSE_PAREN),
            Map.entry(",", Kind.COMMA),
            Map.entry("!", Kind.DOES_NOT_EXIST),
            Map.entry("==", Kind.DOUBLE_EQUALS),
            Map.entry("=", Kind.EQUALS),
            Map.entry(">", Kind.GREATER_THAN),
            Map.entry("in", Kind.IN),
            Map.entry("<", Kind.LESS_THAN),
            Map.entry("!=", Kind.NOT_EQUALS),
            Map.entry("notin", Kind.NOT_IN),
            Map.entry("(", Kind.OPEN_PAREN));

    /** Like Go's reader, a NUL character reads as the end of input. */
    private static final char END_OF_INPUT = 0;

    private final String text;
    private int position;

    private LabelSelectorLexer(String text) {
        this.text = text;
    }

    /** All tokens of {@code text}, the last one always {@link Kind#END}. */
    static List<Token> tokenize(String text) {
        LabelSelectorLexer lexer = new LabelSelectorLexer(text);
        List<Token> tokens = new ArrayList<>();
        Token token;
        do {
            token = lexer.next();
            tokens.add(token);
        } while (token.kind() != Kind.END);
        return tokens;
    }

    private Token next() {
        char c = read();
        while (isWhitespace(c)) {
            c = read();
        }
        if (c == END_OF_INPUT) {
            return new Token(Kind.END, "");
        }
        unread();
        return isSpecial(c) ? operator() : identifierOrKeyword();
    }

    private Token identifierOrKeyword() {
        StringBuilder word = new StringBuilder();
        while (true) {
            char c = read();
            if (c == END_OF_INPUT) {
                break;
            }
            if (isSpecial(c) || isWhitespace(c)) {
                unread();
                break;
            }
            word.append(c);
        }
        String literal = word.toString();
        return new Token(KEYWORDS.getOrDefault(literal, Kind.IDENTIFIER), literal);
    }

    /** Every special character is an operator on its own; only "==" and "!=" are longer. */
    private Token operator() {
        String single = String.valueOf(read());
        if (position < text.length()) {
            String pair = single + text.charAt(position);
            Kind pairKind = KEYWORDS.get(pair);
            if (pairKind != null) {
                position++;
                return new Token(pairKind, pair);
            }
        }
        return new Token(KEYWORDS.get(single), single);
    }

    private char read() {
        return position < text.length() ? text.charAt(position++) : END_OF_INPUT;
    }

    private void unread() {
        position--;
    }

    private static boolean isWhitespace(char c) {
        return c == ' ' || c == '\t' || c == '\r' || c == '\n';
    }

    private static boolean isSpecial(char c) {
        return switch (c) {
            case '=', '!', '(', ')', ',', '>', '<' -> true;
            default -> false;
        };
    }
}
