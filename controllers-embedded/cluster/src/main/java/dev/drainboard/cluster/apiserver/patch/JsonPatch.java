package dev.drainboard.cluster.apiserver.patch;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.ArrayList;
import java.util.List;

/**
 * RFC 6902 JSON patch with the behaviour of the library kube-apiserver uses (evanphx/json-patch v4):
 * negative array indices count from the end, a missing {@code value} means null, an object member that
 * does not exist reads as null (so {@code replace} adds it and {@code copy} copies a null), and the
 * failure texts are that library's, kept in {@link PatchException#detail()}.
 */
final class JsonPatch {

    private static final String MISSING = ": missing value";
    private static final String INVALID_INDEX = ": invalid index referenced";

    private JsonPatch() {
    }

    static ObjectNode apply(ObjectNode target, JsonNode patch) throws PatchException {
        List<JsonNode> operations = decode(patch);
        ObjectNode document = target.deepCopy();
        for (JsonNode operation : operations) {
            applyOperation(document, operation);
        }
        return document;
    }

    private static List<JsonNode> decode(JsonNode patch) throws PatchException {
        List<JsonNode> operations = new ArrayList<>();
        if (patch.isNull()) {
            return operations; // decodes to an empty patch in Go, too
        }
        if (!patch.isArray()) {
            throw PatchException.badRequest("json: cannot unmarshal " + GoFormat.jsonTypeName(patch) + " into Go value of type jsonpatch.Patch");
        }
        for (JsonNode operation : patch) {
            if (!operation.isObject() && !operation.isNull()) {
                throw PatchException.badRequest("json: cannot unmarshal " + GoFormat.jsonTypeName(operation) + " into Go value of type jsonpatch.Operation");
            }
            operations.add(operation);
        }
        return operations;
    }

    private static void applyOperation(ObjectNode document, JsonNode operation) throws PatchException {
        String kind = textOf(operation, "op");
        switch (kind == null ? "unknown" : kind) {
            case "add" -> add(document, operation);
            case "remove" -> remove(document, operation);
            case "replace" -> replace(document, operation);
            case "move" -> move(document, operation);
            case "copy" -> copy(document, operation);
            case "test" -> test(document, operation);
            default -> throw failed("Unexpected kind: " + (kind == null ? "unknown" : kind));
        }
    }

    private static void add(ObjectNode document, JsonNode operation) throws PatchException {
        String path = pathOf(operation, "path", "add");
        Location location = locate(document, path);
        if (location == null) {
            throw failed("add operation does not apply: doc is missing path: \"" + path + "\"" + MISSING);
        }
        try {
            location.add(valueOf(operation));
        } catch (LocationException e) {
            throw failed("error in add for path: '" + path + "': " + e.getMessage());
        }
    }

    private static void remove(ObjectNode document, JsonNode operation) throws PatchException {
        String path = pathOf(operation, "path", "remove");
        Location location = locate(document, path);
        if (location == null) {
            throw failed("remove operation does not apply: doc is missing path: \"" + path + "\"" + MISSING);
        }
        try {
            location.remove();
        } catch (LocationException e) {
            throw failed("error in remove for path: '" + path + "': " + e.getMessage());
        }
    }

    private static void replace(ObjectNode document, JsonNode operation) throws PatchException {
        String path = pathOf(operation, "path", "replace");
        Location location = locate(document, path);
        if (location == null) {
            throw failed("replace operation does not apply: doc is missing path: " + path + MISSING);
        }
        try {
            location.set(valueOf(operation));
        } catch (LocationException e) {
            throw failed("replace operation does not apply: doc is missing key: " + path + MISSING);
        }
    }

    private static void move(ObjectNode document, JsonNode operation) throws PatchException {
        String from = pathOf(operation, "from", "move");
        Location source = locate(document, from);
        if (source == null) {
            throw failed("move operation does not apply: doc is missing from path: " + from + MISSING);
        }
        JsonNode value;
        try {
            value = source.getOrNull();
            source.remove();
        } catch (LocationException e) {
            throw failed("error in move for path: '" + source.key + "': " + e.getMessage());
        }
        String path = pathOf(operation, "path", "move");
        Location destination = locate(document, path);
        if (destination == null) {
            throw failed("move operation does not apply: doc is missing destination path: " + path + MISSING);
        }
        try {
            destination.add(value);
        } catch (LocationException e) {
            throw failed("error in move for path: '" + path + "': " + e.getMessage());
        }
    }

    private static void copy(ObjectNode document, JsonNode operation) throws PatchException {
        String from = pathOf(operation, "from", "copy");
        Location source = locate(document, from);
        if (source == null) {
            throw failed("copy operation does not apply: doc is missing from path: " + from + MISSING);
        }
        JsonNode value;
        try {
            JsonNode found = source.getOrNull();
            value = found == null ? NullNode.getInstance() : found.deepCopy();
        } catch (LocationException e) {
            throw failed("error in copy for from: '" + from + "': " + e.getMessage());
        }
        String path = pathOf(operation, "path", "copy");
        Location destination = locate(document, path);
        if (destination == null) {
            throw failed("copy operation does not apply: doc is missing destination path: " + path + MISSING);
        }
        try {
            destination.add(value);
        } catch (LocationException e) {
            throw failed("error while adding value during copy: " + e.getMessage());
        }
    }

