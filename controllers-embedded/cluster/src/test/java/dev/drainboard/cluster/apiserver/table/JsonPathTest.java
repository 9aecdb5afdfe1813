package dev.drainboard.cluster.apiserver.table;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static dev.drainboard.cluster.apiserver.table.TableTestSupport.yaml;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class JsonPathTest {
    private static final JsonNode OBJECT = yaml("""
            metadata:
              name: web
              labels:
                app: web
                kubernetes.io/hostname: node-1
            spec:
              replicas: 3
              paused: false
            status:
              phase: Running
              ratio: 0.5
              conditions:
              - type: Initialized
                status: "True"
                priority: 1
              - type: Ready
                status: "False"
                reason: ContainersNotReady
                priority: 2
            items:
            - name: a
            - name: b
            - name: c
            """);

    /** Each row: expression, then the results as a JSON array. */
    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', quoteCharacter = '~', textBlock = """
            .status.phase                                          | ["Running"]
            {.status.phase}                                        | ["Running"]
            { .status.phase }                                      | ["Running"]
            $.status.phase                                         | ["Running"]
            status.phase                                           | ["Running"]
            .spec.replicas                                         | [3]
            .spec.paused                                           | [false]
            .status.ratio                                          | [0.5]
            .metadata.labels.app                                   | ["web"]
            .metadata.labels.kubernetes\\.io/hostname              | ["node-1"]
            .metadata.labels['kubernetes.io/hostname']             | ["node-1"]
            .status.conditions[?(@.type=="Ready")].status          | ["False"]
            .status.conditions[?(@.type == 'Ready')].reason        | ["ContainersNotReady"]
            .status.conditions[?(@.type!="Ready")].type            | ["Initialized"]
            .status.conditions[?(@.priority>1)].type               | ["Ready"]
            .status.conditions[?(@.priority<=1)].type              | ["Initialized"]
            .status.conditions[?(@.reason)].type                   | ["Ready"]
            .status.conditions[?(@.type=="Missing")].status        | []
            .items[0]                                              | [{"name":"a"}]
            .items[0].name                                         | ["a"]
            .items[-1].name                                        | ["c"]
            .items[5].name                                         | []
            .items[*].name                                         | ["a","b","c"]
            .items.*.name                                          | ["a","b","c"]
            ..reason                                               | ["ContainersNotReady"]
            .metadata.missing                                      | []
            .metadata.name.deeper                                  | []
            .                                                      | [OBJECT]
            """)
    void selectsValues(String expression, String expected) {
        ArrayNode results = JsonNodeFactory.instance.arrayNode().addAll(JsonPath.evaluate(OBJECT, expression));
        assertThat(results).isEqualTo(TableTestSupport.json(expected.replace("OBJECT", OBJECT.toString())));
    }

    @Test
    void rejectsSyntaxOutsideTheSubset() {
        assertThatThrownBy(() -> JsonPath.evaluate(OBJECT, ".items[0:2]"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("[0:2]");
        assertThatThrownBy(() -> JsonPath.evaluate(OBJECT, ".items[?(type==\"a\")]"))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
