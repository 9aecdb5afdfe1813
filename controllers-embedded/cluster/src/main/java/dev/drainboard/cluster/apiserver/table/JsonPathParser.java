package dev.drainboard.cluster.apiserver.table;

import java.util.ArrayList;
import java.util.List;

/** Turns a JSONPath expression into {@link JsonPath.Step}s; rejects syntax outside the supported subset. */
final class JsonPathParser {
    private static final List<String> OPERATORS = List.of("==", "!=", "<=", ">=", "<", ">");

    private final String expression;
    private int position;

    JsonPathParser(String expression) {
        this.expression = unwrap(expression.strip());
    }

    List<JsonPath.Step> parse() {
        List<JsonPath.Step> steps = new ArrayList<>();
        if (expression.startsWith("$")) {
            position = 1;
        }
        while (position < expression.length()) {
            char current = expression.charAt(position);
            if (expression.startsWith("..", position)) {
                position += 2;
                steps.add(new JsonPath.RecursiveField(key()));
            } else if (current == '.') {
                position++;
                if (position < expression.length() && expression.charAt(position) != '[') {
                    steps.add(fieldOrWildcard(key()));
                }
            } else if (current == '[') {
                steps.add(bracket());
            } else {
                steps.add(fieldOrWildcard(key())); // a path may start without its leading dot
            }
        }
        return steps;
    }

    private static String unwrap(String expression) {
        return expression.startsWith("{") && expression.endsWith("}")
                ? expression.substring(1, expression.length() - 1).strip()
                : expression;
    }

    private static JsonPath.Step fieldOrWildcard(String key) {
        return key.equals("*") ? new JsonPath.Wildcard() : new JsonPath.Field(key);
    }

    /** A dotted key up to the next unescaped '.' or '['; a backslash makes the next character literal. */
    private String key() {
        StringBuilder key = new StringBuilder();
        while (position < expression.length()) {
            char current = expression.charAt(position);
            if (current == '.' || current == '[') {
                break;
            }
            if (current == '\\' && position + 1 < expression.length()) {
                position++;
                current = expression.charAt(position);
            }
            key.append(current);
            position++;
        }
        if (key.isEmpty()) {
            throw invalid("an empty key");
        }
        return key.toString();
    }

    private JsonPath.Step bracket() {
        int close = closingBracket();
        String content = expression.substring(position + 1, close).strip();
        position = close + 1;
        if (content.equals("*")) {
            return new JsonPath.Wildcard();
        }
        if (content.startsWith("?(") && content.endsWith(")")) {
            return filter(content.substring(2, content.length() - 1).strip());
        }
        if (content.length() >= 2 && (content.startsWith("'") && content.endsWith("'")
                || content.startsWith("\"") && content.endsWith("\""))) {
            return new JsonPath.Field(content.substring(1, content.length() - 1));
        }
        try {
            return new JsonPath.Index(Integer.parseInt(content));
        } catch (NumberFormatException e) {
            throw invalid("the unsupported subscript [" + content + "]");
        }
    }

    /** The ']' closing the bracket at the current position, skipping quoted text and nested brackets. */
    private int closingBracket() {
        char quote = 0;
        int depth = 0;
        for (int index = position; index < expression.length(); index++) {
            char current = expression.charAt(index);
            if (quote != 0) {
                quote = current == quote ? 0 : quote;
            } else if (current == '\'' || current == '"') {
                quote = current;
            } else if (current == '[') {
                depth++;
            } else if (current == ']' && --depth == 0) {
                return index;
            }
        }
        throw invalid("an unclosed '['");
    }

    private JsonPath.Filter filter(String condition) {
        for (int index = 0; index < condition.length(); index++) {
            char current = condition.charAt(index);
            if (current == '\'' || current == '"') {
                break; // operators come before the quoted literal
            }
            for (String operator : OPERATORS) {
                if (condition.startsWith(operator, index)) {
                    return new JsonPath.Filter(relativePath(condition.substring(0, index)), operator,
                            JsonPath.literal(condition.substring(index + operator.length()).strip()));
                }
            }
        }
        return new JsonPath.Filter(relativePath(condition), null, null);
    }

    private List<JsonPath.Step> relativePath(String path) {
        String trimmed = path.strip();
        if (!trimmed.startsWith("@")) {
            throw invalid("a filter that does not start with @");
        }
        return new JsonPathParser(trimmed.substring(1)).parse();
    }

    private IllegalArgumentException invalid(String problem) {
        return new IllegalArgumentException("Unsupported JSONPath " + expression + ": " + problem);
    }
}
