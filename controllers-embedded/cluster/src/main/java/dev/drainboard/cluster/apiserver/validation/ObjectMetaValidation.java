package dev.drainboard.cluster.apiserver.validation;

import dev.drainboard.validation.GoStrings;

import dev.drainboard.validation.Names;
import dev.drainboard.validation.FieldError;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * apimachinery's ObjectMeta validation (api/validation/objectmeta.go and apis/meta/v1/validation, v1.32): names,
 * namespace, labels, annotations, owner references and finalizers, on create and on update. Errors come in kube's
 * order; where kube walks a Go map (labels, annotations), in key order.
 */
public final class ObjectMetaValidation {

    /** TotalAnnotationSizeLimitB: 256 KiB for all annotation keys and values together. */
    public static final int TOTAL_ANNOTATION_SIZE_LIMIT_BYTES = 256 * (1 << 10);

    private static final String FINALIZER_ORPHAN = "orphan";
    private static final String FINALIZER_FOREGROUND = "foregroundDeletion";

    private ObjectMetaValidation() {
    }

    /** ValidateObjectMetaAccessor: the metadata of an object being created (its name already generated). */
    public static List<FieldError> validate(JsonNode object, boolean namespaced, NameRule nameRule) {
        JsonNode meta = object.path("metadata");
        List<FieldError> errs = new ArrayList<>();
        String generateName = text(meta, "generateName");
        if (!generateName.isEmpty()) {
            for (String msg : nameRule.problems(generateName, true)) {
                errs.add(FieldError.invalid("metadata.generateName", generateName, msg));
            }
        }
        String name = text(meta, "name");
        if (name.isEmpty()) {
            errs.add(FieldError.required("metadata.name", "name or generateName is required"));
        } else {
            for (String msg : nameRule.problems(name, false)) {
                errs.add(FieldError.invalid("metadata.name", name, msg));
            }
        }
        if (namespaced) {
            String namespace = text(meta, "namespace");
            if (namespace.isEmpty()) {
                errs.add(FieldError.required("metadata.namespace", ""));
            } else {
                for (String msg : NameRule.DNS_LABEL.problems(namespace, false)) {
                    errs.add(FieldError.invalid("metadata.namespace", namespace, msg));
                }
            }
        } else if (!text(meta, "namespace").isEmpty()) {
            errs.add(FieldError.forbidden("metadata.namespace", "not allowed on this type"));
        }
        long generation = meta.path("generation").asLong(0);
        if (generation < 0) {
            errs.add(FieldError.invalid("metadata.generation", generation, "must be greater than or equal to 0"));
        }
        errs.addAll(labels(meta.path("labels"), "metadata.labels"));
        errs.addAll(annotations(meta.path("annotations"), "metadata.annotations"));
        errs.addAll(ownerReferences(meta.path("ownerReferences")));
        errs.addAll(finalizers(meta.path("finalizers")));
        return errs;
    }

    /** ValidateObjectMetaAccessorUpdate: what an update may not do to metadata, and the new labels and annotations. */
    public static List<FieldError> validateUpdate(JsonNode object, JsonNode old) {
        JsonNode meta = object.path("metadata");
        JsonNode oldMeta = old.path("metadata");
        List<FieldError> errs = new ArrayList<>();
        if (oldMeta.hasNonNull("deletionTimestamp")) {
            TreeSet<String> added = new TreeSet<>(strings(meta.path("finalizers")));
            added.removeAll(strings(oldMeta.path("finalizers")));
            if (!added.isEmpty()) {
                errs.add(FieldError.forbidden("metadata.finalizers",
                        "no new finalizers can be added if the object is being deleted, found new finalizers "
                                + FieldError.GoValue.stringSlice("[]string", List.copyOf(added))));
            }
        }
        long generation = meta.path("generation").asLong(0);
        if (generation < oldMeta.path("generation").asLong(0)) {
            errs.add(FieldError.invalid("metadata.generation", generation, "must not be decremented"));
        }
        errs.addAll(labels(meta.path("labels"), "metadata.labels"));
        errs.addAll(annotations(meta.path("annotations"), "metadata.annotations"));
        errs.addAll(ownerReferences(meta.path("ownerReferences")));
        return errs;
    }

