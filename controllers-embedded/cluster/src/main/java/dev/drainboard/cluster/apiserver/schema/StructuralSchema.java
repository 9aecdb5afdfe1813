package dev.drainboard.cluster.apiserver.schema;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.drainboard.validation.FieldError;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * A CRD's {@code openAPIV3Schema}, compiled once, applied to a custom resource the way kube-apiserver's
 * apiextensions does on every write: unknown fields are pruned (and reported, for {@code fieldValidation}) except
 * under {@code x-kubernetes-preserve-unknown-fields}; defaults fill absent fields; {@code null}s of non-nullable
 * fields without a default are dropped; then types, required, enum, formats, int-or-string and the numeric, length
 * and item bounds are checked, with kube's field paths and messages.
 * <p>Sources: apiextensions-apiserver pkg/apiserver/schema/pruning/algorithm.go (pruning, paths {@code a.b[0].c}),
 * pkg/apiserver/schema/defaulting (defaults, PruneNonNullableNullsWithoutDefaults), pkg/apiserver/validation/
 * validation.go (kube-openapi results turned into field errors) and kube-openapi pkg/validation/errors (messages).
 * Not done here: CEL rules ({@code x-kubernetes-validations}), list-type set/map uniqueness, oneOf/allOf/not, the
 * metadata of embedded resources.
 */
public final class StructuralSchema {

    /** ObjectMeta's fields: what survives pruning under metadata (kube decodes metadata into ObjectMeta). */
    private static final Set<String> OBJECT_META_FIELDS = Set.of("name", "generateName", "namespace", "selfLink",
            "uid", "resourceVersion", "generation", "creationTimestamp", "deletionTimestamp",
            "deletionGracePeriodSeconds", "labels", "annotations", "ownerReferences", "finalizers", "managedFields");

    private final String type;
    private final boolean nullable;
    private final boolean preserveUnknown;
    private final boolean embeddedResource;
    private final boolean intOrString;
    private final Map<String, StructuralSchema> properties;
    private final StructuralSchema additionalProperties;
    private final StructuralSchema items;
    private final List<String> required;
    private final List<JsonNode> enumValues;
    private final JsonNode defaultValue;
    private final String format;
    private final BigDecimal minimum;
    private final boolean exclusiveMinimum;
    private final BigDecimal maximum;
    private final boolean exclusiveMaximum;
    private final Integer minLength;
    private final Integer maxLength;
    private final Pattern pattern;
    private final String patternText;
    private final Integer minItems;
    private final Integer maxItems;

    private StructuralSchema(JsonNode s) {
        type = s.path("type").asText("");
        nullable = s.path("nullable").asBoolean(false);
        preserveUnknown = s.path("x-kubernetes-preserve-unknown-fields").asBoolean(false);
        embeddedResource = s.path("x-kubernetes-embedded-resource").asBoolean(false);
        intOrString = s.path("x-kubernetes-int-or-string").asBoolean(false);
        Map<String, StructuralSchema> props = new LinkedHashMap<>();
        s.path("properties").properties().forEach(e -> props.put(e.getKey(), new StructuralSchema(e.getValue())));
        properties = Map.copyOf(props);
        JsonNode additional = s.get("additionalProperties");
        additionalProperties = additional != null && additional.isObject() ? new StructuralSchema(additional) : null;
        items = s.has("items") && s.get("items").isObject() ? new StructuralSchema(s.get("items")) : null;
        List<String> req = new ArrayList<>();
        s.path("required").forEach(r -> req.add(r.asText()));
        required = List.copyOf(req);
        List<JsonNode> enums = new ArrayList<>();
        s.path("enum").forEach(enums::add);
        enumValues = List.copyOf(enums);
        defaultValue = s.has("default") ? s.get("default").deepCopy() : null;
        format = s.path("format").asText("");
        minimum = s.has("minimum") ? s.get("minimum").decimalValue() : null;
        exclusiveMinimum = s.path("exclusiveMinimum").asBoolean(false);
        maximum = s.has("maximum") ? s.get("maximum").decimalValue() : null;
        exclusiveMaximum = s.path("exclusiveMaximum").asBoolean(false);
        minLength = s.has("minLength") ? s.get("minLength").asInt() : null;
        maxLength = s.has("maxLength") ? s.get("maxLength").asInt() : null;
        patternText = s.has("pattern") ? s.get("pattern").asText() : null;
        pattern = patternText == null ? null : Pattern.compile(patternText);
        minItems = s.has("minItems") ? s.get("minItems").asInt() : null;
        maxItems = s.has("maxItems") ? s.get("maxItems").asInt() : null;
    }

