package dev.drainboard.cluster.apiserver.select;

import dev.drainboard.labels.SelectorException;
import dev.drainboard.labels.ValidationMessages;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * The field selector contract of one resource, in kube-apiserver's two layers: which labels its field label
 * conversion function accepts (and renames), and what each canonical label's value is (its ToSelectableFields).
 * The layers differ: a pod accepts {@code status.podIPs} yet never sets it, so it always reads "".
 */
final class ResourceFields {
    private static final String NAME = "metadata.name";
    private static final String NAMESPACE = "metadata.namespace";

    private final Map<String, String> canonicalByAcceptedLabel;
    private final Map<String, FieldValue> valueByCanonicalLabel;
    /** The value of a label with no entry: "" for built-in kinds, the JSON path for custom resources. */
    private final Function<String, FieldValue> unlistedValue;
    private final Function<String, String> rejectionMessage;

    private ResourceFields(Builder builder) {
        this.canonicalByAcceptedLabel = Map.copyOf(builder.canonicalByAcceptedLabel);
        this.valueByCanonicalLabel = Map.copyOf(builder.valueByCanonicalLabel);
        this.unlistedValue = builder.unlistedValue;
        this.rejectionMessage = builder.rejectionMessage;
    }

    /** The canonical label kube-apiserver matches on, or its exact 400 message. */
    String canonicalLabel(String label) throws SelectorException {
        String canonical = canonicalByAcceptedLabel.get(label);
        if (canonical == null) {
            throw new SelectorException(rejectionMessage.apply(label));
        }
        return canonical;
    }

    /** The value {@code label} reads for matching; labels are taken through the accepted aliases first. */
    FieldValue value(String label) {
        String canonical = canonicalByAcceptedLabel.getOrDefault(label, label);
        FieldValue listed = valueByCanonicalLabel.get(canonical);
        return listed != null ? listed : unlistedValue.apply(canonical);
    }

    /** A kind with its own conversion function; most of them reject with this message. */
    static Builder builtIn(boolean namespaced) {
        return new Builder(namespaced, label -> FieldValue.NONE, label -> "field label not supported: " + label);
    }

    /** A built-in kind without a conversion function: runtime.DefaultMetaV1FieldSelectorConversion. */
    static ResourceFields metadataOnly() {
        return new Builder(true, label -> FieldValue.NONE,
                label -> ValidationMessages.quote(label) + " is not a known field selector: only \"metadata.name\", \"metadata.namespace\"")
                .build();
    }

    /** A custom resource: metadata fields plus the CRD's selectableFields, values read straight from the JSON. */
    static ResourceFields customResource(Set<String> selectableFields, boolean namespaced) {
        Builder builder = new Builder(namespaced, FieldValue::text, label -> "field label not supported: " + label);
        for (String field : selectableFields) {
            String label = field.startsWith(".") ? field.substring(1) : field;
            builder.field(label, FieldValue.text(label));
        }
        return builder.build();
    }

    static final class Builder {
        private final Map<String, String> canonicalByAcceptedLabel = new HashMap<>();
        private final Map<String, FieldValue> valueByCanonicalLabel = new HashMap<>();
        private final Function<String, FieldValue> unlistedValue;
        private Function<String, String> rejectionMessage;

        private Builder(boolean namespaced, Function<String, FieldValue> unlistedValue,
                        Function<String, String> rejectionMessage) {
            this.unlistedValue = unlistedValue;
            this.rejectionMessage = rejectionMessage;
            field(NAME, FieldValue.text(NAME));
            if (namespaced) {
                field(NAMESPACE, FieldValue.text(NAMESPACE));
            }
        }

        /** A label accepted as is, with where its value comes from. */
        Builder field(String label, FieldValue value) {
            canonicalByAcceptedLabel.put(label, label);
            valueByCanonicalLabel.put(label, value);
            return this;
        }

        /** A label accepted as another one, e.g. events.k8s.io's regarding.name for involvedObject.name. */
        Builder alias(String label, String canonicalLabel) {
            canonicalByAcceptedLabel.put(label, canonicalLabel);
            return this;
        }

        /** A canonical label whose value is read from a path of its own, e.g. involvedObject.name at regarding.name. */
        Builder value(String canonicalLabel, FieldValue value) {
            valueByCanonicalLabel.put(canonicalLabel, value);
            return this;
        }

        Builder rejectingWith(Function<String, String> message) {
            this.rejectionMessage = message;
            return this;
        }

        ResourceFields build() {
            return new ResourceFields(this);
        }
    }
}
