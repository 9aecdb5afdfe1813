package dev.drainboard.cluster.apiserver.patch;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

import static dev.drainboard.cluster.apiserver.patch.PatchSchema.elements;
import static dev.drainboard.cluster.apiserver.patch.PatchSchema.field;

/**
 * Server-side apply reduced to "create or merge", without field ownership: the applied configuration is
 * merged into the live object, maps key by key, merging lists element by element on their list-map keys
 * (live order kept, new elements appended), primitive merge lists as sets, and atomic lists replaced.
 * Nulls in the applied configuration are ignored, as there is no ownership to say what they would remove.
 * Maps with {@code retainKeys} (a volume's source, a Deployment's strategy) drop the members the applied
 * configuration leaves out when it changes them, so switching a one-of never leaves two members set.
 */
final class ServerSideApply {

    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private final PatchSchema schema;

    ServerSideApply(PatchSchema schema) {
        this.schema = schema;
    }

    ObjectNode apply(ObjectNode existingOrNull, ObjectNode applied) throws PatchException {
        JsonNode managedFields = applied.path("metadata").get("managedFields");
        if (managedFields != null && !managedFields.isNull()) {
            throw PatchException.badRequest("metadata.managedFields must be nil");
        }
        ObjectNode live = existingOrNull == null ? NODES.objectNode() : existingOrNull.deepCopy();
        return new Application(applied).applyObject(live, applied, "", "");
    }

    /** One apply request; knows the applied kind to word errors as kube-apiserver does. */
    private final class Application {
        private final String groupVersionKind;

        Application(ObjectNode applied) {
            String apiVersion = applied.path("apiVersion").asText();
            this.groupVersionKind = (apiVersion.contains("/") ? apiVersion : "/" + apiVersion) + ", Kind=" + applied.path("kind").asText();
        }

        /** Applies {@code applied} onto {@code live}, which this call owns. */
        ObjectNode applyObject(ObjectNode live, ObjectNode applied, String path, String shownPath) throws PatchException {
            if (schema.retainsKeys(path) && !isSubset(applied, live)) {
                live.retain(presentKeys(applied));
            }
            for (Map.Entry<String, JsonNode> entry : applied.properties()) {
                String key = entry.getKey();
                JsonNode value = entry.getValue();
                String fieldPath = field(path, key);
                String shownFieldPath = shownPath + "." + key;
                if (Directives.isDirective(key)) {
                    throw notTyped(shownFieldPath + ": field not declared in schema");
                }
                JsonNode current = live.get(key);
                if (value.isObject()) {
                    ObjectNode base = current != null && current.isObject() ? (ObjectNode) current : NODES.objectNode();
                    live.set(key, applyObject(base, (ObjectNode) value, fieldPath, shownFieldPath));
                } else if (value.isArray()) {
                    ArrayNode base = current != null && current.isArray() ? (ArrayNode) current : NODES.arrayNode();
                    live.set(key, applyList(base, (ArrayNode) value, fieldPath, shownFieldPath));
                } else if (!value.isNull()) {
                    live.set(key, value.deepCopy());
                }
            }
            return live;
        }

        private ArrayNode applyList(ArrayNode live, ArrayNode applied, String path, String shownPath) throws PatchException {
            ListStrategy strategy = schema.listAt(path);
            return switch (strategy.kind()) {
                case ATOMIC -> replaceList(applied, path, shownPath);
                case MERGE_PRIMITIVES -> unionOf(live, applied, shownPath);
                case MERGE_BY_KEY -> mergeByKeys(live, applied, strategy, path, shownPath);
            };
        }

        private ArrayNode replaceList(ArrayNode applied, String path, String shownPath) throws PatchException {
            ArrayNode result = NODES.arrayNode();
            for (int i = 0; i < applied.size(); i++) {
                JsonNode element = applied.get(i);
                result.add(element.isObject()
                        ? applyObject(NODES.objectNode(), (ObjectNode) element, elements(path), shownPath + "[" + i + "]")
                        : element.deepCopy());
            }
            return result;
        }

