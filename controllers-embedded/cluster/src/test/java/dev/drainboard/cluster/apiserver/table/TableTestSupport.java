package dev.drainboard.cluster.apiserver.table;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** Shared fixtures: YAML objects, a fixed clock, and compact views of a Table's columns and cells. */
final class TableTestSupport {
    static final Instant NOW = Instant.parse("2025-06-01T12:00:00Z");
    static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
    static final ObjectMapper JSON = new ObjectMapper();

    private TableTestSupport() {
    }

    static ObjectNode yaml(String yaml) {
        try {
            return (ObjectNode) YAML.readTree(yaml);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static JsonNode json(String json) {
        try {
            return JSON.readTree(json);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static ObjectNode table(String group, String plural, String objectYaml) {
        return TableConverter.toTable(group, plural, null, List.of(yaml(objectYaml)), "None", null, NOW);
    }

    /** Column names joined by ", ", wide (priority 1) ones marked with a trailing '*'. */
    static String columns(ObjectNode table) {
        List<String> names = new ArrayList<>();
        table.get("columnDefinitions").forEach(column ->
                names.add(column.get("name").asText() + (column.get("priority").asInt() == 1 ? "*" : "")));
        return String.join(", ", names);
    }

    static JsonNode firstRowCells(ObjectNode table) {
        return table.get("rows").get(0).get("cells");
    }

    /** Compares as serialised JSON, so that 7 as an int and 7 as a long count as the same cell. */
    static void assertJson(JsonNode actual, String expectedJson) {
        assertThat(actual.toString()).isEqualTo(json(expectedJson).toString());
    }
}
