package dev.drainboard.labels;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class LabelSelectorMatchTest {
    @ParameterizedTest(name = "[{0}] on {1} -> {2}")
    @CsvSource(delimiter = '|', textBlock = """
            ''                  | {}                   | true
            ''                  | null                 | true
            a=b                 | {a:'b'}              | true
            a=b                 | {a:'c'}              | false
            a=b                 | {}                   | false
            a=b                 | null                 | false
            a==b                | {a:'b'}              | true
            a=                  | {a:''}               | true
            a=                  | {}                   | false
            a!=b                | {a:'c'}              | true
            a!=b                | {a:'b'}              | false
            a!=b                | {}                   | true
            a!=b                | null                 | true
            a in (x,y)          | {a:'y'}              | true
            a in (x,y)          | {a:'z'}              | false
            a in (x,y)          | {}                   | false
            a in ()             | {a:''}               | true
            a notin (x,y)       | {a:'z'}              | true
            a notin (x,y)       | {a:'x'}              | false
            a notin (x,y)       | {}                   | true
            a notin (x,y)       | null                 | true
            a                   | {a:''}               | true
            a                   | {b:'a'}              | false
            !a                  | {b:'a'}              | true
            !a                  | {a:'x'}              | false
            !a                  | null                 | true
            a>5                 | {a:'6'}              | true
            a>5                 | {a:'5'}              | false
            a>5                 | {a:'six'}            | false
            a>5                 | {}                   | false
            a<5                 | {a:'-3'}             | true
            a<5                 | {a:'5'}              | false
            a=b,c notin (d)     | {a:'b', c:'e'}       | true
            a=b,c notin (d)     | {a:'b', c:'d'}       | false
            a=b,!c              | {a:'b', c:'d'}       | false
            example.com/x=y     | {'example.com/x':'y'} | true
            """)
    void matchesLabels(String selector, String labels, boolean expected) throws SelectorException {
        assertThat(LabelSelector.parse(selector).matches(LenientJson.of(labels))).isEqualTo(expected);
    }

    @Test
    void missingLabelsMatchLikeEmptyLabels() throws SelectorException {
        LabelSelector notIn = LabelSelector.parse("tier notin (db)");
        assertThat(notIn.matches((com.fasterxml.jackson.databind.JsonNode) null)).isTrue();
        assertThat(notIn.matchesObject(LenientJson.of("{metadata:{name:'p'}}"))).isTrue();
        assertThat(LabelSelector.parse("tier").matchesObject(LenientJson.of("{metadata:{name:'p'}}"))).isFalse();
    }

    @Test
    void matchesObjectReadsMetadataLabels() throws SelectorException {
        var pod = LenientJson.of("{metadata:{name:'web-1', labels:{app:'web', tier:'frontend'}}, spec:{app:'db'}}");
        assertThat(LabelSelector.parse("app=web,tier in (frontend)").matchesObject(pod)).isTrue();
        assertThat(LabelSelector.parse("app=db").matchesObject(pod)).isFalse();
    }
}