    private static void test(ObjectNode document, JsonNode operation) throws PatchException {
        String path = pathOf(operation, "path", "test");
        Location location = locate(document, path);
        if (location == null) {
            throw failed("test operation does not apply: is missing path: " + path + MISSING);
        }
        JsonNode actual;
        try {
            actual = location.getOrNull();
        } catch (LocationException e) {
            throw failed("error in test for path: '" + path + "': " + e.getMessage());
        }
        JsonNode expected = valueOf(operation);
        boolean passes = actual == null ? expected.isNull() : JsonValues.same(actual, expected);
        if (!passes) {
            throw failed("testing value " + path + " failed: test failed");
        }
    }

    /**
     * The container and final key a pointer designates, or null when the container does not exist. A pointer
     * without any "/" (including the empty pointer to the whole document) designates no container.
     */
    private static Location locate(ObjectNode document, String pointer) {
        String[] parts = pointer.split("/", -1);
        if (parts.length < 2) {
            return null;
        }
        JsonNode container = document;
        for (int i = 1; i < parts.length - 1; i++) {
            container = child(container, unescape(parts[i]));
            if (container == null || !container.isContainerNode()) {
                return null;
            }
        }
        return new Location(container, unescape(parts[parts.length - 1]));
    }

    private static JsonNode child(JsonNode container, String key) {
        if (container.isObject()) {
            return container.get(key);
        }
        try {
            int index = Integer.parseInt(key);
            return index >= 0 && index < container.size() ? container.get(index) : null;
        } catch (NumberFormatException e) {
            return null;
        }
    }

    private static String unescape(String token) {
        return token.replace("~1", "/").replace("~0", "~");
    }

    private static String pathOf(JsonNode operation, String field, String kind) throws PatchException {
        String path = textOf(operation, field);
        if (path == null) {
            throw failed(kind + " operation failed to decode " + field + MISSING);
        }
        return path;
    }

    private static String textOf(JsonNode operation, String field) {
        JsonNode value = operation.get(field);
        return value != null && value.isTextual() ? value.asText() : null;
    }

    private static JsonNode valueOf(JsonNode operation) {
        JsonNode value = operation.get("value");
        return value == null ? NullNode.getInstance() : value.deepCopy();
    }

    private static PatchException failed(String detail) {
        return PatchException.jsonPatchFailed(detail);
    }

    /** A failure inside one container, worded like the library's, to be prefixed with the operation. */
    private static final class LocationException extends Exception {
        LocationException(String message) {
            super(message);
        }
    }

    /** One key in one container (object member or array index) that an operation works on. */
    private static final class Location {
        private final JsonNode container;
        private final String key;

        Location(JsonNode container, String key) {
            this.container = container;
            this.key = key;
        }

        /** The value, null when an object lacks the key; an array index out of range is an error. */
        JsonNode getOrNull() throws LocationException {
            if (container instanceof ObjectNode object) {
                return object.get(key);
            }
            return container.get(existingIndex());
        }

        void set(JsonNode value) throws LocationException {
            if (container instanceof ObjectNode object) {
                object.set(key, value);
            } else {
                ((ArrayNode) container).set(existingIndex(), value);
            }
        }

        void add(JsonNode value) throws LocationException {
            if (container instanceof ObjectNode object) {
                object.set(key, value);
                return;
            }
            ArrayNode array = (ArrayNode) container;
            if (key.equals("-")) {
                array.add(value);
                return;
            }
            int index = parseIndex("value was not a proper array index: '" + key + "': ");
            int size = array.size() + 1; // one past the end is where an add may insert
            if (index >= size || index < -size) {
                throw new LocationException("Unable to access invalid index: " + index + INVALID_INDEX);
            }
            array.insert(index < 0 ? index + size : index, value);
        }

        void remove() throws LocationException {
            if (container instanceof ObjectNode object) {
                if (!object.has(key)) {
                    throw new LocationException("Unable to remove nonexistent key: " + key + MISSING);
                }
                object.remove(key);
            } else {
                ((ArrayNode) container).remove(existingIndex());
            }
        }

        private int existingIndex() throws LocationException {
            int index = parseIndex("");
            int size = container.size();
            if (index >= size || index < -size) {
                throw new LocationException("Unable to access invalid index: " + index + INVALID_INDEX);
            }
            return index < 0 ? index + size : index;
        }

        /** @param context what the library says before Go's own parse error */
        private int parseIndex(String context) throws LocationException {
            try {
                return Integer.parseInt(key);
            } catch (NumberFormatException e) {
                throw new LocationException(context + "strconv.Atoi: parsing \"" + key + "\": invalid syntax");
            }
        }
    }
}
