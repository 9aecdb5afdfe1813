package dev.drainboard.labels;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.Map;

/** fabric8's model of a metav1.LabelSelector, read as its JSON is, matched against label maps. */
@DisplayName("label selectors from fabric8's model")
class LabelSelectorModelTest {

    private static final ObjectMapper MAPPER = new ObjectMapper();

    static io.fabric8.kubernetes.api.model.LabelSelector model(String lenientJson) {
        return MAPPER.convertValue(LenientJson.of(lenientJson), io.fabric8.kubernetes.api.model.LabelSelector.class);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            {}
            {matchLabels:{b:'2', a:'1'}}
            {matchExpressions:[{key:'t', operator:'In', values:['y','x']}]}
            {matchExpressions:[{key:'t', operator:'In', values:['x']}]}
            {matchExpressions:[{key:'t', operator:'NotIn', values:['x']}, {key:'u', operator:'DoesNotExist'}]}
            {matchLabels:{z:'1'}, matchExpressions:[{key:'a', operator:'Exists'}]}
            """)
    @DisplayName("the model reads as its JSON does")
    void modelReadsAsJson(String json) throws SelectorException {
        assertThat(LabelSelector.fromModel(model(json)).toString()).isEqualTo(LabelSelector.fromJson(LenientJson.of(json)).toString());
    }

    @ParameterizedTest(name = "{0} on {1} → {2}")
    @CsvSource(delimiter = '|', textBlock = """
            {matchLabels:{app:'web'}}                                          | {app:'web', x:'y'} | true
            {matchLabels:{app:'web'}}                                          | {app:'db'}         | false
            {matchLabels:{app:'web'}}                                          | {}                 | false
            {matchExpressions:[{key:'app', operator:'In', values:['web','api']}]} | {app:'api'}     | true
            {matchExpressions:[{key:'app', operator:'NotIn', values:['db']}]}  | {}                 | true
            {matchExpressions:[{key:'app', operator:'Exists'}]}                | {app:''}           | true
            {matchExpressions:[{key:'app', operator:'DoesNotExist'}]}          | {app:'x'}          | false
            {}                                                                 | {}                 | true
            {matchExpressions:[{key:'app', operator:'Gt', values:['1']}]}      | {app:'2'}          | false
            """)
    @DisplayName("matches label maps as a PDB or a replica set selects pods; a selector the API refuses selects nothing")
    void selectsLabelMaps(String selector, String labels, boolean selected) {
        @SuppressWarnings("unchecked")
        Map<String, String> map = MAPPER.convertValue(LenientJson.of(labels), Map.class);
        assertThat(LabelSelector.selects(model(selector), map)).isEqualTo(selected);
    }

    @Test
    @DisplayName("a null selector selects nothing (a PDB without one guards no pod); no labels are no labels")
    void nullSelectorAndNullLabels() throws SelectorException {
        assertThat(LabelSelector.selects((io.fabric8.kubernetes.api.model.LabelSelector) null, Map.of("a", "b"))).isFalse();
        assertThat(LabelSelector.fromModel(model("{}")).matches((Map<String, String>) null)).isTrue();
        assertThat(LabelSelector.fromModel(model("{matchLabels:{a:'b'}}")).matches((Map<String, String>) null)).isFalse();
    }
}
