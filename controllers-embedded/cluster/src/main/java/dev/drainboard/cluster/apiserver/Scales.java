package dev.drainboard.cluster.apiserver;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.drainboard.labels.LabelSelector;
import dev.drainboard.labels.SelectorException;

/** The autoscaling/v1 Scale view of a resource with a scale subresource. */
final class Scales {

    private Scales() {
    }

    static ObjectNode toScale(ResourceType type, ObjectNode object) {
        ResourceType.ScaleSpec spec = type.scale();
        if (spec == null) {
            throw ApiException.pathNotFound();
        }
        ObjectNode scale = Json.object();
        scale.put("kind", "Scale");
        scale.put("apiVersion", "autoscaling/v1");
        ObjectNode meta = scale.putObject("metadata");
        JsonNode objectMeta = object.path("metadata");
        for (String field : new String[]{"name", "namespace", "uid", "resourceVersion", "creationTimestamp"}) {
            if (objectMeta.has(field)) {
                meta.set(field, objectMeta.get(field));
            }
        }
        scale.putObject("spec").put("replicas", at(object, spec.specReplicasPath()).asInt(0));
        ObjectNode status = scale.putObject("status");
        status.put("replicas", at(object, spec.statusReplicasPath()).asInt(0));
        String selector = selectorText(type, object, spec);
        if (!selector.isEmpty()) {
            status.put("selector", selector);
        }
        return scale;
    }

    static ObjectNode withReplicas(ResourceType type, ObjectNode object, int replicas) {
        String[] steps = steps(type.scale().specReplicasPath());
        ObjectNode at = object;
        for (int i = 0; i < steps.length - 1; i++) {
            at = at.with(steps[i]);
        }
        at.put(steps[steps.length - 1], replicas);
        return object;
    }

    private static String selectorText(ResourceType type, ObjectNode object, ResourceType.ScaleSpec spec) {
        if (!type.isCustom()) {
            // Built-in workloads keep a LabelSelector object in spec.selector; Scale shows it as text.
            try {
                return LabelSelector.fromJson(object.path("spec").path("selector")).toString();
            } catch (SelectorException e) {
                return "";
            }
        }
        if (spec.labelSelectorPath() == null || spec.labelSelectorPath().isEmpty()) {
            return "";
        }
        JsonNode value = at(object, spec.labelSelectorPath());
        return value.isTextual() ? value.asText() : "";
    }

    private static JsonNode at(JsonNode object, String dottedPath) {
        JsonNode at = object;
        for (String step : steps(dottedPath)) {
            at = at.path(step);
        }
        return at;
    }

    private static String[] steps(String dottedPath) {
        String p = dottedPath.startsWith(".") ? dottedPath.substring(1) : dottedPath;
        return p.split("\\.");
    }
}
