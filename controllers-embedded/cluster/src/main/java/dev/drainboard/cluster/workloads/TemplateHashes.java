package dev.drainboard.cluster.workloads;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.drainboard.architecture.Pure;
import dev.drainboard.cluster.apiserver.Json;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

/**
 * The names the workload controllers derive from a pod template.
 *
 * <p>kube-controller-manager hashes Go structs: a Deployment's {@code pod-template-hash} is FNV-1a over a
 * {@code hashutil.DeepHashObject} dump of the template, plus the collision count
 * ({@code controller.ComputeHash}, pkg/controller/controller_utils.go); a StatefulSet's or DaemonSet's
 * ControllerRevision name is FNV-1 over the revision's JSON patch {@code {"spec":{"template":{…,"$patch":"replace"}}}}
 * ({@code HashControllerRevision}, pkg/controller/history/controller_history.go). Both are written with
 * {@code rand.SafeEncodeString} of the decimal sum, so they look like {@code 5d8f7c9b4}.
 *
 * <p>Here the same hash functions and the same encoding run over the stored template as canonical JSON (object keys
 * sorted, as Go's {@code json.Marshal} of a map sorts them). The values are stable — the same template always gives
 * the same name — but they are not byte-for-byte kube's: Go's struct dump and its JSON of a fully defaulted
 * template are not what this server stores. Nothing depends on kube's exact values: a Deployment finds its new
 * ReplicaSet by comparing templates ({@code EqualIgnoreHash}), not by name.
 */
@Pure
public final class TemplateHashes {

    /** {@code k8s.io/apimachinery/pkg/util/rand}'s alphabet: no vowels, no 0, 1 or 3. */
    private static final String ALPHANUMS = "bcdfghjklmnpqrstvwxz2456789";
    private static final int FNV_OFFSET = 0x811c9dc5;
    private static final int FNV_PRIME = 0x01000193;

    private TemplateHashes() {
    }

    /** A Deployment's {@code pod-template-hash} for its template and {@code status.collisionCount} (null for none). */
    public static String podTemplateHash(JsonNode template, Integer collisionCount) {
        int hash = fnv1a(FNV_OFFSET, canonicalJson(template).getBytes(StandardCharsets.UTF_8));
        if (collisionCount != null) {
            // binary.LittleEndian.PutUint32 into an 8-byte slice, all 8 bytes hashed.
            byte[] count = new byte[8];
            int c = collisionCount;
            for (int i = 0; i < 4; i++) {
                count[i] = (byte) (c >>> (8 * i));
            }
            hash = fnv1a(hash, count);
        }
        return safeEncode(Integer.toUnsignedString(hash));
    }

    /** The hash part of a StatefulSet's or DaemonSet's ControllerRevision name for its template. */
    public static String revisionHash(JsonNode template) {
        ObjectNode patch = Json.object();
        ObjectNode copy = template.isObject() ? ((ObjectNode) template).deepCopy() : Json.object();
        copy.put("$patch", "replace");
        patch.putObject("spec").set("template", copy);
        return safeEncode(Integer.toUnsignedString(fnv1(canonicalJson(patch).getBytes(StandardCharsets.UTF_8))));
    }

    /** {@code rand.SafeEncodeString}: each character mapped into the alphabet by its code modulo 27. */
    static String safeEncode(String text) {
        StringBuilder out = new StringBuilder(text.length());
        for (int i = 0; i < text.length(); i++) {
            out.append(ALPHANUMS.charAt(text.charAt(i) % ALPHANUMS.length()));
        }
        return out.toString();
    }

    static int fnv1a(int seed, byte[] data) {
        int hash = seed;
        for (byte b : data) {
            hash ^= b & 0xff;
            hash *= FNV_PRIME;
        }
        return hash;
    }

    static int fnv1(byte[] data) {
        int hash = FNV_OFFSET;
        for (byte b : data) {
            hash *= FNV_PRIME;
            hash ^= b & 0xff;
        }
        return hash;
    }

    /** JSON with every object's keys sorted. */
    public static String canonicalJson(JsonNode node) {
        StringBuilder out = new StringBuilder();
        write(node, out);
        return out.toString();
    }

    private static void write(JsonNode node, StringBuilder out) {
        if (node == null || node.isMissingNode()) {
            out.append("null");
        } else if (node.isObject()) {
            List<String> names = new ArrayList<>();
            node.fieldNames().forEachRemaining(names::add);
            names.sort(null);
            out.append('{');
            for (int i = 0; i < names.size(); i++) {
                if (i > 0) {
                    out.append(',');
                }
                out.append(Json.NODES.textNode(names.get(i)).toString()).append(':');
                write(node.get(names.get(i)), out);
            }
            out.append('}');
        } else if (node.isArray()) {
            out.append('[');
            for (int i = 0; i < node.size(); i++) {
                if (i > 0) {
                    out.append(',');
                }
                write(node.get(i), out);
            }
            out.append(']');
        } else {
            out.append(node.toString());
        }
    }

    /**
     * Whether two pod templates are the same but for the {@code pod-template-hash} label
     * ({@code EqualIgnoreHash}, pkg/controller/deployment/util/deployment_util.go), compared semantically: an
     * empty map or list is the same as none, as {@code apiequality.Semantic.DeepEqual} has it.
     */
    public static boolean equalIgnoringHash(JsonNode a, JsonNode b) {
        return normalised(withoutHash(a)).equals(normalised(withoutHash(b)));
    }

    private static JsonNode withoutHash(JsonNode template) {
        if (!(template instanceof ObjectNode object)) {
            return Json.object();
        }
        ObjectNode copy = object.deepCopy();
        if (copy.path("metadata").path("labels") instanceof ObjectNode labels) {
            labels.remove("pod-template-hash");
        }
        return copy;
    }

    /** Drops nulls and empty objects and lists, recursively. */
    static JsonNode normalised(JsonNode node) {
        if (node instanceof ObjectNode object) {
            ObjectNode out = Json.object();
            for (Iterator<String> it = object.fieldNames(); it.hasNext(); ) {
                String name = it.next();
                JsonNode value = normalised(object.get(name));
                if (!isEmpty(value)) {
                    out.set(name, value);
                }
            }
            return out;
        }
        if (node.isArray()) {
            var out = Json.NODES.arrayNode();
            for (JsonNode item : node) {
                out.add(normalised(item));
            }
            return out;
        }
        return node;
    }

    private static boolean isEmpty(JsonNode value) {
        return value == null || value.isNull() || (value.isContainerNode() && value.isEmpty());
    }
}
