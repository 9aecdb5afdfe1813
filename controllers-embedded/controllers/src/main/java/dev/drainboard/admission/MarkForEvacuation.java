package dev.drainboard.admission;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;

import java.util.Objects;

/**
 * The one write the eviction webhook makes: set {@code status.evacuationNodeName} of a VMI to the node its
 * launcher pod runs on, which tells the evacuation controller to migrate it away. The VMI CRD has no status
 * subresource, so this is a JSON patch on the VMI itself; {@code add} sets the field whether or not it exists.
 * A dry-run eviction sends the patch as a dry run too, so the API validates it without storing it.
 */
public record MarkForEvacuation(String namespace, String vmiName, String nodeName, boolean dryRun) {

    private static final ObjectMapper JSON = new ObjectMapper();

    public static final String PATH = "/status/evacuationNodeName";

    public MarkForEvacuation {
        Objects.requireNonNull(namespace, "namespace");
        Objects.requireNonNull(vmiName, "vmiName");
        Objects.requireNonNull(nodeName, "nodeName");
    }

    /** {@code [{"op":"add","path":"/status/evacuationNodeName","value":"<node>"}]}. */
    public String jsonPatch() {
        ArrayNode patch = JSON.createArrayNode();
        patch.addObject().put("op", "add").put("path", PATH).put("value", nodeName);
        return patch.toString();
    }
}
