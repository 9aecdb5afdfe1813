package dev.drainboard.cluster.apiserver;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.time.Instant;

/**
 * What kube-apiserver's per-resource strategies do on create and update that clients rely on:
 * defaults (pod grace period, namespace phase, CRD conditions…); validation is {@link Validation}'s.
 */
final class Strategies {

    private Strategies() {
    }

    /**
     * Removes empty labels, annotations, finalizers and owner references, as kube-apiserver's Go types
     * (all {@code omitempty}) never store them: removing the last label with a patch leaves no
     * {@code labels: {}} behind for {@code kubectl diff} to report.
     */
    static ObjectNode dropEmptyMetadata(ObjectNode object) {
        if (object.get("metadata") instanceof ObjectNode meta) {
            for (String field : new String[] {"labels", "annotations", "finalizers", "ownerReferences"}) {
                JsonNode value = meta.get(field);
                if (value != null && (value.isNull() || (value.isContainerNode() && value.isEmpty()))) {
                    meta.remove(field);
                }
            }
        }
        return object;
    }

    /** Defaults and resets applied to a new object before it is stored. */
    static void prepareForCreate(ResourceType type, ObjectNode object, Instant now) {
        if (type == BuiltinResources.PODS) {
            preparePod(object);
        } else if (type == BuiltinResources.NAMESPACES) {
            ObjectNode spec = object.with("spec");
            if (!spec.has("finalizers")) {
                spec.putArray("finalizers").add("kubernetes");
            }
            object.putObject("status").put("phase", "Active");
            Json.metadata(object).with("labels").put("kubernetes.io/metadata.name", Json.name(object));
        } else if (type == BuiltinResources.CUSTOM_RESOURCE_DEFINITIONS) {
            validateCrd(object);
            markCrdEstablished(object, now);
        } else if (type == BuiltinResources.POD_DISRUPTION_BUDGETS) {
            object.remove("status");
            ObjectNode status = object.putObject("status");
            status.put("disruptionsAllowed", 0);
            status.put("currentHealthy", 0);
            status.put("desiredHealthy", 0);
            status.put("expectedPods", 0);
        } else if (WorkloadDefaults.handles(type)) {
            WorkloadDefaults.prepareForCreate(type, object);
        } else if (type == BuiltinResources.SERVICES) {
            ObjectNode spec = object.with("spec");
            if (!spec.has("type")) {
                spec.put("type", "ClusterIP");
            }
        } else if (type == BuiltinResources.SECRETS) {
            if (!object.hasNonNull("type") || object.get("type").asText().isEmpty()) {
                object.put("type", "Opaque");
            }
        } else if (type.isCustom() && type.hasSubresource("status")) {
            object.remove("status");
        }
    }

    private static void preparePod(ObjectNode pod) {
        ObjectNode spec = pod.with("spec");
        if (!spec.has("restartPolicy")) {
            spec.put("restartPolicy", "Always");
        }
        if (!spec.has("terminationGracePeriodSeconds")) {
            spec.put("terminationGracePeriodSeconds", 30);
        }
        if (!spec.has("dnsPolicy")) {
            spec.put("dnsPolicy", "ClusterFirst");
        }
        if (!spec.has("schedulerName")) {
            spec.put("schedulerName", "default-scheduler");
        }
        if (!spec.has("priority")) {
            spec.put("priority", 0);
        }
        JsonNode containers = spec.get("containers");
        if (containers == null || !containers.isArray() || containers.isEmpty()) {
            throw ApiException.invalid(BuiltinResources.PODS, Json.name(pod), "spec.containers", "Required value");
        }
        for (JsonNode c : containers) {
            if (c instanceof ObjectNode container && !container.has("imagePullPolicy")) {
                String image = container.path("image").asText();
                boolean latest = !image.contains(":") || image.endsWith(":latest");
                container.put("imagePullPolicy", latest ? "Always" : "IfNotPresent");
            }
            // As the API's defaulting does: a port without a protocol is TCP (describe prints "80/TCP").
            for (JsonNode port : c.path("ports")) {
                if (port instanceof ObjectNode p && !p.has("protocol")) {
                    p.put("protocol", "TCP");
                }
            }
        }
        ObjectNode status = pod.putObject("status");
        status.put("phase", "Pending");
        status.put("qosClass", qosClass(containers));
    }

    private static String qosClass(JsonNode containers) {
        boolean anyResources = false;
        boolean guaranteed = true;
        for (JsonNode c : containers) {
            JsonNode requests = c.path("resources").path("requests");
            JsonNode limits = c.path("resources").path("limits");
            anyResources |= !requests.isEmpty() || !limits.isEmpty();
            for (String r : new String[]{"cpu", "memory"}) {
                if (!limits.has(r) || (requests.has(r) && !requests.get(r).equals(limits.get(r)))) {
                    guaranteed = false;
                }
            }
        }
        return !anyResources ? "BestEffort" : guaranteed ? "Guaranteed" : "Burstable";
    }

    private static void validateCrd(ObjectNode crd) {
        JsonNode spec = crd.path("spec");
        String group = spec.path("group").asText();
        String plural = spec.path("names").path("plural").asText();
        String expected = plural + "." + group;
        if (group.isEmpty() || plural.isEmpty() || spec.path("names").path("kind").asText().isEmpty()) {
            throw ApiException.invalid(BuiltinResources.CUSTOM_RESOURCE_DEFINITIONS, Json.name(crd), "spec.names", "Required value: group, names.plural and names.kind are required");
        }
        if (!Json.name(crd).equals(expected)) {
            throw ApiException.invalid(BuiltinResources.CUSTOM_RESOURCE_DEFINITIONS, Json.name(crd), "metadata.name",
                    "Invalid value: \"" + Json.name(crd) + "\": must be spec.names.plural+\".\"+spec.group");
        }
        if (!spec.path("versions").isArray() || spec.path("versions").isEmpty()) {
            throw ApiException.invalid(BuiltinResources.CUSTOM_RESOURCE_DEFINITIONS, Json.name(crd), "spec.versions", "Invalid value: null: must have exactly one version marked as storage version");
        }
    }

    /** A CRD is served at once, so it reports NamesAccepted and Established straight away. */
    static void markCrdEstablished(ObjectNode crd, Instant now) {
        ObjectNode status = crd.putObject("status");
        ObjectNode accepted = status.putObject("acceptedNames");
        accepted.setAll((ObjectNode) crd.path("spec").path("names").deepCopy());
        ArrayNode conditions = status.putArray("conditions");
        for (String[] c : new String[][]{
                {"NamesAccepted", "NoConflicts", "no conflicts found"},
                {"Established", "InitialNamesAccepted", "the initial names have been accepted"}}) {
            ObjectNode condition = conditions.addObject();
            condition.put("type", c[0]);
            condition.put("status", "True");
            condition.put("lastTransitionTime", Json.timestamp(now));
            condition.put("reason", c[1]);
            condition.put("message", c[2]);
        }
        ArrayNode stored = status.putArray("storedVersions");
        for (JsonNode v : crd.path("spec").path("versions")) {
            if (v.path("storage").asBoolean(false)) {
                stored.add(v.path("name").asText());
            }
        }
    }
}