    /** ValidateLabels: every key a qualified name, every value a label value. */
    public static List<FieldError> labels(JsonNode labels, String field) {
        List<FieldError> errs = new ArrayList<>();
        for (Map.Entry<String, String> label : sorted(labels).entrySet()) {
            for (String msg : Names.qualifiedName(label.getKey())) {
                errs.add(FieldError.invalid(field, label.getKey(), msg));
            }
            for (String msg : Names.labelValue(label.getValue())) {
                errs.add(FieldError.invalid(field, label.getValue(), msg));
            }
        }
        return errs;
    }

    /** ValidateAnnotations: keys are qualified names in any case; keys and values together at most 256 KiB. */
    public static List<FieldError> annotations(JsonNode annotations, String field) {
        List<FieldError> errs = new ArrayList<>();
        long total = 0;
        for (Map.Entry<String, String> annotation : sorted(annotations).entrySet()) {
            String key = annotation.getKey();
            for (String msg : Names.qualifiedName(key.toLowerCase(Locale.ROOT))) {
                errs.add(FieldError.invalid(field, key, msg));
            }
            total += GoStrings.length(key) + GoStrings.length(annotation.getValue());
        }
        if (total > TOTAL_ANNOTATION_SIZE_LIMIT_BYTES) {
            errs.add(FieldError.tooLong(field, TOTAL_ANNOTATION_SIZE_LIMIT_BYTES));
        }
        return errs;
    }

    /** validateOwnerReference for each reference: a version in apiVersion, a kind, a name and a uid. */
    static List<FieldError> ownerReferences(JsonNode references) {
        List<FieldError> errs = new ArrayList<>();
        for (JsonNode ref : references) {
            String apiVersion = text(ref, "apiVersion");
            if (version(apiVersion).isEmpty()) {
                errs.add(FieldError.invalid("metadata.ownerReferences.apiVersion", apiVersion, "version must not be empty"));
            }
            for (String field : new String[] {"kind", "name", "uid"}) {
                String value = text(ref, field);
                if (value.isEmpty()) {
                    errs.add(FieldError.invalid("metadata.ownerReferences." + field, value, "must not be empty"));
                }
            }
        }
        return errs;
    }

    /** ValidateFinalizers: qualified names, and never both orphan and foregroundDeletion. */
    static List<FieldError> finalizers(JsonNode finalizers) {
        List<FieldError> errs = new ArrayList<>();
        List<String> names = strings(finalizers);
        for (String finalizer : names) {
            for (String msg : Names.qualifiedName(finalizer)) {
                errs.add(FieldError.invalid("metadata.finalizers", finalizer, msg));
            }
        }
        if (names.contains(FINALIZER_ORPHAN) && names.contains(FINALIZER_FOREGROUND)) {
            errs.add(FieldError.invalid("metadata.finalizers", FieldError.GoValue.stringSlice("[]string", names),
                    "finalizer " + FINALIZER_ORPHAN + " and " + FINALIZER_FOREGROUND + " cannot be both set"));
        }
        return errs;
    }

    /** schema.ParseGroupVersion's version: "" for "", for a trailing '/', and for more than one '/'. */
    private static String version(String apiVersion) {
        int slashes = (int) apiVersion.chars().filter(c -> c == '/').count();
        if (slashes == 0) {
            return apiVersion;
        }
        if (slashes > 1) {
            return "";
        }
        return apiVersion.substring(apiVersion.indexOf('/') + 1);
    }

    private static Map<String, String> sorted(JsonNode map) {
        Map<String, String> out = new TreeMap<>();
        if (map != null && map.isObject()) {
            for (Iterator<Map.Entry<String, JsonNode>> it = map.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> e = it.next();
                out.put(e.getKey(), e.getValue().isNull() ? "" : e.getValue().asText());
            }
        }
        return out;
    }

    private static List<String> strings(JsonNode array) {
        List<String> out = new ArrayList<>();
        if (array != null && array.isArray()) {
            array.forEach(n -> out.add(n.asText()));
        }
        return out;
    }

    private static String text(JsonNode node, String field) {
        JsonNode value = node.get(field);
        return value == null || value.isNull() ? "" : value.asText();
    }
}