        private ArrayNode unionOf(ArrayNode live, ArrayNode applied, String shownPath) throws PatchException {
            List<JsonNode> union = new ArrayList<>();
            live.forEach(union::add);
            for (int i = 0; i < applied.size(); i++) {
                JsonNode value = applied.get(i);
                if (!JsonValues.isScalar(value)) {
                    throw notTyped(shownPath + ": element " + i + ": expected a primitive value in a set");
                }
                if (JsonValues.indexOf(union, value) < 0) {
                    union.add(value.deepCopy());
                }
            }
            return NODES.arrayNode().addAll(union);
        }

        private ArrayNode mergeByKeys(ArrayNode live, ArrayNode applied, ListStrategy strategy, String path, String shownPath)
                throws PatchException {
            List<JsonNode> merged = new ArrayList<>();
            live.forEach(merged::add);
            List<String> seenKeys = new ArrayList<>();
            for (int i = 0; i < applied.size(); i++) {
                if (!(applied.get(i) instanceof ObjectNode element)) {
                    throw notTyped(shownPath + ": element " + i + ": expected an object in an associative list");
                }
                int position = i;
                String key = keyOf(element, strategy).orElseThrow(() -> notTyped(shownPath + ": element " + position
                        + ": associative list with keys has an element that omits key field \"" + strategy.mergeKey()
                        + "\" (and doesn't have default value)"));
                if (seenKeys.contains(key)) {
                    throw notTyped(shownPath + ": duplicate entries for key " + key);
                }
                seenKeys.add(key);
                String shownElementPath = shownPath + key;
                int index = indexOfKey(merged, strategy, key);
                if (index >= 0 && merged.get(index) instanceof ObjectNode liveElement) {
                    merged.set(index, applyObject(liveElement, element, elements(path), shownElementPath));
                } else {
                    merged.add(applyObject(NODES.objectNode(), element, elements(path), shownElementPath));
                }
            }
            return NODES.arrayNode().addAll(merged);
        }

        /**
         * The element's list-map key rendered as structured-merge-diff does, e.g. {@code [name="app"]}; empty
         * when the element lacks its merge key. Key fields with a default compare as that default when absent.
         */
        private Optional<String> keyOf(JsonNode element, ListStrategy strategy) {
            List<String> parts = new ArrayList<>();
            for (String keyField : strategy.listMapKeys()) {
                JsonNode value = element.get(keyField);
                if (value == null || value.isNull()) {
                    String fallback = strategy.keyDefaults().get(keyField);
                    if (fallback == null && keyField.equals(strategy.mergeKey())) {
                        return Optional.empty();
                    }
                    value = fallback == null ? NullNode.getInstance() : NODES.textNode(fallback);
                }
                parts.add(keyField + "=" + value);
            }
            return Optional.of(parts.stream().collect(Collectors.joining(",", "[", "]")));
        }

        private int indexOfKey(List<JsonNode> elements, ListStrategy strategy, String key) {
            for (int i = 0; i < elements.size(); i++) {
                if (keyOf(elements.get(i), strategy).filter(key::equals).isPresent()) {
                    return i;
                }
            }
            return -1;
        }

        private PatchException notTyped(String problem) {
            return PatchException.badRequest("failed to create typed patch object (" + groupVersionKind + "): " + problem);
        }
    }

    /** Whether applying {@code applied} onto {@code live} would add or change nothing. */
    private static boolean isSubset(JsonNode applied, JsonNode live) {
        if (applied.isObject() && live != null && live.isObject()) {
            for (Map.Entry<String, JsonNode> entry : applied.properties()) {
                if (!entry.getValue().isNull() && !isSubset(entry.getValue(), live.get(entry.getKey()))) {
                    return false;
                }
            }
            return true;
        }
        return JsonValues.same(applied, live);
    }

    private static List<String> presentKeys(ObjectNode object) {
        List<String> keys = new ArrayList<>();
        object.properties().forEach(entry -> {
            if (!entry.getValue().isNull()) {
                keys.add(entry.getKey());
            }
        });
        return keys;
    }
}
