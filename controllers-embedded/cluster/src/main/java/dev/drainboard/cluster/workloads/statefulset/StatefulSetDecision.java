package dev.drainboard.cluster.workloads.statefulset;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.drainboard.architecture.Pure;
import dev.drainboard.cluster.apiserver.Json;
import dev.drainboard.cluster.workloads.Pods;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One sync of kube-controller-manager's StatefulSet controller as a pure function
 * ({@code updateStatefulSet} in {@code pkg/controller/statefulset/stateful_set_control.go}, with
 * {@code stateful_set_utils.go}): pods {@code <set>-<ordinal>} for every ordinal in range, created in order and each
 * waited for until Running and Ready (OrderedReady) or all at once (Parallel); a finished pod deleted and created
 * again under the same name; ordinals out of range deleted from the highest; a RollingUpdate deleting, from the
 * highest ordinal down to the partition, one pod not at the update revision at a time once the others are healthy.
 */
@Pure
public final class StatefulSetDecision {

    public static final String POD_NAME_LABEL = "statefulset.kubernetes.io/pod-name";
    public static final String POD_INDEX_LABEL = "apps.kubernetes.io/pod-index";
    public static final String REVISION_LABEL = "controller-revision-hash";
    private static final Pattern ORDINAL = Pattern.compile("(.*)-([0-9]+)$");

    public sealed interface Action {
    }

    /** Create this pod, after the claims of its volumeClaimTemplates that do not exist yet. */
    public record CreatePod(ObjectNode pod, List<ObjectNode> claims) implements Action {
    }

    /** Delete a pod; {@code why} for the log: "finished", "scale down", "update". */
    public record DeletePod(String name, String why) implements Action {
    }

    /** Put the identity labels a pod is missing. */
    public record LabelPod(String name, String uid, Map<String, String> labels) implements Action {
    }

    /**
     * The revisions a sync works with: the update revision (the current template) and the current one (the
     * template the set's pods were at when the last rollout completed; null when it is not known, and then it is
     * the update revision).
     */
    public record Revisions(String currentName, JsonNode currentTemplate, String updateName) {
    }

    public record Result(List<Action> actions, ObjectNode status) {
    }

    private StatefulSetDecision() {
    }

