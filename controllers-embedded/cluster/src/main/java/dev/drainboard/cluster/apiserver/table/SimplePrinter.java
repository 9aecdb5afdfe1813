package dev.drainboard.cluster.apiserver.table;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.time.Instant;
import java.util.List;
import java.util.function.BiFunction;

/** A printer whose cells are a plain function of the object, for resources with no row conditions. */
record SimplePrinter(List<ColumnDefinition> columns, BiFunction<ObjectNode, Instant, Cells> rowCells)
        implements ResourcePrinter {

    @Override
    public ArrayNode cells(ObjectNode object, Instant now) {
        return rowCells.apply(object, now).toJson();
    }
}
