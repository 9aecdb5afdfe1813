package dev.drainboard.labels;

import dev.drainboard.labels.LabelSelectorLexer.Kind;
import dev.drainboard.labels.LabelSelectorLexer.Token;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;

/**
 * The recursive-descent grammar of apimachinery's labels.Parse, with its error messages:
 * <pre>
 *   selector    ::= requirement ("," requirement)*
 *   requirement ::= ["!"] KEY [ ("in" | "notin") "(" VALUE ("," VALUE)* ")" | ("=" | "==" | "!=" | ">" | "<") VALUE ]
 * </pre>
 */
final class LabelSelectorParser {
    /** Where "in" and "notin" are read: as operators after a key, as plain words where a value may stand. */
    private enum Context { OPERATOR, VALUE }

    /** Key errors found while parsing have no field path; Go prints the nil path as "<nil>". */
    private static final String PARSER_PATH = "<nil>";

    private final List<Token> tokens;
    private int position;

    private LabelSelectorParser(List<Token> tokens) {
        this.tokens = tokens;
    }

    static List<LabelRequirement> parse(String text) throws SelectorException {
        return new LabelSelectorParser(LabelSelectorLexer.tokenize(text)).requirements();
    }

    private List<LabelRequirement> requirements() throws SelectorException {
        List<LabelRequirement> requirements = new ArrayList<>();
        while (true) {
            Token next = peek(Context.VALUE);
            switch (next.kind()) {
                case END -> {
                    return requirements;
                }
                case IDENTIFIER, DOES_NOT_EXIST -> {
                    requirements.add(requirementReportingFailure());
                    Token separator = take(Context.VALUE);
                    switch (separator.kind()) {
                        case END -> {
                            return requirements;
                        }
                        case COMMA -> {
                            Token afterComma = peek(Context.VALUE);
                            if (afterComma.kind() != Kind.IDENTIFIER && afterComma.kind() != Kind.DOES_NOT_EXIST) {
                                throw found(afterComma, "identifier after ','");
                            }
                        }
                        default -> throw found(separator, "',' or 'end of string'");
                    }
                }
                default -> throw found(next, "!, identifier, or 'end of string'");
            }
        }
    }

    private LabelRequirement requirementReportingFailure() throws SelectorException {
        try {
            return requirement();
        } catch (SelectorException e) {
            throw new SelectorException("unable to parse requirement: " + e.getMessage());
        }
    }

    private LabelRequirement requirement() throws SelectorException {
        boolean negated = peek(Context.VALUE).kind() == Kind.DOES_NOT_EXIST;
        if (negated) {
            take(Context.VALUE);
        }
        Token key = take(Context.VALUE);
        if (key.kind() != Kind.IDENTIFIER) {
            throw found(key, "identifier");
        }
        var keyError = LabelSyntax.keyError(key.literal(), PARSER_PATH);
        if (keyError.isPresent()) {
            throw new SelectorException(keyError.get());
        }
        if (negated) {
            // "!key" never takes an operator; anything after it is reported by the caller.
            return LabelRequirement.create(key.literal(), LabelOperator.DOES_NOT_EXIST, List.of());
        }
        Kind afterKey = peek(Context.VALUE).kind();
        if (afterKey == Kind.END || afterKey == Kind.COMMA) {
            return LabelRequirement.create(key.literal(), LabelOperator.EXISTS, List.of());
        }
        LabelOperator operator = operator();
        List<String> values = switch (operator) {
            case IN, NOT_IN -> valueSet();
            default -> List.of(exactValue());
        };
        return LabelRequirement.create(key.literal(), operator, values);
    }

    private LabelOperator operator() throws SelectorException {
        Token token = take(Context.OPERATOR);
        return switch (token.kind()) {
            case IN -> LabelOperator.IN;
            case NOT_IN -> LabelOperator.NOT_IN;
            case EQUALS -> LabelOperator.EQUALS;
            case DOUBLE_EQUALS -> LabelOperator.DOUBLE_EQUALS;
            case NOT_EQUALS -> LabelOperator.NOT_EQUALS;
            case GREATER_THAN -> LabelOperator.GREATER_THAN;
            case LESS_THAN -> LabelOperator.LESS_THAN;
            default -> throw found(token, LabelOperator.BINARY_OPERATOR_LIST);
        };
    }

    /** "(a,b)" as a sorted set; empty entries such as in "()" or "(a,)" stand for the empty value. */
    private List<String> valueSet() throws SelectorException {
        Token open = take(Context.VALUE);
        if (open.kind() != Kind.OPEN_PAREN) {
            // apimachinery's message lacks the comma after the literal here.
            throw new SelectorException("found '" + open.literal() + "' expected: '('");
        }
        Token first = peek(Context.VALUE);
        switch (first.kind()) {
            case CLOSE_PAREN -> {
                take(Context.VALUE);
                return List.of("");
            }
            case IDENTIFIER, COMMA -> {
                List<String> values = valueList();
                take(Context.VALUE); // the ")" that valueList stopped at
                return values;
            }
            default -> throw found(first, "',', ')' or identifier");
        }
    }

    private List<String> valueList() throws SelectorException {
        TreeSet<String> values = new TreeSet<>();
        while (true) {
            Token token = take(Context.VALUE);
            switch (token.kind()) {
                case IDENTIFIER -> {
                    values.add(token.literal());
                    Token next = peek(Context.VALUE);
                    if (next.kind() == Kind.CLOSE_PAREN) {
                        return List.copyOf(values);
                    }
                    if (next.kind() != Kind.COMMA) {
                        throw found(next, "',' or ')'");
                    }
                }
                case COMMA -> {
                    if (values.isEmpty()) {
                        values.add(""); // "(,"
                    }
                    Kind next = peek(Context.VALUE).kind();
                    if (next == Kind.CLOSE_PAREN) {
                        values.add(""); // ",)"
                        return List.copyOf(values);
                    }
                    if (next == Kind.COMMA) {
                        values.add(""); // ",,"
                    }
                }
                default -> throw found(token, "',', or identifier");
            }
        }
    }

    private String exactValue() throws SelectorException {
        Kind next = peek(Context.VALUE).kind();
        if (next == Kind.END || next == Kind.COMMA) {
            return "";
        }
        Token value = take(Context.VALUE);
        if (value.kind() != Kind.IDENTIFIER) {
            throw found(value, "identifier");
        }
        return value.literal();
    }

    private Token peek(Context context) {
        return inContext(tokens.get(position), context);
    }

    private Token take(Context context) {
        return inContext(tokens.get(position++), context);
    }

    private static Token inContext(Token token, Context context) {
        boolean keywordAsValue = context == Context.VALUE
                && (token.kind() == Kind.IN || token.kind() == Kind.NOT_IN);
        return keywordAsValue ? new Token(Kind.IDENTIFIER, token.literal()) : token;
    }

    private static SelectorException found(Token token, String expected) {
        return new SelectorException("found '" + token.literal() + "', expected: " + expected);
    }
}
