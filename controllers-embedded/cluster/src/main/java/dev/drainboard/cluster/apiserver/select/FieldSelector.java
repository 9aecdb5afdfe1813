package dev.drainboard.cluster.apiserver.select;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.MissingNode;
import dev.drainboard.labels.SelectorException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * A field selector with kube-apiserver's semantics: apimachinery's fields.ParseSelector syntax, the per-resource
 * field label checks of the apiserver's list/watch handler, and matching against ToSelectableFields values.
 * Immutable.
 */
public final class FieldSelector {
    private static final FieldSelector EVERYTHING = new FieldSelector(List.of());

    /** In apimachinery's order: the terms sorted as written. */
    private final List<FieldRequirement> requirements;

    private FieldSelector(List<FieldRequirement> requirements) {
        this.requirements = requirements;
    }

    /** Parses the {@code fieldSelector=} syntax; blank text selects everything. */
    public static FieldSelector parse(String text) throws SelectorException {
        List<FieldRequirement> requirements = FieldSelectorSyntax.parse(text == null ? "" : text);
        return requirements.isEmpty() ? EVERYTHING : new FieldSelector(List.copyOf(requirements));
    }

    /**
     * Checks every field against what kube-apiserver supports for this resource and returns the selector with
     * fields in their canonical names (a pod's {@code spec.host} becomes {@code spec.nodeName}). For a custom
     * resource, {@code extraFields} are its CRD's selectableFields jsonPaths ("spec.color"); the resource is
     * taken to be namespaced.
     */
    public FieldSelector validateFor(String group, String plural, Set<String> extraFields) throws SelectorException {
        return validateFor(group, plural, extraFields, true);
    }

    /** As {@link #validateFor(String, String, Set)}; a cluster-scoped custom resource also rejects metadata.namespace. */
    public FieldSelector validateFor(String group, String plural, Set<String> extraFields, boolean namespaced)
            throws SelectorException {
        ResourceFields fields = SelectableFields.of(group, plural, extraFields, namespaced);
        List<FieldRequirement> canonical = new ArrayList<>(requirements.size());
        for (FieldRequirement requirement : requirements) {
            canonical.add(requirement.withField(fields.canonicalLabel(requirement.field())));
        }
        return requirements.isEmpty() ? this : new FieldSelector(List.copyOf(canonical));
    }

    /** Whether {@code object}, a resource of this group and plural as JSON, has every selected field value. */
    public boolean matches(String group, String plural, JsonNode object) {
        ResourceFields fields = SelectableFields.of(group, plural, Set.of(), true);
        JsonNode json = object == null ? MissingNode.getInstance() : object;
        return requirements.stream().allMatch(r -> r.matches(fields.value(r.field()).of(json)));
    }

    /** If the selector pins {@code field} with = or ==, the value (fields.Selector.RequiresExactMatch). */
    public Optional<String> exactValue(String field) {
        return requirements.stream()
                .filter(r -> r.equal() && r.field().equals(field))
                .map(FieldRequirement::value)
                .findFirst();
    }

    public boolean isEverything() {
        return requirements.isEmpty();
    }

    /** The canonical text: terms sorted, "==" written "=", values escaped. Empty for everything. */
    @Override
    public String toString() {
        return requirements.stream().map(FieldRequirement::toString).collect(Collectors.joining(","));
    }
}
