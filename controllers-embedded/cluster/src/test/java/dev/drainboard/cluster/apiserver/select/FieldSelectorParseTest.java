package dev.drainboard.cluster.apiserver.select;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.drainboard.labels.SelectorException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class FieldSelectorParseTest {
    @ParameterizedTest(name = "[{0}] -> [{1}]")
    @CsvSource(delimiter = '|', quoteCharacter = '`', textBlock = """
            ``                                   | ``
            a=b                                  | a=b
            a==b                                 | a=b
            a!=b                                 | a!=b
            a=                                   | a=
            a!=                                  | a!=
            b=1,a=2                              | a=2,b=1
            a=1,,b=2,                            | a=1,b=2
            a=x\\,y                              | a=x\\,y
            a=x\\=y                              | a=x\\=y
            a=x\\\\y                             | a=x\\\\y
            spec.nodeName=n,status.phase!=Failed | spec.nodeName=n,status.phase!=Failed
            """)
    void parsesToCanonicalText(String text, String canonical) throws SelectorException {
        assertThat(FieldSelector.parse(text).toString()).isEqualTo(canonical);
    }

    @ParameterizedTest(name = "[{0}] pins {1}")
    @CsvSource(delimiter = '|', quoteCharacter = '`', textBlock = """
            a=x\\,y     | x,y
            a==x\\=y    | x=y
            a=x\\\\y    | x\\y
            a=          | ``
            """)
    void unescapesValues(String text, String value) throws SelectorException {
        assertThat(FieldSelector.parse(text).exactValue("a")).contains(value);
    }

    @ParameterizedTest(name = "[{0}]")
    @CsvSource(delimiter = '|', quoteCharacter = '`', textBlock = """
            a          | invalid selector: 'a'; can't understand 'a'
            x=1,b      | invalid selector: 'x=1,b'; can't understand 'b'
            a=b=c      | invalid field selector: unescaped character in value: 61
            a=b\\,c=d  | invalid field selector: unescaped character in value: 61
            a=b\\x     | invalid field selector: invalid escape sequence: \\x
            a=b\\      | invalid field selector: invalid escape sequence: \\
            """)
    void rejectsWithApimachineryMessage(String text, String message) {
        assertThatThrownBy(() -> FieldSelector.parse(text))
                .isInstanceOf(SelectorException.class)
                .hasMessage(message);
    }

    @Test
    void exactValueNeedsEquality() throws SelectorException {
        FieldSelector selector = FieldSelector.parse("metadata.namespace!=kube-system,metadata.name=web");
        assertThat(selector.exactValue("metadata.name")).contains("web");
        assertThat(selector.exactValue("metadata.namespace")).isEmpty();
        assertThat(FieldSelector.parse("").exactValue("metadata.name")).isEmpty();
        assertThat(FieldSelector.parse("").isEverything()).isTrue();
        assertThat(FieldSelector.parse(null).isEverything()).isTrue();
    }

    @Test
    void anotherOperatorInsideTheValueIsAnUnescapedEquals() {
        // "a=!=b": "=" comes first, leaving "!=b" as the value.
        assertThatThrownBy(() -> FieldSelector.parse("a=!=b"))
                .hasMessage("invalid field selector: unescaped character in value: 61");
    }
}
