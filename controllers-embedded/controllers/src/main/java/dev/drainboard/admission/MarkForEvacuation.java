package dev.drainboard.admission;

import dev.drainboard.kubevirt.KubeVirtAnnotations;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;

import java.util.Objects;

/**
 * The one write the eviction webhook makes: set {@code status.evacuationNodeName} of a VMI to the node its
 * launcher pod runs on, which tells the evacuation controller to migrate it away. The VMI CRD has no status
 * subresource, so this is a JSON patch on the VMI itself; {@code add} sets the field whether or not it exists.
 * A dry-run eviction sends the patch as a dry run too, so the API validates it without storing it.
 *
 * <p>When the descheduler sent the eviction, the same patch annotates the VMI {@code kubevirt.io/eviction-source:
 * descheduler}, as KubeVirt's pod-eviction-admitter.go does ({@code markVMI}), so the evacuation gives its VMIM the
 * descheduler's priority. KubeVirt writes that annotation with {@code replace}; {@code add} does the same to an object
 * member (RFC 6902 §4.1) and does not depend on the API server's leniency towards a missing one.
 *
 * @param byDescheduler      the descheduler sent the eviction
 * @param vmiHasAnnotations  the VMI has a {@code metadata.annotations} map to add to
 */
public record MarkForEvacuation(String namespace, String vmiName, String nodeName, boolean dryRun,
                                boolean byDescheduler, boolean vmiHasAnnotations) {

    private static final ObjectMapper JSON = new ObjectMapper();

    public static final String PATH = "/status/evacuationNodeName";

    public MarkForEvacuation {
        Objects.requireNonNull(namespace, "namespace");
        Objects.requireNonNull(vmiName, "vmiName");
        Objects.requireNonNull(nodeName, "nodeName");
    }

    /** A mark for an eviction someone other than the descheduler sent. */
    public MarkForEvacuation(String namespace, String vmiName, String nodeName, boolean dryRun) {
        this(namespace, vmiName, nodeName, dryRun, false, false);
    }

    /**
     * {@code [{"op":"add","path":"/status/evacuationNodeName","value":"<node>"}]}, plus the eviction source for the
     * descheduler.
     */
    public String jsonPatch() {
        ArrayNode patch = JSON.createArrayNode();
        patch.addObject().put("op", "add").put("path", PATH).put("value", nodeName);
        if (byDescheduler) {
            if (vmiHasAnnotations) {
                patch.addObject().put("op", "add").put("path", "/metadata/annotations/" + escape(KubeVirtAnnotations.EVICTION_SOURCE))
                        .put("value", KubeVirtAnnotations.EVICTION_SOURCE_DESCHEDULER);
            } else {
                patch.addObject().put("op", "add").put("path", "/metadata/annotations").putObject("value")
                        .put(KubeVirtAnnotations.EVICTION_SOURCE, KubeVirtAnnotations.EVICTION_SOURCE_DESCHEDULER);
            }
        }
        return patch.toString();
    }

    /** A JSON pointer token (RFC 6901): {@code ~} and {@code /} escaped. */
    private static String escape(String token) {
        return token.replace("~", "~0").replace("/", "~1");
    }
}
