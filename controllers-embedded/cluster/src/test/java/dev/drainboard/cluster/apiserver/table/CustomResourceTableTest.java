package dev.drainboard.cluster.apiserver.table;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.List;
import java.util.stream.Stream;

import static dev.drainboard.cluster.apiserver.table.TableTestSupport.NOW;
import static dev.drainboard.cluster.apiserver.table.TableTestSupport.assertJson;
import static dev.drainboard.cluster.apiserver.table.TableTestSupport.columns;
import static dev.drainboard.cluster.apiserver.table.TableTestSupport.firstRowCells;
import static dev.drainboard.cluster.apiserver.table.TableTestSupport.yaml;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.params.provider.Arguments.arguments;

class CustomResourceTableTest {
    private static final ObjectNode WIDGET = yaml("""
            apiVersion: example.com/v1
            kind: Widget
            metadata:
              name: gizmo
              namespace: shop
              creationTimestamp: "2025-06-01T11:00:00Z"
              labels: {app.kubernetes.io/name: gizmo}
            spec:
              replicas: 3
              ratio: 2.5
              weight: 4.0
              paused: true
              size: large
              ports: [80, 443]
              template: {b: 2, a: 1}
            status:
              phase: Ready
              lastSync: "2025-06-01T11:58:00Z"
              conditions:
              - {type: Synced, status: "True"}
              - {type: Ready, status: "False", reason: Waiting}
            """);

    private static ObjectNode widgetTable(String printerColumnsYaml) {
        JsonNode printerColumns = printerColumnsYaml == null ? null : yaml("columns:\n" + printerColumnsYaml.indent(2)).get("columns");
        return TableConverter.toTable("example.com", "widgets", printerColumns, List.of(WIDGET), "None", null, NOW);
    }

    @Test
    void declaredColumnsFollowTheNameColumnWithTheirTypeFormatDescriptionAndPriority() {
        ObjectNode table = widgetTable("""
                - {name: Replicas, type: integer, jsonPath: .spec.replicas}
                - {name: Phase, type: string, description: Where the widget is, jsonPath: .status.phase, priority: 1}
                - {name: Size, type: string, format: byte, jsonPath: .spec.size}
                """);
        assertJson(table.get("columnDefinitions"), """
                [{"name":"Name","type":"string","format":"name","description":"%s","priority":0},
                 {"name":"Replicas","type":"integer","format":"","description":"Custom resource column read with the JSONPath .spec.replicas","priority":0},
                 {"name":"Phase","type":"string","format":"","description":"Where the widget is","priority":1},
                 {"name":"Size","type":"string","format":"byte","description":"Custom resource column read with the JSONPath .spec.size","priority":0}]"""
                .formatted(ColumnDefinition.nameColumn().description()));
    }

    @Test
    void aCrdWithoutPrinterColumnsGetsNameAndAge() {
        for (String none : new String[]{null, "[]"}) {
            ObjectNode table = none == null ? widgetTable(null)
                    : TableConverter.toTable("example.com", "widgets", yaml("c: []").get("c"), List.of(WIDGET), "None", null, NOW);
            assertThat(columns(table)).isEqualTo("Name, Age");
            assertThat(table.at("/columnDefinitions/1/type").asText()).isEqualTo("date");
            assertJson(firstRowCells(table), """
                    ["gizmo","60m"]""");
        }
    }

    /** One declared column each; the expected cells are NAME and that column's value. */
    @ParameterizedTest(name = "{0}")
    @MethodSource
    void cells(String scenario, String printerColumnYaml, String expectedCells) {
        assertJson(firstRowCells(widgetTable(printerColumnYaml)), expectedCells);
    }

    static Stream<Arguments> cells() {
        return Stream.of(
                arguments("string", "- {name: Phase, type: string, jsonPath: .status.phase}", """
                        ["gizmo","Ready"]"""),
                arguments("braces around the path", "- {name: Phase, type: string, jsonPath: '{.status.phase}'}", """
                        ["gizmo","Ready"]"""),
                arguments("integer", "- {name: Replicas, type: integer, jsonPath: .spec.replicas}", """
                        ["gizmo",3]"""),
                arguments("integer from a fraction is truncated", "- {name: Ratio, type: integer, jsonPath: .spec.ratio}", """
                        ["gizmo",2]"""),
                arguments("number", "- {name: Ratio, type: number, jsonPath: .spec.ratio}", """
                        ["gizmo",2.5]"""),
                arguments("whole number is written without a fraction", "- {name: Weight, type: number, jsonPath: .spec.weight}", """
                        ["gizmo",4]"""),
                arguments("boolean", "- {name: Paused, type: boolean, jsonPath: .spec.paused}", """
                        ["gizmo",true]"""),
                arguments("date renders as an age", "- {name: Synced, type: date, jsonPath: .status.lastSync}", """
                        ["gizmo","2m"]"""),
                arguments("unparseable date", "- {name: Size, type: date, jsonPath: .spec.size}", """
                        ["gizmo","<invalid>"]"""),
                arguments("filter expression", "- {name: Ready, type: string, jsonPath: '.status.conditions[?(@.type==\"Ready\")].status'}", """
                        ["gizmo","False"]"""),
                arguments("escaped dots in a label key", "- {name: App, type: string, jsonPath: '.metadata.labels.app\\.kubernetes\\.io/name'}", """
                        ["gizmo","gizmo"]"""),
                arguments("index", "- {name: First Port, type: integer, jsonPath: '.spec.ports[0]'}", """
                        ["gizmo",80]"""),
                arguments("several matches keep the first", "- {name: Types, type: string, jsonPath: '.status.conditions[*].type'}", """
                        ["gizmo","Synced"]"""),
                arguments("number in a string column is printed", "- {name: Replicas, type: string, jsonPath: .spec.replicas}", """
                        ["gizmo","3"]"""),
                arguments("object in a string column is compact JSON with sorted keys", "- {name: Template, type: string, jsonPath: .spec.template}", """
                        ["gizmo","{\\"a\\":1,\\"b\\":2}"]"""),
                arguments("array in a string column", "- {name: Ports, type: string, jsonPath: .spec.ports}", """
                        ["gizmo","[80,443]"]"""),
                arguments("missing value is an empty cell", "- {name: Owner, type: string, jsonPath: .spec.owner}", """
                        ["gizmo",null]"""),
                arguments("value of the wrong type is an empty cell", "- {name: Size, type: integer, jsonPath: .spec.size}", """
                        ["gizmo",null]"""),
                arguments("unsupported JSONPath is an empty cell", "- {name: Some, type: string, jsonPath: '.spec.ports[0:1]'}", """
                        ["gizmo",null]"""));
    }
}