    /** Compiles a CRD version's {@code openAPIV3Schema}. */
    public static StructuralSchema compile(JsonNode openApiV3Schema) {
        return new StructuralSchema(openApiV3Schema);
    }

    /**
     * What applying the schema found: the paths of the unknown fields it pruned ({@code spec.domian},
     * {@code spec.volumes[0].nmae}), in the order met, and the validation errors.
     */
    public record Result(List<String> unknownFields, List<FieldError> errors) {
    }

    /**
     * Prunes, defaults and validates a whole custom resource in place (the root is a resource: apiVersion, kind
     * and metadata are kept, metadata pruned to ObjectMeta's fields).
     */
    public Result apply(ObjectNode object) {
        List<String> unknown = new ArrayList<>();
        prune(object, "", true, unknown);
        defaultAndDropNulls(object);
        List<FieldError> errors = new ArrayList<>();
        validate(object, "", true, errors);
        return new Result(unknown, errors);
    }

    // ---- pruning ----

    private void prune(JsonNode value, String path, boolean resourceRoot, List<String> unknown) {
        if (preserveUnknown) {
            // Unknown fields stay, but known ones below are still pruned by their own schemas.
            if (value instanceof ObjectNode object) {
                for (Map.Entry<String, JsonNode> e : object.properties()) {
                    StructuralSchema child = properties.get(e.getKey());
                    if (child == null && additionalProperties != null) {
                        child = additionalProperties;
                    }
                    if (child != null) {
                        child.prune(e.getValue(), join(path, e.getKey()), false, unknown);
                    }
                }
            } else if (value instanceof ArrayNode array && items != null) {
                pruneItems(array, path, unknown);
            }
            return;
        }
        if (value instanceof ObjectNode object) {
            boolean resource = resourceRoot || embeddedResource;
            Iterator<Map.Entry<String, JsonNode>> fields = object.properties().iterator();
            while (fields.hasNext()) {
                Map.Entry<String, JsonNode> e = fields.next();
                String key = e.getKey();
                String child = join(path, key);
                if (resource && (key.equals("apiVersion") || key.equals("kind")) && e.getValue().isTextual()) {
                    continue;
                }
                if (resource && key.equals("metadata") && e.getValue() instanceof ObjectNode meta) {
                    pruneMetadata(meta, child, unknown);
                    continue;
                }
                StructuralSchema schema = properties.get(key);
                if (schema == null && additionalProperties != null) {
                    schema = additionalProperties;
                }
                if (schema == null) {
                    unknown.add(child);
                    fields.remove();
                } else {
                    schema.prune(e.getValue(), child, false, unknown);
                }
            }
        } else if (value instanceof ArrayNode array && items != null) {
            pruneItems(array, path, unknown);
        }
    }

    private void pruneItems(ArrayNode array, String path, List<String> unknown) {
        for (int i = 0; i < array.size(); i++) {
            items.prune(array.get(i), path + "[" + i + "]", false, unknown);
        }
    }

    private static void pruneMetadata(ObjectNode meta, String path, List<String> unknown) {
        Iterator<String> names = meta.fieldNames();
        while (names.hasNext()) {
            String name = names.next();
            if (!OBJECT_META_FIELDS.contains(name)) {
                unknown.add(path + "." + name);
                names.remove();
            }
        }
    }

    private static String join(String path, String key) {
        return path.isEmpty() ? key : path + "." + key;
    }

    // ---- defaulting ----

