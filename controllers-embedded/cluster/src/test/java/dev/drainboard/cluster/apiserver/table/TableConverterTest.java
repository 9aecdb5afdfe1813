package dev.drainboard.cluster.apiserver.table;

import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.List;

import static dev.drainboard.cluster.apiserver.table.TableTestSupport.NOW;
import static dev.drainboard.cluster.apiserver.table.TableTestSupport.assertJson;
import static dev.drainboard.cluster.apiserver.table.TableTestSupport.yaml;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class TableConverterTest {
    private static final ObjectNode CONFIG_MAP = yaml("""
            apiVersion: v1
            kind: ConfigMap
            metadata:
              name: settings
              namespace: shop
              uid: 6f1c2d3e-0000-4000-8000-000000000001
              resourceVersion: "812"
              creationTimestamp: "2025-06-01T11:00:00Z"
              labels: {app: shop}
            data: {mode: fast}
            """);

    private static ObjectNode configMapTable(String includeObject, ObjectNode listMeta) {
        return TableConverter.toTable("", "configmaps", null, List.of(CONFIG_MAP), includeObject, listMeta, NOW);
    }

    @Test
    void isAMetaV1TableCarryingTheListMetadata() {
        ObjectNode table = configMapTable("None", yaml("""
                resourceVersion: "900"
                continue: eyJ2IjoibWV0YS5rOHMuaW8vdjEifQ
                remainingItemCount: 12
                selfLink: /api/v1/configmaps
                """));
        assertThat(table.get("kind").asText()).isEqualTo("Table");
        assertThat(table.get("apiVersion").asText()).isEqualTo("meta.k8s.io/v1");
        assertJson(table.get("metadata"), """
                {"resourceVersion":"900","continue":"eyJ2IjoibWV0YS5rOHMuaW8vdjEifQ","remainingItemCount":12}""");
        assertJson(table.get("rows"), """
                [{"cells":["settings",1,"60m"],"object":null}]""");
    }

    @Test
    void withoutListMetadataTheTableMetadataIsEmpty() {
        assertJson(configMapTable("None", null).get("metadata"), "{}");
    }

    @ParameterizedTest(name = "includeObject={0}")
    @CsvSource(nullValues = "NULL", value = {"Metadata", "NULL"})
    void metadataRowsCarryPartialObjectMetadata(String includeObject) {
        assertJson(configMapTable(includeObject, null).at("/rows/0/object"), """
                {"kind":"PartialObjectMetadata","apiVersion":"meta.k8s.io/v1","metadata":%s}"""
                .formatted(CONFIG_MAP.get("metadata")));
    }

    @Test
    void objectRowsCarryTheWholeObjectAsACopy() {
        ObjectNode table = configMapTable("Object", null);
        assertThat(table.at("/rows/0/object")).isEqualTo(CONFIG_MAP).isNotSameAs(CONFIG_MAP);
    }

    @Test
    void rejectsAnUnknownIncludeObject() {
        assertThatThrownBy(() -> configMapTable("Everything", null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("Everything");
    }

    @Test
    void hasOneRowPerObjectInOrderAndNoRowsForNoObjects() {
        ObjectNode other = CONFIG_MAP.deepCopy();
        ((ObjectNode) other.get("metadata")).put("name", "other");
        ObjectNode table = TableConverter.toTable("", "configmaps", null, List.of(other, CONFIG_MAP), "None", null, NOW);
        assertThat(table.at("/rows/0/cells/0").asText()).isEqualTo("other");
        assertThat(table.at("/rows/1/cells/0").asText()).isEqualTo("settings");
        ObjectNode empty = TableConverter.toTable("", "configmaps", null, List.of(), "None", null, NOW);
        assertThat(empty.get("rows")).isEmpty();
        assertThat(empty.get("columnDefinitions")).hasSize(3);
    }
}
