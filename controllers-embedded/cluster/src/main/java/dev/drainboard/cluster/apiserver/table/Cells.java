package dev.drainboard.cluster.apiserver.table;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;

/** Builds the cells of one table row as the JSON values kube-apiserver sends (strings, integers, booleans). */
final class Cells {
    private final ArrayNode values = JsonNodeFactory.instance.arrayNode();

    Cells text(String value) {
        values.add(value);
        return this;
    }

    Cells integer(long value) {
        values.add(value);
        return this;
    }

    Cells bool(boolean value) {
        values.add(value);
        return this;
    }

    ArrayNode toJson() {
        return values;
    }
}
