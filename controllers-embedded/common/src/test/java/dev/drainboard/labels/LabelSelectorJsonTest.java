package dev.drainboard.labels;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.MissingNode;
import com.fasterxml.jackson.databind.node.NullNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class LabelSelectorJsonTest {
    @ParameterizedTest(name = "{0} -> [{1}]")
    @CsvSource(delimiter = '|', textBlock = """
            {}                                                                          | ''
            {matchLabels:{}}                                                            | ''
            {matchLabels:{b:'2', a:'1'}}                                                | a=1,b=2
            {matchExpressions:[{key:'t', operator:'In', values:['y','x']}]}             | t in (x,y)
            {matchExpressions:[{key:'t', operator:'NotIn', values:['x']}]}              | t notin (x)
            {matchExpressions:[{key:'t', operator:'Exists'}]}                           | t
            {matchExpressions:[{key:'t', operator:'DoesNotExist', values:[]}]}          | !t
            {matchLabels:{z:'1'}, matchExpressions:[{key:'a', operator:'Exists'}]}      | a,z=1
            """)
    void readsLabelSelectorObjects(String json, String canonical) throws SelectorException {
        assertThat(LabelSelector.fromJson(LenientJson.of(json)).toString()).isEqualTo(canonical);
    }

    @ParameterizedTest(name = "{0} requires [{1}]")
    @CsvSource(delimiter = '|', textBlock = """
            {}                                                                          | ''
            {matchLabels:{b:'2', a:'1'}}                                                | a=1
            {matchExpressions:[{key:'t', operator:'In', values:['x']}]}                 | t=x
            {matchExpressions:[{key:'t', operator:'In', values:['y','x']}]}             | ''
            {matchExpressions:[{key:'t', operator:'NotIn', values:['x']}]}              | ''
            {matchExpressions:[{key:'t', operator:'Exists'}]}                           | ''
            {matchLabels:{z:'1'}, matchExpressions:[{key:'a', operator:'Exists'}]}      | z=1
            """)
    void requiredLabelIsALabelEverySelectedObjectCarries(String json, String required) throws SelectorException {
        assertThat(LabelSelector.fromJson(LenientJson.of(json)).requiredLabel().orElse("")).isEqualTo(required);
    }

    @Test
    void aSelectorOfNothingRequiresNoLabel() throws SelectorException {
        assertThat(LabelSelector.fromJson(null).requiredLabel()).isEmpty();
    }

    @Test
    void emptyObjectSelectsEveryPodLikeAPolicyV1Pdb() throws SelectorException {
        LabelSelector empty = LabelSelector.fromJson(LenientJson.of("{}"));
        assertThat(empty.isEverything()).isTrue();
        assertThat(empty.matchesObject(LenientJson.of("{metadata:{name:'p'}}"))).isTrue();
        assertThat(empty.matchesObject(LenientJson.of("{metadata:{name:'p', labels:{a:'b'}}}"))).isTrue();
    }

    @Test
    void absentOrNullSelectorSelectsNothingLikeLabelSelectorAsSelectorOfNil() throws SelectorException {
        for (var absent : new com.fasterxml.jackson.databind.JsonNode[] {null, NullNode.getInstance(), MissingNode.getInstance()}) {
            LabelSelector nothing = LabelSelector.fromJson(absent);
            assertThat(nothing.isEverything()).isFalse();
            assertThat(nothing.matches(LenientJson.of("{}"))).isFalse();
            assertThat(nothing.matchesObject(LenientJson.of("{metadata:{labels:{a:'b'}}}"))).isFalse();
        }
    }

    @ParameterizedTest(name = "{1} on {0}")
    @CsvSource(delimiter = '|', textBlock = """
            {metadata:{labels:{app:'web', track:'stable'}}}     | true
            {metadata:{labels:{app:'web', track:'canary'}}}     | false
            {metadata:{labels:{app:'web'}}}                     | true
            {metadata:{labels:{app:'web', legacy:'yes'}}}       | false
            {metadata:{labels:{app:'db', track:'stable'}}}      | false
            {metadata:{name:'unlabelled'}}                      | false
            """)
    void pdbSelectorMatchesPods(String pod, boolean expected) throws SelectorException {
        LabelSelector pdb = LabelSelector.fromJson(LenientJson.of("""
                {matchLabels:{app:'web'},
                 matchExpressions:[{key:'track', operator:'NotIn', values:['canary']},
                                   {key:'legacy', operator:'DoesNotExist'}]}"""));
        assertThat(pdb.matchesObject(LenientJson.of(pod))).isEqualTo(expected);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', quoteCharacter = '`', textBlock = """
            {matchExpressions:[{key:'a', operator:'Gt', values:['1']}]}   | "Gt" is not a valid label selector operator
            {matchExpressions:[{key:'a', operator:'in', values:['1']}]}   | "in" is not a valid label selector operator
            {matchExpressions:[{key:'a', operator:'In', values:[]}]}      | values: Invalid value: []string(nil): for 'in', 'notin' operators, values set can't be empty
            {matchExpressions:[{key:'a', operator:'NotIn'}]}              | values: Invalid value: []string(nil): for 'in', 'notin' operators, values set can't be empty
            {matchExpressions:[{key:'a', operator:'Exists', values:['x','y']}]} | values: Invalid value: []string{"x", "y"}: values set must be empty for exists and does not exist
            {matchLabels:{'a b':'c'}}                                     | `key: Invalid value: "a b": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')`
            {matchLabels:{a:'-'}}                                         | `values[0][a]: Invalid value: "-": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')`
            """)
    void rejectsInvalidSelectorObjects(String json, String message) {
        assertThatThrownBy(() -> LabelSelector.fromJson(LenientJson.of(json)))
                .isInstanceOf(SelectorException.class)
                .hasMessage(message);
    }

    @Test
    void reportsEveryProblemOfOneRequirementTogether() {
        assertThatThrownBy(() -> LabelSelector.fromJson(LenientJson.of("{matchExpressions:[{key:'', operator:'In'}]}")))
                .hasMessageStartingWith("[key: Invalid value: \"\": name part must be non-empty; name part must consist of")
                .hasMessageEndingWith(", values: Invalid value: []string(nil): for 'in', 'notin' operators, values set can't be empty]");
    }
}
