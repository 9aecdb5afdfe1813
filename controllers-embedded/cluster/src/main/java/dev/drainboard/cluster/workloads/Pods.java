package dev.drainboard.cluster.workloads;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.drainboard.architecture.Pure;
import dev.drainboard.cluster.apiserver.Json;

import java.time.Duration;
import java.time.Instant;

/**
 * The pod (and owner) predicates kube-controller-manager's workload controllers share:
 * {@code pkg/api/v1/pod/util.go} (ready, available) and {@code pkg/controller/controller_utils.go} (active,
 * controller references, a pod from a template).
 */
@Pure
public final class Pods {

    private Pods() {
    }

    public static String phase(JsonNode pod) {
        return pod.path("status").path("phase").asText("");
    }

    public static boolean isTerminating(JsonNode object) {
        return object.path("metadata").has("deletionTimestamp");
    }

    /** Neither finished (Succeeded, Failed) nor being deleted: {@code controller.IsPodActive}. */
    public static boolean isActive(JsonNode pod) {
        String phase = phase(pod);
        return !phase.equals("Succeeded") && !phase.equals("Failed") && !isTerminating(pod);
    }

    public static boolean isTerminal(JsonNode pod) {
        String phase = phase(pod);
        return phase.equals("Succeeded") || phase.equals("Failed");
    }

    /** The Ready condition is True: {@code podutil.IsPodReady}. */
    public static boolean isReady(JsonNode pod) {
        JsonNode ready = readyCondition(pod);
        return ready != null && ready.path("status").asText().equals("True");
    }

    /** When the Ready condition last changed, or null. */
    public static Instant readyTime(JsonNode pod) {
        JsonNode ready = readyCondition(pod);
        return ready == null ? null : Json.parseTimestamp(ready.path("lastTransitionTime").asText(""));
    }

    /**
     * Ready for at least {@code minReadySeconds} ({@code podutil.IsPodAvailable}): with 0 a ready pod is available at
     * once, otherwise once its Ready condition is older than that.
     */
    public static boolean isAvailable(JsonNode pod, long minReadySeconds, Instant now) {
        if (!isReady(pod)) {
            return false;
        }
        if (minReadySeconds == 0) {
            return true;
        }
        Instant since = readyTime(pod);
        return since != null && since.plus(Duration.ofSeconds(minReadySeconds)).isBefore(now);
    }

    /** When a ready pod becomes available, or null if it is not ready (or has no transition time). */
    public static Instant availableAt(JsonNode pod, long minReadySeconds) {
        Instant since = isReady(pod) ? readyTime(pod) : null;
        return since == null ? null : since.plusSeconds(minReadySeconds);
    }

    private static JsonNode readyCondition(JsonNode pod) {
        for (JsonNode c : pod.path("status").path("conditions")) {
            if (c.path("type").asText().equals("Ready")) {
                return c;
            }
        }
        return null;
    }

    /** The owner reference with {@code controller: true}, or null ({@code metav1.GetControllerOf}). */
    public static JsonNode controllerRef(JsonNode object) {
        for (JsonNode ref : object.path("metadata").path("ownerReferences")) {
            if (ref.path("controller").asBoolean(false)) {
                return ref;
            }
        }
        return null;
    }

    /** The uid of the object's controller, or "" when it has none. */
    public static String controllerUid(JsonNode object) {
        JsonNode ref = controllerRef(object);
        return ref == null ? "" : ref.path("uid").asText("");
    }

    /** Whether the object's controller is an {@code apps} object of this kind (whatever its version). */
    public static boolean controlledByKind(JsonNode object, String kind) {
        JsonNode ref = controllerRef(object);
        return ref != null && ref.path("kind").asText().equals(kind) && ref.path("apiVersion").asText().startsWith("apps/");
    }

    /** {@code metav1.NewControllerRef}: controller and blockOwnerDeletion both true. */
    public static ObjectNode newControllerRef(JsonNode owner) {
        ObjectNode ref = Json.object();
        ref.put("apiVersion", Json.text(owner, "apiVersion"));
        ref.put("kind", Json.text(owner, "kind"));
        ref.put("name", Json.name(owner));
        ref.put("uid", Json.uid(owner));
        ref.put("controller", true);
        ref.put("blockOwnerDeletion", true);
        return ref;
    }

    /**
     * A new pod from a template ({@code controller.GetPodFromTemplate}): the template's labels, annotations and
     * finalizers, {@code generateName} "owner-name-", the controller reference, and a copy of the template's spec.
     */
    public static ObjectNode fromTemplate(JsonNode template, JsonNode owner) {
        ObjectNode pod = Json.object();
        pod.put("apiVersion", "v1");
        pod.put("kind", "Pod");
        ObjectNode meta = pod.putObject("metadata");
        meta.put("generateName", Json.name(owner) + "-");
        meta.put("namespace", Json.namespace(owner));
        JsonNode templateMeta = template.path("metadata");
        for (String field : new String[] {"labels", "annotations", "finalizers"}) {
            if (templateMeta.get(field) != null && !templateMeta.get(field).isEmpty()) {
                meta.set(field, templateMeta.get(field).deepCopy());
            }
        }
        meta.putArray("ownerReferences").add(newControllerRef(owner));
        JsonNode spec = template.path("spec");
        pod.set("spec", spec.isObject() ? spec.deepCopy() : Json.object());
        return pod;
    }

    /** The restart count of the pod's most restarted container. */
    public static int maxContainerRestarts(JsonNode pod) {
        int max = 0;
        for (JsonNode s : pod.path("status").path("containerStatuses")) {
            max = Math.max(max, s.path("restartCount").asInt(0));
        }
        return max;
    }

    /**
     * Whether two JSON values are the same, numbers compared by value: a status read from YAML ({@code 1} as an int)
     * and the one a controller computes ({@code 1} as a long) are not two different statuses.
     */
    public static boolean same(JsonNode a, JsonNode b) {
        if (a == null || b == null) {
            return a == b;
        }
        return a.equals(SAME_NUMBERS, b);
    }

    private static final java.util.Comparator<JsonNode> SAME_NUMBERS = (x, y) -> {
        if (x.isNumber() && y.isNumber()) {
            return x.decimalValue().compareTo(y.decimalValue());
        }
        return x.equals(y) ? 0 : 1;
    };

    public static Instant creationTimestamp(JsonNode object) {
        return Json.parseTimestamp(object.path("metadata").path("creationTimestamp").asText(""));
    }
}
