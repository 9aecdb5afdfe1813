package dev.drainboard.cluster.apiserver.table;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.time.Instant;
import java.util.List;

/**
 * Server-side printing: turns stored objects into the meta.k8s.io/v1 Table that kubectl asks for with
 * {@code Accept: application/json;as=Table;v=v1;g=meta.k8s.io}, with the columns and cells kube-apiserver
 * would produce for the resource.
 */
public final class TableConverter {
    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;
    private static final List<String> LIST_META_FIELDS = List.of("resourceVersion", "continue", "remainingItemCount");

    private TableConverter() {
    }

    /**
     * A meta.k8s.io/v1 Table for objects of one resource.
     *
     * @param group          API group ("" for core)
     * @param plural         resource plural (e.g. "pods")
     * @param printerColumns a CRD version's additionalPrinterColumns array as declared (null for built-in
     *                       resources or a CRD declaring none)
     * @param objects        the objects, one row each, in order
     * @param includeObject  "None", "Metadata" (default; row.object is a meta.k8s.io/v1 PartialObjectMetadata
     *                       with the object's metadata) or "Object" (the full object)
     * @param listMeta       the list's metadata (resourceVersion, continue, remainingItemCount) to put in the
     *                       Table's metadata
     * @param now            the instant ages are measured from
     * @throws IllegalArgumentException for an includeObject value other than the three above
     */
    public static ObjectNode toTable(String group, String plural, JsonNode printerColumns, List<ObjectNode> objects,
                                     String includeObject, ObjectNode listMeta, Instant now) {
        RowObjectPolicy rowObjects = RowObjectPolicy.parse(includeObject);
        ResourcePrinter printer = printerFor(group, plural, printerColumns);

        ObjectNode table = JSON.objectNode();
        table.put("kind", "Table");
        table.put("apiVersion", "meta.k8s.io/v1");
        table.set("metadata", tableMetadata(listMeta));
        ArrayNode columnDefinitions = table.putArray("columnDefinitions");
        printer.columns().forEach(column -> columnDefinitions.add(column.toJson()));
        ArrayNode rows = table.putArray("rows");
        for (ObjectNode object : objects) {
            ObjectNode row = rows.addObject();
            row.set("cells", printer.cells(object, now));
            ArrayNode conditions = printer.conditions(object);
            if (conditions != null) {
                row.set("conditions", conditions);
            }
            row.set("object", rowObjects.rowObject(object));
        }
        return table;
    }

    private static ResourcePrinter printerFor(String group, String plural, JsonNode printerColumns) {
        if (printerColumns != null && printerColumns.isArray() && !printerColumns.isEmpty()) {
            return CustomColumnsPrinter.fromPrinterColumns(printerColumns);
        }
        return BuiltInPrinters.find(group, plural).orElseGet(CustomColumnsPrinter::ageOnly);
    }

    private static ObjectNode tableMetadata(ObjectNode listMeta) {
        ObjectNode metadata = JSON.objectNode();
        if (listMeta != null) {
            LIST_META_FIELDS.stream()
                    .filter(field -> listMeta.hasNonNull(field))
                    .forEach(field -> metadata.set(field, listMeta.get(field)));
        }
        return metadata;
    }

    /** What each row carries in its "object" field, per the includeObject table option. */
    private enum RowObjectPolicy {
        NONE, METADATA, OBJECT;

        static RowObjectPolicy parse(String includeObject) {
            return switch (includeObject == null ? "" : includeObject) {
                case "None" -> NONE;
                case "", "Metadata" -> METADATA;
                case "Object" -> OBJECT;
                default -> throw new IllegalArgumentException(
                        "includeObject must be None, Metadata or Object, not " + includeObject);
            };
        }

        JsonNode rowObject(ObjectNode object) {
            return switch (this) {
                case NONE -> JSON.nullNode(); // kube-apiserver writes "object": null
                case METADATA -> {
                    ObjectNode partial = JSON.objectNode();
                    partial.put("kind", "PartialObjectMetadata");
                    partial.put("apiVersion", "meta.k8s.io/v1");
                    partial.set("metadata", object.path("metadata").deepCopy());
                    yield partial;
                }
                case OBJECT -> object.deepCopy();
            };
        }
    }
}
