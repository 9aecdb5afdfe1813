package dev.drainboard.cluster.apiserver.table;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.time.Instant;
import java.util.List;

/**
 * The table layout of one resource: its columns and, for each object, one cell per column.
 * Cells are always computed for every column, wide ones included, because kube-apiserver
 * prints server-side tables in wide mode and leaves hiding priority-1 columns to kubectl.
 */
interface ResourcePrinter {

    List<ColumnDefinition> columns();

    ArrayNode cells(ObjectNode object, Instant now);

    /** Row conditions (meta.k8s.io TableRowCondition); only pods have any. */
    default ArrayNode conditions(ObjectNode object) {
        return null;
    }
}
