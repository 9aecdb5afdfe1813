package dev.drainboard.cluster.apiserver.table;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * One meta.k8s.io/v1 TableColumnDefinition. Priority 0 columns are always shown by kubectl,
 * priority 1 columns only with {@code -o wide}.
 */
record ColumnDefinition(String name, String type, String format, String description, int priority) {

    static ColumnDefinition column(String name, String type, String description) {
        return new ColumnDefinition(name, type, "", description, 0);
    }

    static ColumnDefinition wideColumn(String name, String type, String description) {
        return new ColumnDefinition(name, type, "", description, 1);
    }

    /** The object-name column every built-in printer starts with. */
    static ColumnDefinition nameColumn() {
        return new ColumnDefinition("Name", "string", "name",
                "Name of the object, unique within its namespace (or within the cluster for cluster-scoped objects).", 0);
    }

    /** The creation-age column; typed "string" because the server renders the age itself. */
    static ColumnDefinition ageColumn() {
        return column("Age", "string", "Time elapsed since the object's creationTimestamp.");
    }

    ObjectNode toJson() {
        // kube-apiserver always writes all five fields, including an empty format and priority 0.
        ObjectNode json = JsonNodeFactory.instance.objectNode();
        json.put("name", name);
        json.put("type", type);
        json.put("format", format);
        json.put("description", description);
        json.put("priority", priority);
        return json;
    }
}
