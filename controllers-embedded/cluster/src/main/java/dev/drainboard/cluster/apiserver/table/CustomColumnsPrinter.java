package dev.drainboard.cluster.apiserver.table;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * Custom resources: NAME followed by the CRD version's additionalPrinterColumns, each cell being the
 * first value its JSONPath finds. A CRD that declares no columns, and any resource without a printer
 * of its own, gets the single column the apiextensions server substitutes: Age of the creationTimestamp.
 */
final class CustomColumnsPrinter implements ResourcePrinter {
    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

    private final List<ColumnDefinition> columns;
    private final List<Function<JsonNode, List<JsonNode>>> columnValues;

    private CustomColumnsPrinter(List<ColumnDefinition> columns, List<String> jsonPaths) {
        this.columns = columns;
        this.columnValues = jsonPaths.stream().map(CustomColumnsPrinter::compile).toList();
    }

    /** A path outside the supported JSONPath subset leaves its column empty rather than failing the whole list. */
    private static Function<JsonNode, List<JsonNode>> compile(String jsonPath) {
        try {
            List<JsonPath.Step> steps = JsonPath.compile(jsonPath);
            return object -> JsonPath.apply(steps, object);
        } catch (IllegalArgumentException unsupported) {
            return object -> List.of();
        }
    }

    /** From an additionalPrinterColumns array ({name, type, format, description, priority, jsonPath}). */
    static CustomColumnsPrinter fromPrinterColumns(JsonNode printerColumns) {
        List<ColumnDefinition> columns = new ArrayList<>(List.of(ColumnDefinition.nameColumn()));
        List<String> jsonPaths = new ArrayList<>();
        for (JsonNode declared : printerColumns) {
            String jsonPath = Fields.text(declared, "jsonPath");
            columns.add(new ColumnDefinition(
                    Fields.text(declared, "name"),
                    Fields.text(declared, "type"),
                    Fields.text(declared, "format"),
                    Fields.textOr("Custom resource column read with the JSONPath " + jsonPath, declared, "description"),
                    (int) Fields.integer(declared, "priority")));
            jsonPaths.add(jsonPath);
        }
        return new CustomColumnsPrinter(List.copyOf(columns), List.copyOf(jsonPaths));
    }

    static CustomColumnsPrinter ageOnly() {
        return new CustomColumnsPrinter(
                List.of(ColumnDefinition.nameColumn(),
                        ColumnDefinition.column("Age", "date", "Time elapsed since the object's creationTimestamp.")),
                List.of(".metadata.creationTimestamp"));
    }

    @Override
    public List<ColumnDefinition> columns() {
        return columns;
    }

    @Override
    public ArrayNode cells(ObjectNode object, Instant now) {
        ArrayNode cells = JSON.arrayNode().add(Fields.text(object, "metadata", "name"));
        for (int index = 0; index < columnValues.size(); index++) {
            List<JsonNode> found = columnValues.get(index).apply(object);
            String type = columns.get(index + 1).type();
            cells.add(found.isEmpty() ? JSON.nullNode() : cell(type, found.getFirst(), now));
        }
        return cells;
    }

    /** Converts a found value to the column's declared type; a value that does not fit gives an empty cell. */
    private static JsonNode cell(String type, JsonNode value, Instant now) {
        return switch (type) {
            case "string" -> JSON.textNode(JsonValueText.of(value));
            case "integer" -> value.isNumber() ? JSON.numberNode(value.asLong()) : JSON.nullNode();
            case "number" -> value.isNumber() ? JsonValueText.number(value.asDouble()) : JSON.nullNode();
            case "boolean" -> value.isBoolean() ? value : JSON.nullNode();
            case "date" -> value.isTextual() ? JSON.textNode(dateCell(value, now)) : JSON.nullNode();
            default -> JSON.nullNode();
        };
    }

    private static String dateCell(JsonNode timestamp, Instant now) {
        try {
            return Ages.since(timestamp, now);
        } catch (DateTimeParseException e) {
            return "<invalid>";
        }
    }
}
