package dev.drainboard.cluster.apiserver.patch;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import static dev.drainboard.cluster.apiserver.patch.Directives.DELETE;
import static dev.drainboard.cluster.apiserver.patch.Directives.DELETE_FROM_PRIMITIVE_LIST;
import static dev.drainboard.cluster.apiserver.patch.Directives.MERGE;
import static dev.drainboard.cluster.apiserver.patch.Directives.PATCH;
import static dev.drainboard.cluster.apiserver.patch.Directives.REPLACE;
import static dev.drainboard.cluster.apiserver.patch.Directives.RETAIN_KEYS;
import static dev.drainboard.cluster.apiserver.patch.Directives.SET_ELEMENT_ORDER;
import static dev.drainboard.cluster.apiserver.patch.PatchSchema.elements;
import static dev.drainboard.cluster.apiserver.patch.PatchSchema.field;

/**
 * Applies a Kubernetes strategic merge patch, following k8s.io/apimachinery's strategicpatch as
 * kube-apiserver runs it. Unlike kube-apiserver, which decodes the result into Go structs and so silently
 * drops leftover directives, the stored JSON is the result itself: every value the patch brings in is
 * therefore merged into an empty value, which resolves the directives nested inside it.
 */
final class StrategicMergePatch {

    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private static final String BAD_RETAIN_KEYS = "invalid patch format of retainKeys";
    private static final String BAD_PRIMITIVE_LIST = "invalid patch format of primitive list";
    private static final String BAD_SET_ELEMENT_ORDER = "invalid patch format of setElementOrder list";

    private final PatchSchema schema;

    StrategicMergePatch(PatchSchema schema) {
        this.schema = schema;
    }

    ObjectNode apply(ObjectNode target, ObjectNode patch) throws PatchException {
        return mergeObject(target.deepCopy(), patch, "");
    }

    /** Merges {@code patch} into {@code original}, which this call owns and may change. */
    private ObjectNode mergeObject(ObjectNode original, ObjectNode patch, String path) throws PatchException {
        JsonNode directive = patch.get(PATCH);
        if (directive != null) {
            switch (directive.asText()) {
                case REPLACE -> {
                    return mergeObject(NODES.objectNode(), without(patch, PATCH), path);
                }
                case DELETE -> {
                    return NODES.objectNode();
                }
                case MERGE -> patch = without(patch, PATCH); // the default, spelled out
                default -> throw unknownPatchType(directive, patch);
            }
        }
        retainKeys(original, patch);
        Map<String, ElementOrder> orders = elementOrders(original, patch, path);
        deleteFromPrimitiveLists(original, patch);
        for (Map.Entry<String, JsonNode> entry : patch.properties()) {
            if (!Directives.isDirective(entry.getKey())) {
                mergeField(original, entry.getKey(), entry.getValue(), path);
            }
        }
        for (Map.Entry<String, ElementOrder> order : orders.entrySet()) {
            applyElementOrder(original, order.getKey(), order.getValue());
        }
        return original;
    }

    private void mergeField(ObjectNode original, String key, JsonNode patchValue, String path) throws PatchException {
        String fieldPath = field(path, key);
        JsonNode current = original.get(key);
        if (patchValue.isNull()) {
            original.remove(key);
        } else if (current != null && current.isObject() && patchValue.isObject()) {
            original.set(key, mergeObject((ObjectNode) current, (ObjectNode) patchValue, fieldPath));
        } else if (current != null && current.isArray() && patchValue.isArray()) {
            original.set(key, mergeList((ArrayNode) current, (ArrayNode) patchValue, fieldPath));
        } else {
            // absent, null or of another type: the patch value replaces it
            original.set(key, fresh(patchValue, fieldPath));
        }
    }

    /** A patch value that lands where nothing was: merged into emptiness so its directives and nulls resolve. */
    private JsonNode fresh(JsonNode patchValue, String path) throws PatchException {
        if (patchValue.isObject()) {
            return mergeObject(NODES.objectNode(), (ObjectNode) patchValue, path);
        }
        if (patchValue.isArray()) {
            return mergeList(NODES.arrayNode(), (ArrayNode) patchValue, path);
        }
        return patchValue.deepCopy();
    }

    private ArrayNode mergeList(ArrayNode original, ArrayNode patch, String path) throws PatchException {
        ListStrategy strategy = schema.listAt(path);
        List<JsonNode> merged = switch (strategy.kind()) {
            case ATOMIC -> freshElements(list(patch), path);
            case MERGE_PRIMITIVES -> mergePrimitives(list(original), list(patch));
            case MERGE_BY_KEY -> mergeByKey(list(original), list(patch), strategy.mergeKey(), path);
        };
        return NODES.arrayNode().addAll(merged);
    }

    private List<JsonNode> freshElements(List<JsonNode> patchElements, String listPath) throws PatchException {
        List<JsonNode> result = new ArrayList<>();
        for (JsonNode element : patchElements) {
            result.add(fresh(element, elements(listPath)));
        }
        return result;
    }