    private void defaultAndDropNulls(JsonNode value) {
        if (value instanceof ObjectNode object) {
            for (Map.Entry<String, StructuralSchema> p : properties.entrySet()) {
                StructuralSchema child = p.getValue();
                JsonNode present = object.get(p.getKey());
                if (child.defaultValue != null && (present == null || present.isNull())) {
                    object.set(p.getKey(), child.defaultValue.deepCopy());
                }
            }
            Iterator<Map.Entry<String, JsonNode>> fields = object.properties().iterator();
            while (fields.hasNext()) {
                Map.Entry<String, JsonNode> e = fields.next();
                StructuralSchema child = properties.get(e.getKey());
                if (child == null) {
                    child = additionalProperties;
                }
                if (child == null) {
                    continue;
                }
                if (e.getValue().isNull() && !child.nullable) {
                    fields.remove();
                } else {
                    child.defaultAndDropNulls(e.getValue());
                }
            }
        } else if (value instanceof ArrayNode array && items != null) {
            for (JsonNode item : array) {
                items.defaultAndDropNulls(item);
            }
        }
    }

    // ---- validation ----

    private void validate(JsonNode value, String path, boolean resourceRoot, List<FieldError> errors) {
        if (value.isNull()) {
            if (!nullable && !type.isEmpty()) {
                errors.add(typeError(path, "null"));
            }
            return;
        }
        String actual = jsonType(value);
        if (intOrString) {
            if (!actual.equals("integer") && !actual.equals("string")) {
                errors.add(typeError(path, "integer,string", actual));
                return;
            }
        } else if (!type.isEmpty() && !type.equals(actual) && !(type.equals("number") && actual.equals("integer"))) {
            errors.add(typeError(path, type, actual));
            return;
        }
        if (!enumValues.isEmpty() && !enumValues.contains(value)) {
            List<String> allowed = enumValues.stream().map(v -> v.isTextual() ? v.asText() : v.toString()).toList();
            errors.add(FieldError.notSupported(path, goValue(value), allowed));
        }
        if (value.isTextual()) {
            validateString(value.asText(), path, errors);
        } else if (value.isNumber()) {
            validateNumber(value, path, errors);
        } else if (value instanceof ObjectNode object) {
            validateObject(object, path, resourceRoot || embeddedResource, errors);
        } else if (value instanceof ArrayNode array) {
            if (minItems != null && array.size() < minItems) {
                errors.add(FieldError.invalid(path, goValue(array),
                        path + " in body should have at least " + minItems + " items"));
            }
            if (maxItems != null && array.size() > maxItems) {
                errors.add(new FieldError(FieldError.Type.TOO_MANY, path, array.size(),
                        "must have at most " + maxItems + " items"));
            }
            if (items != null) {
                for (int i = 0; i < array.size(); i++) {
                    items.validate(array.get(i), path + "[" + i + "]", false, errors);
                }
            }
        }
    }

    private void validateObject(ObjectNode object, String path, boolean resource, List<FieldError> errors) {
        if (embeddedResource) {
            validateEmbeddedTypeMeta(object, path, errors);
        }
        for (String name : required) {
            if (!object.has(name) || (resource && name.equals("metadata") && object.get(name).isNull())) {
                errors.add(FieldError.required(join(path, name), ""));
            }
        }
        for (Map.Entry<String, JsonNode> e : object.properties()) {
            String key = e.getKey();
            if (resource && key.equals("metadata")) {
                continue; // ObjectMeta has its own validation
            }
            StructuralSchema child = properties.get(key);
            if (child == null) {
                child = additionalProperties;
            }
            if (child != null) {
                child.validate(e.getValue(), join(path, key), false, errors);
            }
        }
    }

    /**
     * An embedded resource needs apiVersion and kind, both non-empty strings (apiextensions-apiserver
     * pkg/apiserver/schema/objectmeta/validation.go, validateEmbeddedResource).
     */
    private static void validateEmbeddedTypeMeta(ObjectNode object, String path, List<FieldError> errors) {
        for (String field : List.of("apiVersion", "kind")) {
            JsonNode value = object.get(field);
            String at = join(path, field);
            if (value == null) {
                errors.add(FieldError.required(at, ""));
            } else if (!value.isTextual()) {
                errors.add(FieldError.invalid(at, goValue(value), "must be a string"));
            } else if (value.asText().isEmpty()) {
                errors.add(FieldError.invalid(at, "", "must not be empty"));
            } else if (field.equals("apiVersion") && value.asText().chars().filter(c -> c == '/').count() > 1) {
                // schema.ParseGroupVersion
                errors.add(FieldError.invalid(at, value.asText(), "unexpected GroupVersion string: " + value.asText()));
            }
        }
    }

