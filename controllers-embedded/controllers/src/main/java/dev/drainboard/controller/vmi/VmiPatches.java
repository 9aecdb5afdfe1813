package dev.drainboard.controller.vmi;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.drainboard.kubevirt.api.VirtualMachineInstance;

import java.util.List;
import java.util.Map;

/**
 * Turns a {@link VmiChange} into a JSON patch (RFC 6902) against the VMI as the cache saw it. The first operation
 * tests {@code metadata.resourceVersion}: if anyone wrote the VMI since (virt-handler moving it to Running, the
 * webhook marking it for eviction), the patch is refused and the controller decides again on fresh data instead of
 * overwriting. Only the changed paths are written, so fields this model does not know are never touched.
 */
public final class VmiPatches {

    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private VmiPatches() {
    }

    /** The JSON patch, or null when the change is empty. */
    public static String jsonPatch(VirtualMachineInstance cached, VmiChange change) {
        if (change.isEmpty()) {
            return null;
        }
        ArrayNode ops = NODES.arrayNode();
        op(ops, "test", "/metadata/resourceVersion").put("value", cached.getMetadata().getResourceVersion());

        if (change.finalizers() != null) {
            setOrRemove(ops, "/metadata/finalizers", change.finalizers(), cached.getMetadata().getFinalizers() != null);
        }
        if (!change.labels().isEmpty()) {
            Map<String, String> existing = cached.getMetadata().getLabels();
            if (existing == null || existing.isEmpty()) {
                op(ops, "add", "/metadata/labels").set("value", MAPPER.valueToTree(change.labels()));
            } else {
                change.labels().forEach((k, v) -> op(ops, "add", "/metadata/labels/" + escape(k)).put("value", v));
            }
        }

        boolean statusChanges = change.phase() != null || change.nodeName() != null || change.conditions() != null
                || change.phaseTransitionTimestamps() != null || change.interfaces() != null;
        if (statusChanges && cached.getStatus() == null) {
            op(ops, "add", "/status").set("value", NODES.objectNode());
        }
        if (change.phase() != null) {
            op(ops, "add", "/status/phase").put("value", change.phase());
        }
        if (change.nodeName() != null) {
            op(ops, "add", "/status/nodeName").put("value", change.nodeName());
        }
        if (change.conditions() != null) {
            boolean present = cached.getStatus() != null && cached.getStatus().getConditions() != null;
            setOrRemove(ops, "/status/conditions", change.conditions(), present);
        }
        if (change.interfaces() != null) {
            op(ops, "add", "/status/interfaces").set("value", MAPPER.valueToTree(change.interfaces()));
        }
        if (change.phaseTransitionTimestamps() != null) {
            op(ops, "add", "/status/phaseTransitionTimestamps").set("value", MAPPER.valueToTree(change.phaseTransitionTimestamps()));
        }
        return ops.toString();
    }

    /** A list is written whole; an empty list is removed (as the API server drops empty lists anyway). */
    private static void setOrRemove(ArrayNode ops, String path, List<?> value, boolean present) {
        if (value.isEmpty()) {
            if (present) {
                op(ops, "remove", path);
            }
            return;
        }
        op(ops, "add", path).set("value", MAPPER.valueToTree(value));
    }

    private static ObjectNode op(ArrayNode ops, String op, String path) {
        ObjectNode node = ops.addObject();
        node.put("op", op);
        node.put("path", path);
        return node;
    }

    /** JSON pointer escaping of a map key ({@code kubevirt.io/nodeName} → {@code kubevirt.io~1nodeName}). */
    static String escape(String key) {
        return key.replace("~", "~0").replace("/", "~1");
    }
}