    private List<JsonNode> mergePrimitives(List<JsonNode> original, List<JsonNode> patch) throws PatchException {
        requireSameElementKinds(original, patch);
        if (!patch.isEmpty() && patch.getFirst().isObject()) {
            throw PatchException.unclassified("cannot merge lists without merge key for type map");
        }
        List<JsonNode> merged = new ArrayList<>();
        for (JsonNode value : concat(original, patch)) {
            if (JsonValues.indexOf(merged, value) < 0) {
                merged.add(value.deepCopy());
            }
        }
        return ListOrder.ofPrimitives().arrange(merged, patch, original);
    }

    private List<JsonNode> mergeByKey(List<JsonNode> original, List<JsonNode> patch, String mergeKey, String path)
            throws PatchException {
        requireSameElementKinds(original, patch);
        String elementPath = elements(path);
        List<JsonNode> merged = new ArrayList<>(original);
        List<JsonNode> plainElements = new ArrayList<>();
        boolean replace = false;
        for (JsonNode element : patch) {
            JsonNode directive = element.get(PATCH);
            if (directive == null) {
                plainElements.add(element);
                continue;
            }
            switch (directive.asText()) {
                case DELETE -> {
                    JsonNode key = mergeKeyOf(element, mergeKey);
                    merged.removeIf(item -> JsonValues.same(item.get(mergeKey), key));
                }
                case REPLACE -> replace = true; // keep scanning: other directive elements are dropped too
                case MERGE -> plainElements.add(without((ObjectNode) element, PATCH));
                default -> throw unknownPatchType(directive, element);
            }
        }
        if (replace) {
            return freshElements(plainElements, path);
        }
        List<JsonNode> patchOrder = new ArrayList<>();
        for (JsonNode element : plainElements) {
            JsonNode key = mergeKeyOf(element, mergeKey);
            patchOrder.add(key);
            int index = indexOfKey(merged, mergeKey, key);
            if (index >= 0) {
                merged.set(index, mergeObject((ObjectNode) merged.get(index), (ObjectNode) element, elementPath));
            } else {
                merged.add(fresh(element, elementPath));
            }
        }
        return ListOrder.byKey(mergeKey).arrange(merged, patchOrder, keys(original, mergeKey));
    }

    private void retainKeys(ObjectNode original, ObjectNode patch) throws PatchException {
        JsonNode retained = patch.get(RETAIN_KEYS);
        if (retained == null) {
            return;
        }
        if (!retained.isArray()) {
            throw PatchException.badRequest(BAD_RETAIN_KEYS);
        }
        Set<String> keep = new HashSet<>();
        retained.forEach(key -> keep.add(key.asText()));
        for (Map.Entry<String, JsonNode> entry : patch.properties()) {
            boolean setsAField = !entry.getValue().isNull() && !Directives.isDirective(entry.getKey());
            if (setsAField && !keep.contains(entry.getKey())) {
                throw PatchException.badRequest(BAD_RETAIN_KEYS);
            }
        }
        original.retain(keep);
    }

    private void deleteFromPrimitiveLists(ObjectNode original, ObjectNode patch) throws PatchException {
        for (Map.Entry<String, JsonNode> entry : patch.properties()) {
            Optional<String> listField = Directives.parallelListField(entry.getKey(), DELETE_FROM_PRIMITIVE_LIST, BAD_PRIMITIVE_LIST);
            JsonNode current = listField.isPresent() ? original.get(listField.get()) : null;
            // kube-apiserver ignores a deletion list that is not a list, and so do we
            if (current != null && current.isArray() && entry.getValue().isArray()) {
                List<JsonNode> toDelete = list(entry.getValue());
                List<JsonNode> kept = list(current).stream().filter(v -> JsonValues.indexOf(toDelete, v) < 0).toList();
                original.set(listField.get(), NODES.arrayNode().addAll(kept));
            }
        }
    }

    /**
     * A {@code $setElementOrder} list, kept with the list as it was before the merge, to arrange the merged list.
     * Items are identities: merge key values, or the primitives themselves when {@code mergeKey} is null.
     */
    private record ElementOrder(List<JsonNode> wanted, List<JsonNode> before, String mergeKey) {

        static ElementOrder of(List<JsonNode> setElementOrder, List<JsonNode> listBefore, String mergeKey) throws PatchException {
            return mergeKey == null
                    ? new ElementOrder(setElementOrder, listBefore, null)
                    : new ElementOrder(keys(setElementOrder, mergeKey), keys(listBefore, mergeKey), mergeKey);
        }

        List<JsonNode> arrange(List<JsonNode> merged) throws PatchException {
            if (mergeKey == null) {
                return ListOrder.ofPrimitives().arrange(merged, wanted, before);
            }
            keys(merged, mergeKey); // like kube, refuse to place an item that lacks its merge key
            return ListOrder.byKey(mergeKey).arrange(merged, wanted, before);
        }
    }

