package dev.drainboard.cluster.apiserver;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * core/v1 and events.k8s.io/v1 Events are two views of one stored object, as in kube-apiserver.
 * Events are stored in the core form; this converts between the two.
 */
final class EventConversion {

    /** core field ↔ events.k8s.io/v1 field, for fields that only change their name. */
    private static final String[][] RENAMED = {
            {"involvedObject", "regarding"},
            {"message", "note"},
            {"reportingComponent", "reportingController"},
            {"firstTimestamp", "deprecatedFirstTimestamp"},
            {"lastTimestamp", "deprecatedLastTimestamp"},
            {"count", "deprecatedCount"},
            {"source", "deprecatedSource"},
    };
    /** Fields both forms share unchanged. */
    private static final String[] SHARED = {"metadata", "reason", "type", "action", "eventTime", "series", "related", "reportingInstance"};

    private EventConversion() {
    }

    static ObjectNode toV1(ObjectNode core) {
        ObjectNode v1 = Json.object();
        v1.put("kind", "Event");
        v1.put("apiVersion", "events.k8s.io/v1");
        copy(core, v1, SHARED);
        for (String[] pair : RENAMED) {
            move(core, pair[0], v1, pair[1]);
        }
        return v1;
    }

    static ObjectNode toCore(ObjectNode v1) {
        ObjectNode core = Json.object();
        core.put("kind", "Event");
        core.put("apiVersion", "v1");
        copy(v1, core, SHARED);
        for (String[] pair : RENAMED) {
            move(v1, pair[1], core, pair[0]);
        }
        return core;
    }

    private static void copy(ObjectNode from, ObjectNode to, String[] fields) {
        for (String field : fields) {
            JsonNode value = from.get(field);
            if (value != null) {
                to.set(field, value.deepCopy());
            }
        }
    }

    private static void move(ObjectNode from, String fromField, ObjectNode to, String toField) {
        JsonNode value = from.get(fromField);
        if (value != null) {
            to.set(toField, value.deepCopy());
        }
    }
}
