package dev.drainboard.cluster.virtapi;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.drainboard.architecture.Pure;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * virt-api's VMI update admitter (pkg/virt-api/webhooks/validating-webhook/admitters/vmi-update-admitter.go): a VMI's
 * spec cannot change once it is created; status and metadata can. KubeVirt lets its own service accounts change the
 * spec through its subresources (hotplug); Drainboard's controllers never do. Specs are compared as apimachinery's
 * {@code equality.Semantic.DeepEqual} compares the decoded structs: a null field, an empty list and an empty map are
 * the same as none.
 */
@Pure
public final class VmiUpdateDecision {

    public static final String RESTRICTED = "update of VMI object is restricted";

    private VmiUpdateDecision() {
    }

    public static Optional<Denial> decide(JsonNode newVmi, JsonNode oldVmi) {
        if (normalised(newVmi.path("spec")).equals(normalised(oldVmi.path("spec")))) {
            return Optional.empty();
        }
        return Optional.of(Denial.invalid(VirtApiWebhooks.VMI_UPDATE_VALIDATOR,
                List.of(new Cause(Cause.NOT_SUPPORTED, RESTRICTED, null))));
    }

    /** Go map fields of the VMI spec: empty is the same as none. Other empty objects are set pointers ({@code bridge: {}}). */
    private static final Set<String> MAP_FIELDS = Set.of("nodeSelector", "requests", "limits");

    /** Nulls, empty lists and empty maps dropped; empty objects that stand for a set pointer kept. */
    static JsonNode normalised(JsonNode node) {
        if (node.isObject()) {
            ObjectNode copy = JsonNodeFactory.instance.objectNode();
            for (Map.Entry<String, JsonNode> e : node.properties()) {
                JsonNode value = e.getValue();
                if (value.isNull() || (value.isArray() && value.isEmpty())
                        || (value.isObject() && value.isEmpty() && MAP_FIELDS.contains(e.getKey()))) {
                    continue;
                }
                copy.set(e.getKey(), normalised(value));
            }
            return copy;
        }
        if (node.isArray()) {
            ArrayNode copy = JsonNodeFactory.instance.arrayNode();
            node.forEach(v -> copy.add(normalised(v)));
            return copy;
        }
        return node;
    }
}
