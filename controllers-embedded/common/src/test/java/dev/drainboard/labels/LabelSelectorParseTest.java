package dev.drainboard.labels;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class LabelSelectorParseTest {
    private static final String VALUE_RULE = "a valid label must be an empty string or consist of alphanumeric characters,"
            + " '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value', "
            + " or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";
    private static final String NAME_RULE = "must consist of alphanumeric characters, '-', '_' or '.', and must start"
            + " and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for"
            + " validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
    private static final String SUBDOMAIN_RULE = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric"
            + " characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com',"
            + " regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";

    static Stream<Arguments> canonicalForms() {
        return Stream.of(
                Arguments.of("", ""),
                Arguments.of("   ", ""),
                Arguments.of("a=b", "a=b"),
                Arguments.of("a==b", "a==b"),
                Arguments.of("a!=b", "a!=b"),
                Arguments.of("a in (y,x,y)", "a in (x,y)"),
                Arguments.of("a notin (x)", "a notin (x)"),
                Arguments.of("a", "a"),
                Arguments.of("!a", "!a"),
                Arguments.of("a>1", "a>1"),
                Arguments.of("a<10", "a<10"),
                Arguments.of("a=", "a="),
                Arguments.of("b=1,a=2", "a=2,b=1"),
                Arguments.of("  a  =  b , c ", "a=b,c"),
                Arguments.of("x in (foo,,baz),y,z notin ()", "x in (,baz,foo),y,z notin ()"),
                Arguments.of("a in (,x)", "a in (,x)"),
                Arguments.of("a in (x,)", "a in (,x)"),
                Arguments.of("a in (in,notin)", "a in (in,notin)"),
                Arguments.of("a=in", "a=in"),
                Arguments.of("in=a", "in=a"),
                Arguments.of("app.kubernetes.io/name=web,tier", "app.kubernetes.io/name=web,tier"),
                Arguments.of("a\tin\t(b)", "a in (b)"));
    }

    @ParameterizedTest(name = "[{0}] -> [{1}]")
    @MethodSource("canonicalForms")
    void parsesToCanonicalText(String text, String canonical) throws SelectorException {
        assertThat(LabelSelector.parse(text).toString()).isEqualTo(canonical);
    }

    @Test
    void blankSelectsEverything() throws SelectorException {
        assertThat(LabelSelector.parse("").isEverything()).isTrue();
        assertThat(LabelSelector.parse(null).isEverything()).isTrue();
        assertThat(LabelSelector.parse("a").isEverything()).isFalse();
    }

    static Stream<Arguments> invalidSelectors() {
        return Stream.of(
                Arguments.of("a b", "unable to parse requirement: found 'b', expected: in, notin, =, ==, !=, gt, lt"),
                Arguments.of("a,", "found '', expected: identifier after ','"),
                Arguments.of("a,,b", "found ',', expected: identifier after ','"),
                Arguments.of("a=b c", "found 'c', expected: ',' or 'end of string'"),
                Arguments.of("=a", "found '=', expected: !, identifier, or 'end of string'"),
                Arguments.of("(a)", "found '(', expected: !, identifier, or 'end of string'"),
                Arguments.of("!", "unable to parse requirement: found '', expected: identifier"),
                Arguments.of("!a=b", "found '=', expected: ',' or 'end of string'"),
                Arguments.of("a in b", "unable to parse requirement: found 'b' expected: '('"),
                Arguments.of("a in (b", "unable to parse requirement: found '', expected: ',' or ')'"),
                Arguments.of("a in (b c)", "unable to parse requirement: found 'c', expected: ',' or ')'"),
                Arguments.of("a in (=)", "unable to parse requirement: found '=', expected: ',', ')' or identifier"),
                Arguments.of("a in (b,=)", "unable to parse requirement: found '=', expected: ',', or identifier"),
                Arguments.of("a=(b)", "unable to parse requirement: found '(', expected: identifier"),
                Arguments.of("a>b", "unable to parse requirement: values[0]: Invalid value: \"b\":"
                        + " for 'Gt', 'Lt' operators, the value must be an integer"),
                Arguments.of("a<", "unable to parse requirement: values[0]: Invalid value: \"\":"
                        + " for 'Gt', 'Lt' operators, the value must be an integer"),
                // A negative bound parses as an integer but is no valid label value.
                Arguments.of("a<-5", "unable to parse requirement: values[0][a]: Invalid value: \"-5\": " + VALUE_RULE),
                Arguments.of("a=b@", "unable to parse requirement: values[0][a]: Invalid value: \"b@\": " + VALUE_RULE),
                Arguments.of("a in (ok,-x)", "unable to parse requirement: values[0][a]: Invalid value: \"-x\": " + VALUE_RULE),
                Arguments.of("a=" + "v".repeat(64), "unable to parse requirement: values[0][a]: Invalid value: \""
                        + "v".repeat(64) + "\": must be no more than 63 characters"),
                Arguments.of("-a=b", "unable to parse requirement: <nil>: Invalid value: \"-a\": name part " + NAME_RULE),
                Arguments.of("Example.com/a", "unable to parse requirement: <nil>: Invalid value: \"Example.com/a\":"
                        + " prefix part " + SUBDOMAIN_RULE),
                Arguments.of("/a", "unable to parse requirement: <nil>: Invalid value: \"/a\": prefix part must be non-empty"),
                Arguments.of("a/", "unable to parse requirement: <nil>: Invalid value: \"a/\": name part must be"
                        + " non-empty; name part " + NAME_RULE),
                Arguments.of("a/b/c", "unable to parse requirement: <nil>: Invalid value: \"a/b/c\": a qualified name "
                        + NAME_RULE + " with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')"));
    }

    @ParameterizedTest(name = "[{0}]")
    @MethodSource("invalidSelectors")
    void rejectsWithApimachineryMessage(String text, String message) {
        assertThatThrownBy(() -> LabelSelector.parse(text))
                .isInstanceOf(SelectorException.class)
                .hasMessage(message);
    }
}