    private Map<String, ElementOrder> elementOrders(ObjectNode original, ObjectNode patch, String path) throws PatchException {
        Map<String, ElementOrder> orders = new LinkedHashMap<>();
        for (Map.Entry<String, JsonNode> entry : patch.properties()) {
            Optional<String> listField = Directives.parallelListField(entry.getKey(), SET_ELEMENT_ORDER, BAD_SET_ELEMENT_ORDER);
            if (listField.isEmpty()) {
                continue;
            }
            requireListOrAbsent(entry.getValue());
            ListStrategy strategy = schema.listAt(field(path, listField.get()));
            if (strategy.kind() == ListStrategy.Kind.ATOMIC) {
                continue; // an atomic list is whatever the patch says, order included
            }
            String mergeKey = strategy.mergeKey();
            List<JsonNode> order = list(entry.getValue());
            JsonNode patchList = requireListOrAbsent(patch.get(listField.get()));
            if (patchList != null) {
                checkConsistentOrder(list(patchList), order, mergeKey);
            }
            JsonNode current = requireListOrAbsent(original.get(listField.get()));
            List<JsonNode> before = current != null ? list(current) : List.of();
            orders.put(listField.get(), ElementOrder.of(order, before, mergeKey));
        }
        return orders;
    }

    /** A value {@code $setElementOrder} works on must be a list, as kube-apiserver insists. */
    private static JsonNode requireListOrAbsent(JsonNode value) throws PatchException {
        if (value != null && !value.isArray()) {
            throw PatchException.unclassified("expected a []interface {}, but received a " + GoFormat.decodedTypeName(value));
        }
        return value;
    }

    private static void applyElementOrder(ObjectNode original, String listField, ElementOrder order) throws PatchException {
        JsonNode merged = original.get(listField);
        if (merged != null && merged.isArray()) {
            original.set(listField, NODES.arrayNode().addAll(order.arrange(list(merged))));
        }
    }

    /** The patch list must name its items in the relative order its {@code $setElementOrder} gives. */
    private static void checkConsistentOrder(List<JsonNode> patchList, List<JsonNode> order, String mergeKey) throws PatchException {
        int p = 0;
        int o = 0;
        while (p < patchList.size() && o < order.size()) {
            JsonNode item = patchList.get(p);
            if (item.has(PATCH)) {
                p++;
                continue;
            }
            JsonNode itemId = mergeKey == null ? item : mergeKeyOf(item, mergeKey);
            JsonNode orderId = mergeKey == null ? order.get(o) : mergeKeyOf(order.get(o), mergeKey);
            if (JsonValues.same(itemId, orderId)) {
                p++;
            }
            o++;
        }
        while (p < patchList.size() && patchList.get(p).has(PATCH)) {
            p++;
        }
        if (p < patchList.size()) {
            throw PatchException.unclassified("The order in patch list:\n" + GoFormat.value(NODES.arrayNode().addAll(patchList))
                    + "\n doesn't match " + SET_ELEMENT_ORDER + " list:\n" + GoFormat.value(NODES.arrayNode().addAll(order)) + "\n");
        }
    }

    private static JsonNode mergeKeyOf(JsonNode element, String mergeKey) throws PatchException {
        JsonNode key = element.isObject() ? element.get(mergeKey) : null;
        if (key == null) {
            throw PatchException.unclassified("map: " + GoFormat.value(element) + " does not contain declared merge key: " + mergeKey);
        }
        return key;
    }

    private static List<JsonNode> keys(List<JsonNode> elements, String mergeKey) throws PatchException {
        List<JsonNode> keys = new ArrayList<>();
        for (JsonNode element : elements) {
            keys.add(mergeKeyOf(element, mergeKey));
        }
        return keys;
    }

    private static int indexOfKey(List<JsonNode> elements, String mergeKey, JsonNode key) {
        for (int i = 0; i < elements.size(); i++) {
            if (JsonValues.same(elements.get(i).get(mergeKey), key)) {
                return i;
            }
        }
        return -1;
    }

    /** Lists are merged only between elements of one JSON type, and never lists of lists. */
    private static void requireSameElementKinds(List<JsonNode> original, List<JsonNode> patch) throws PatchException {
        List<JsonNode> all = concat(original, patch);
        if (all.isEmpty()) {
            return;
        }
        if (all.getFirst().isArray()) {
            throw PatchException.badRequest("lists of lists are not supported");
        }
        for (JsonNode element : all) {
            if (element.getNodeType() != all.getFirst().getNodeType()) {
                throw PatchException.unclassified("list element types are not identical: ["
                        + GoFormat.value(NODES.arrayNode().addAll(original)) + " " + GoFormat.value(NODES.arrayNode().addAll(patch)) + "]");
            }
        }
    }

    private static PatchException unknownPatchType(JsonNode directive, JsonNode map) {
        return PatchException.unclassified("unknown patch type: " + GoFormat.value(directive) + " in map: " + GoFormat.value(map));
    }

    private static ObjectNode without(ObjectNode object, String key) {
        ObjectNode copy = object.deepCopy();
        copy.remove(key);
        return copy;
    }

    private static List<JsonNode> list(JsonNode array) {
        List<JsonNode> elements = new ArrayList<>(array.size());
        array.forEach(elements::add);
        return elements;
    }

    private static List<JsonNode> concat(List<JsonNode> first, List<JsonNode> second) {
        List<JsonNode> all = new ArrayList<>(first);
        all.addAll(second);
        return all;
    }
}
