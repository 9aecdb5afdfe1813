package dev.drainboard.cluster.apiserver.patch;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * The patch operations of the API server, as pure functions over objects stored as JSON trees. None of
 * them changes its arguments; each returns a new object.
 */
public final class Patches {

    private Patches() {
    }

    /** RFC 6902 JSON Patch. Never mutates target; returns a new object. */
    public static ObjectNode applyJsonPatch(ObjectNode target, JsonNode patch) throws PatchException {
        return JsonPatch.apply(target, patch);
    }

    /** RFC 7386 JSON merge patch: null removes a key, objects merge, everything else (arrays too) replaces. */
    public static ObjectNode applyMergePatch(ObjectNode target, JsonNode patch) throws PatchException {
        if (!patch.isObject()) {
            // anything but an object would replace the whole object with a non-object
            throw PatchException.badRequest("Invalid JSON Patch");
        }
        return (ObjectNode) MergePatch.merge(target, patch);
    }

    /** Kubernetes strategic merge patch for the given schema (see {@link PatchSchema}). */
    public static ObjectNode applyStrategicMergePatch(ObjectNode target, JsonNode patch, PatchSchema schema) throws PatchException {
        if (patch.isNull()) {
            return target.deepCopy(); // a null body decodes to an empty patch
        }
        if (!patch.isObject()) {
            throw PatchException.badRequest("json: cannot unmarshal " + GoFormat.jsonTypeName(patch)
                    + " into Go value of type map[string]interface {}");
        }
        return new StrategicMergePatch(schema).apply(target, (ObjectNode) patch);
    }

    /**
     * Server-side apply, simplified to "create or merge": merges the applied configuration into existing
     * (may be null = create) with the strategic-merge list semantics of the schema, never corrupting the object.
     */
    public static ObjectNode applyServerSideApply(ObjectNode existingOrNull, ObjectNode applied, PatchSchema schema) throws PatchException {
        return new ServerSideApply(schema).apply(existingOrNull, applied);
    }
}