    private void validateString(String text, String path, List<FieldError> errors) {
        int length = text.codePointCount(0, text.length());
        if (minLength != null && length < minLength) {
            errors.add(FieldError.invalid(path, text, path + " in body should be at least " + minLength + " chars long"));
        }
        if (maxLength != null && length > maxLength) {
            errors.add(FieldError.tooLong(path, maxLength));
        }
        if (pattern != null && !pattern.matcher(text).find()) {
            errors.add(FieldError.invalid(path, text, path + " in body should match '" + patternText + "'"));
        }
        if (format.equals("date-time") && !Formats.isDateTime(text)) {
            errors.add(FieldError.invalid(path, text, path + " in body must be of type date-time: " + FieldError.quote(text)));
        }
    }

    private void validateNumber(JsonNode value, String path, List<FieldError> errors) {
        BigDecimal number = value.decimalValue();
        if (minimum != null) {
            int c = number.compareTo(minimum);
            if (c < 0 || (exclusiveMinimum && c == 0)) {
                errors.add(FieldError.invalid(path, goValue(value), path + " in body should be greater than "
                        + (exclusiveMinimum ? "" : "or equal to ") + goNumber(minimum)));
            }
        }
        if (maximum != null) {
            int c = number.compareTo(maximum);
            if (c > 0 || (exclusiveMaximum && c == 0)) {
                errors.add(FieldError.invalid(path, goValue(value), path + " in body should be less than "
                        + (exclusiveMaximum ? "" : "or equal to ") + goNumber(maximum)));
            }
        }
    }

    /** kube-openapi's InvalidType, as a TypeInvalid field error: the value shown is the JSON type met. */
    private static FieldError typeError(String path, String expected, String actual) {
        return FieldError.invalid(path, actual, path + " in body must be of type " + expected + ": " + FieldError.quote(actual));
    }

    private FieldError typeError(String path, String actual) {
        return typeError(path, intOrString ? "integer,string" : type, actual);
    }

    private static String jsonType(JsonNode value) {
        if (value.isTextual()) {
            return "string";
        }
        if (value.isIntegralNumber()) {
            return "integer";
        }
        if (value.isNumber()) {
            return "number";
        }
        if (value.isBoolean()) {
            return "boolean";
        }
        if (value.isArray()) {
            return "array";
        }
        if (value.isObject()) {
            return "object";
        }
        return "null";
    }

    /** A value as Go's %v/%q prints it in a field error: strings quoted, numbers and booleans bare. */
    private static Object goValue(JsonNode value) {
        if (value.isTextual()) {
            return value.asText();
        }
        if (value.isNumber()) {
            return new FieldError.GoValue(goNumber(value.decimalValue()));
        }
        if (value.isBoolean()) {
            return new FieldError.GoValue(Boolean.toString(value.asBoolean()));
        }
        return new FieldError.GoValue(value.toString());
    }

    private static String goNumber(BigDecimal number) {
        BigDecimal stripped = number.stripTrailingZeros();
        return stripped.scale() <= 0 ? stripped.toBigInteger().toString() : stripped.toPlainString();
    }

    /** The string formats kube-openapi checks that KubeVirt's schemas use. */
    static final class Formats {
        private static final Pattern DATE_TIME = Pattern.compile(
                "^\\d{4}-\\d{2}-\\d{2}[Tt ]\\d{2}:\\d{2}:\\d{2}(\\.\\d+)?([Zz]|[+-]\\d{2}:\\d{2})$");

        private Formats() {
        }

        static boolean isDateTime(String text) {
            return DATE_TIME.matcher(text).matches();
        }
    }
}
