package dev.drainboard.cluster.apiserver;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.drainboard.cluster.apiserver.schema.StructuralSchema;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What apiextensions-apiserver does with a custom resource's body before it is stored (customresource_handler.go):
 * pruning against the version's structural schema, the {@code fieldValidation} answer to unknown fields
 * ({@code Strict}: 400 {@code strict decoding error: unknown field "spec.domian"}; {@code Warn}, the default: a
 * {@code Warning} header each; {@code Ignore}), defaulting, and schema validation (422 with kube's field errors).
 * Built-in resources pass untouched. The one hook of the request path: {@link ResourceHandler} calls
 * {@link #apply} on every body it is about to store.
 */
final class CustomResourceSchemas {

    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(CustomResourceSchemas.class);

    /** How the body reached the server: the words of a strict decoding error depend on it (handlers/create.go, patch.go). */
    enum Source { CREATE_OR_UPDATE, PATCH, LOAD }

    private record Compiled(JsonNode source, StructuralSchema schema) {
    }

    /** Compiled schemas by "group/version/plural"; recompiled when a CRD update brings a new schema. */
    private final Map<String, Compiled> compiled = new ConcurrentHashMap<>();

    /**
     * Prunes, defaults and validates {@code object} (in place) as the custom resource {@code type}; throws 400 or 422
     * as kube-apiserver would. {@code fieldValidation} is the request's parameter (null: {@code Warn}).
     */
    void apply(ResourceType type, ObjectNode object, String fieldValidation, Source source) {
        apply(type, object, fieldValidation, source, List.of());
    }

    /**
     * As {@link #apply(ResourceType, ObjectNode, String, Source)}, with fields the schema served now lacks although our
     * CRD keeps them ({@code absent}: dotted paths such as {@code spec.addedNodeSelector}, for a release whose CRD has
     * no such field): pruned and reported as unknown fields, as that release's kube-apiserver would.
     */
    void apply(ResourceType type, ObjectNode object, String fieldValidation, Source source, List<String> absent) {
        StructuralSchema schema = schemaOf(type);
        if (schema == null) {
            return;
        }
        StructuralSchema.Result applied = schema.apply(object);
        List<String> unknown = new java.util.ArrayList<>(applied.unknownFields());
        for (String path : absent) {
            String[] parts = path.split("\\.");
            com.fasterxml.jackson.databind.JsonNode parent = object;
            for (int i = 0; i < parts.length - 1 && parent != null; i++) {
                parent = parent.get(parts[i]);
            }
            if (parent instanceof ObjectNode o && o.has(parts[parts.length - 1])) {
                o.remove(parts[parts.length - 1]);
                unknown.add(path);
            }
        }
        StructuralSchema.Result result = new StructuralSchema.Result(unknown, applied.errors());
        String directive = fieldValidation == null || fieldValidation.isEmpty() ? "Warn" : fieldValidation;
        if (!result.unknownFields().isEmpty()) {
            List<String> texts = result.unknownFields().stream().map(p -> "unknown field " + quote(p)).toList();
            if (directive.equals("Strict") || source == Source.LOAD) {
                String decoding = "strict decoding error: " + String.join(", ", texts);
                if (source == Source.PATCH) {
                    throw ApiException.badRequest(decoding);
                }
                throw ApiException.badRequest(type.kind() + " in version " + quote(type.version())
                        + " cannot be handled as a " + type.kind() + ": " + decoding);
            }
            if (directive.equals("Warn")) {
                texts.forEach(Warnings::add);
            }
            // A client writing fields the schema lacks loses them: worth a line in the log of a twin cluster.
            LOG.warn("{} {}: fields not in the schema of {} dropped (fieldValidation={}): {}", type.kind(),
                    Json.name(object), type.apiVersion(), directive, String.join(", ", result.unknownFields()));
        }
        if (!result.errors().isEmpty()) {
            throw ApiException.invalidFields(type, Json.name(object), result.errors());
        }
    }

    private StructuralSchema schemaOf(ResourceType type) {
        JsonNode source = type.schema();
        if (source == null || !type.isCustom() || !source.isObject()) {
            return null;
        }
        String key = type.group() + "/" + type.version() + "/" + type.plural();
        Compiled cached = compiled.get(key);
        if (cached == null || cached.source() != source) {
            cached = new Compiled(source, StructuralSchema.compile(source));
            compiled.put(key, cached);
        }
        return cached.schema();
    }

    private static String quote(String s) {
        return dev.drainboard.validation.FieldError.quote(s);
    }
}