    /** The ordinal in a pod's name when its parent is the set, or -1 ({@code getParentNameAndOrdinal}). */
    public static int ordinalOf(String setName, String podName) {
        Matcher m = ORDINAL.matcher(podName);
        if (!m.matches() || !m.group(1).equals(setName)) {
            return -1;
        }
        try {
            return Integer.parseInt(m.group(2));
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    /** {@code isMemberOf}: the pod's name is the set's name and an ordinal. */
    public static boolean isMemberOf(JsonNode set, JsonNode pod) {
        return ordinalOf(Json.name(set), Json.name(pod)) >= 0;
    }

    static int replicas(JsonNode set) {
        return set.path("spec").path("replicas").asInt(1);
    }

    static int startOrdinal(JsonNode set) {
        return set.path("spec").path("ordinals").path("start").asInt(0);
    }

    static boolean isCreated(JsonNode pod) {
        return !Pods.phase(pod).isEmpty();
    }

    static boolean isRunningAndReady(JsonNode pod) {
        return Pods.phase(pod).equals("Running") && Pods.isReady(pod);
    }

    static boolean isRunningAndAvailable(JsonNode pod, long minReadySeconds, Instant now) {
        return isRunningAndReady(pod) && Pods.isAvailable(pod, minReadySeconds, now);
    }

    static boolean isHealthy(JsonNode pod) {
        return isRunningAndReady(pod) && !Pods.isTerminating(pod);
    }

    static String revisionOf(JsonNode pod) {
        return pod.path("metadata").path("labels").path(REVISION_LABEL).asText("");
    }

    /**
     * @param pods the pods the set claims (members by name and selector), as stored
     */
    public static Result sync(ObjectNode set, List<ObjectNode> pods, Revisions revisions, Instant now) {
        int start = startOrdinal(set);
        int count = Math.max(0, replicas(set));
        JsonNode[] replicas = new JsonNode[count];
        List<JsonNode> condemned = new ArrayList<>();
        for (ObjectNode pod : pods) {
            int ordinal = ordinalOf(Json.name(set), Json.name(pod));
            if (ordinal >= start && ordinal < start + count) {
                replicas[ordinal - start] = pod;
            } else if (ordinal >= 0) {
                condemned.add(pod);
            }
        }
        String currentName = revisions.currentName() == null ? revisions.updateName() : revisions.currentName();
        JsonNode currentTemplate = revisions.currentName() == null || revisions.currentTemplate() == null
                ? set.path("spec").path("template") : revisions.currentTemplate();
        int partition = partition(set);
        for (int ordinal = start; ordinal < start + count; ordinal++) {
            if (replicas[ordinal - start] == null) {
                boolean atCurrent = isRollingUpdate(set) && ordinal < start + partition;
                replicas[ordinal - start] = newPod(set, ordinal, atCurrent ? currentTemplate : set.path("spec").path("template"),
                        atCurrent ? currentName : revisions.updateName());
            }
        }
        condemned.sort(Comparator.comparingInt((JsonNode p) -> ordinalOf(Json.name(set), Json.name(p))).reversed());

        JsonNode firstUnhealthy = null;
        for (JsonNode pod : replicas) {
            if (!isHealthy(pod)) {
                firstUnhealthy = pod;
                break;
            }
        }
        if (firstUnhealthy == null) {
            for (int i = condemned.size() - 1; i >= 0; i--) {
                if (!isHealthy(condemned.get(i))) {
                    firstUnhealthy = condemned.get(i);
                    break;
                }
            }
        }

        long minReady = set.path("spec").path("minReadySeconds").asLong(0);
        List<Action> actions = new ArrayList<>();
        int[] currentDecrement = {0};
        if (!Pods.isTerminating(set)) {
            boolean monotonic = !set.path("spec").path("podManagementPolicy").asText("OrderedReady").equals("Parallel");
            boolean exit = false;
            for (JsonNode pod : replicas) {
                if (processReplica(set, pod, monotonic, minReady, now, actions) && monotonic) {
                    exit = true;
                    break;
                }
            }
            if (!exit) {
                for (JsonNode pod : condemned) {
                    if (processCondemned(pod, firstUnhealthy, monotonic, minReady, now, actions) && monotonic) {
                        exit = true;
                        break;
                    }
                }
            }
            if (!exit && isRollingUpdate(set)) {
                for (int target = replicas.length - 1; target >= partition; target--) {
                    JsonNode pod = replicas[target];
                    if (!revisionOf(pod).equals(revisions.updateName()) && !Pods.isTerminating(pod)) {
                        actions.add(new DeletePod(Json.name(pod), "update"));
                        currentDecrement[0] = 1;
                        break;
                    }
                    if (!isHealthy(pod)) {
                        break;
                    }
                }
            }
        }
        ObjectNode status = status(set, currentName, revisions.updateName(), replicas, condemned, minReady, now, currentDecrement[0]);
        return new Result(List.copyOf(actions), status);
    }

    /** One ordinal in range; true when a monotonic sync must stop here. */
    private static boolean processReplica(ObjectNode set, JsonNode pod, boolean monotonic, long minReady, Instant now, List<Action> actions) {
        if (isCreated(pod) && Pods.isTerminal(pod)) {
            // Evicted by the node, or simply finished: deleted, and created again (same name) once gone.
            if (!Pods.isTerminating(pod)) {
                actions.add(new DeletePod(Json.name(pod), "finished"));
            }
            return true;
        }
        if (!isCreated(pod)) {
            actions.add(new CreatePod((ObjectNode) pod, claimsFor(set, Json.name(pod))));
            return monotonic;
        }
        if (Pods.isTerminating(pod) && monotonic) {
            return true;
        }
        if (!isRunningAndReady(pod) && monotonic) {
            return true;
        }
        if (!isRunningAndAvailable(pod, minReady, now) && monotonic) {
            return true;
        }
        Map<String, String> identity = missingIdentity(set, pod);
        if (!identity.isEmpty()) {
            actions.add(new LabelPod(Json.name(pod), Json.uid(pod), identity));
        }
        return false;
    }

    private static boolean processCondemned(JsonNode pod, JsonNode firstUnhealthy, boolean monotonic, long minReady, Instant now,
                                            List<Action> actions) {
        if (Pods.isTerminating(pod)) {
            return monotonic;
        }
        if (!isRunningAndReady(pod) && monotonic && pod != firstUnhealthy) {
            return true;
        }
        if (!isRunningAndAvailable(pod, minReady, now) && monotonic && pod != firstUnhealthy) {
            return true;
        }
        actions.add(new DeletePod(Json.name(pod), "scale down"));
        return true;
    }

    static boolean isRollingUpdate(JsonNode set) {
        return set.path("spec").path("updateStrategy").path("type").asText("RollingUpdate").equals("RollingUpdate");
    }

    static int partition(JsonNode set) {
        return isRollingUpdate(set) ? set.path("spec").path("updateStrategy").path("rollingUpdate").path("partition").asInt(0) : 0;
    }

    /** The identity labels ({@code updateIdentity}) a pod lacks or has wrong. */
    private static Map<String, String> missingIdentity(JsonNode set, JsonNode pod) {
        Map<String, String> missing = new java.util.LinkedHashMap<>();
        JsonNode labels = pod.path("metadata").path("labels");
        String name = Json.name(pod);
        if (!labels.path(POD_NAME_LABEL).asText("").equals(name)) {
            missing.put(POD_NAME_LABEL, name);
        }
        String index = Integer.toString(ordinalOf(Json.name(set), name));
        if (!labels.path(POD_INDEX_LABEL).asText("").equals(index)) {
            missing.put(POD_INDEX_LABEL, index);
        }
        return missing;
    }

    /**
     * {@code newVersionedStatefulSetPod}: the template's pod named {@code <set>-<ordinal>} with its identity (labels,
     * hostname, subdomain), its revision label and the volumes of its claims.
     */
    static ObjectNode newPod(JsonNode set, int ordinal, JsonNode template, String revision) {
        ObjectNode pod = Pods.fromTemplate(template, set);
        String name = Json.name(set) + "-" + ordinal;
        ObjectNode meta = Json.metadata(pod);
        meta.put("name", name);
        ObjectNode labels = meta.with("labels");
        labels.put(POD_NAME_LABEL, name);
        labels.put(POD_INDEX_LABEL, Integer.toString(ordinal));
        labels.put(REVISION_LABEL, revision);
        ObjectNode spec = pod.with("spec");
        spec.put("hostname", name);
        String service = set.path("spec").path("serviceName").asText("");
        if (!service.isEmpty()) {
            spec.put("subdomain", service);
        }
        for (JsonNode claim : set.path("spec").path("volumeClaimTemplates")) {
            String claimName = claim.path("metadata").path("name").asText();
            ObjectNode volume = Json.object();
            volume.put("name", claimName);
            volume.putObject("persistentVolumeClaim").put("claimName", claimName + "-" + name);
            ArrayNode volumes = spec.withArray("volumes");
            boolean replaced = false;
            for (int i = 0; i < volumes.size(); i++) {
                if (volumes.get(i).path("name").asText().equals(claimName)) {
                    volumes.set(i, volume);
                    replaced = true;
                }
            }
            if (!replaced) {
                volumes.add(volume);
            }
        }
        return pod;
    }

    /** The PersistentVolumeClaims of a pod ({@code getPersistentVolumeClaims}): named {@code <claim>-<pod>}, the selector's labels. */
    static List<ObjectNode> claimsFor(JsonNode set, String podName) {
        List<ObjectNode> claims = new ArrayList<>();
        for (JsonNode template : set.path("spec").path("volumeClaimTemplates")) {
            ObjectNode claim = Json.object();
            claim.put("apiVersion", "v1");
            claim.put("kind", "PersistentVolumeClaim");
            ObjectNode meta = claim.putObject("metadata");
            meta.put("name", template.path("metadata").path("name").asText() + "-" + podName);
            meta.put("namespace", Json.namespace(set));
            ObjectNode labels = meta.putObject("labels");
            template.path("metadata").path("labels").properties().forEach(e -> labels.set(e.getKey(), e.getValue()));
            set.path("spec").path("selector").path("matchLabels").properties().forEach(e -> labels.set(e.getKey(), e.getValue()));
            if (labels.isEmpty()) {
                meta.remove("labels");
            }
            if (template.path("metadata").get("annotations") instanceof ObjectNode annotations && !annotations.isEmpty()) {
                meta.set("annotations", annotations.deepCopy());
            }
            claim.set("spec", template.path("spec").deepCopy());
            claims.add(claim);
        }
        return claims;
    }

    /**
     * {@code updateStatus} and {@code completeRollingUpdate}: created pods, ready and available ones, those at the
     * current and at the update revision; when every pod is at the update revision and ready, that revision becomes
     * the current one.
     */
    static ObjectNode status(JsonNode set, String currentName, String updateName, JsonNode[] replicas, List<JsonNode> condemned,
                             long minReady, Instant now, int currentDecrement) {
        int created = 0;
        int ready = 0;
        int available = 0;
        int current = 0;
        int updated = 0;
        List<JsonNode> all = new ArrayList<>(List.of(replicas));
        all.addAll(condemned);
        for (JsonNode pod : all) {
            if (isCreated(pod)) {
                created++;
            }
            if (isRunningAndReady(pod)) {
                ready++;
                if (isRunningAndAvailable(pod, minReady, now)) {
                    available++;
                }
            }
            if (isCreated(pod) && !Pods.isTerminating(pod)) {
                String revision = revisionOf(pod);
                if (revision.equals(currentName)) {
                    current++;
                }
                if (revision.equals(updateName)) {
                    updated++;
                }
            }
        }
        current -= currentDecrement;
        String currentRevision = currentName;
        if (isRollingUpdate(set) && updated == created && ready == created) {
            current = updated;
            currentRevision = updateName;
        }
        ObjectNode status = Json.object();
        long generation = set.path("metadata").path("generation").asLong(1);
        if (generation != 0) {
            status.put("observedGeneration", generation);
        }
        status.put("replicas", created);
        putNonZero(status, "readyReplicas", ready);
        putNonZero(status, "currentReplicas", current);
        putNonZero(status, "updatedReplicas", updated);
        status.put("currentRevision", currentRevision);
        status.put("updateRevision", updateName);
        status.put("collisionCount", 0);
        JsonNode conditions = set.path("status").get("conditions");
        if (conditions != null && conditions.isArray() && !conditions.isEmpty()) {
            status.set("conditions", conditions.deepCopy());
        }
        status.put("availableReplicas", available);
        return status;
    }

    private static void putNonZero(ObjectNode status, String field, int value) {
        if (value != 0) {
            status.put(field, value);
        }
    }

    /** When the next ready pod becomes available, for a resync; null when none waits. */
    public static Instant nextAvailability(JsonNode set, List<ObjectNode> pods, Instant now) {
        long minReady = set.path("spec").path("minReadySeconds").asLong(0);
        if (minReady == 0) {
            return null;
        }
        Instant next = null;
        for (JsonNode pod : pods) {
            Instant at = Pods.availableAt(pod, minReady);
            if (at != null && !Pods.isAvailable(pod, minReady, now) && (next == null || at.isBefore(next))) {
                next = at;
            }
        }
        return next;
    }
}
