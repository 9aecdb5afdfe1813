package dev.drainboard.cluster.workloads.daemonset;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.drainboard.architecture.Pure;
import dev.drainboard.cluster.apiserver.Json;
import dev.drainboard.cluster.workloads.IntOrPercent;
import dev.drainboard.cluster.workloads.Pods;
import dev.drainboard.scheduling.NodeSelection;
import dev.drainboard.scheduling.Tolerations;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;

/**
 * kube-controller-manager's DaemonSet controller as pure functions ({@code pkg/controller/daemon/daemon_controller.go},
 * {@code update.go}, {@code util/daemonset_util.go}): which nodes should run the daemon pod, what to create and
 * delete on each, the rolling update (with maxUnavailable, or maxSurge), and the status.
 */
@Pure
public final class DaemonSetDecision {

    public static final String REVISION_LABEL = "controller-revision-hash";
    public static final String TEMPLATE_GENERATION_LABEL = "pod-template-generation";
    public static final String TEMPLATE_GENERATION_ANNOTATION = "deprecated.daemonset.template.generation";

    /** {@code NodeShouldRunDaemonPod}: whether a new daemon pod belongs there, and whether a running one may stay. */
    public record Fit(boolean shouldRun, boolean shouldContinueRunning) {
    }

    public record Event(String type, String reason, String message) {
    }

    /**
     * @param createOn     nodes to create a daemon pod for
     * @param delete       pods to delete, by name
     * @param events       what to tell about it
     * @param failedOn     nodes whose failed pod is deleted now (their backoff grows)
     * @param backingOff   true when a failed pod waits for its node's backoff
     */
    public record Plan(List<String> createOn, List<String> delete, List<Event> events, List<String> failedOn, boolean backingOff) {
        public boolean isEmpty() {
            return createOn.isEmpty() && delete.isEmpty();
        }
    }

    private DaemonSetDecision() {
    }

    // ---- which nodes ----

    /**
     * The pod the DaemonSet would run on the node ({@code NewPod}) — template spec, the node's name, the daemon
     * tolerations — checked against the node's name, node selector and required affinity, and its taints (NoSchedule
     * and NoExecute keep a new pod off; only an untolerated NoExecute sends a running one away). Cordoning is no
     * taint here: daemon pods tolerate {@code node.kubernetes.io/unschedulable} anyway.
     */
    public static Fit fit(JsonNode ds, JsonNode node) {
        JsonNode spec = ds.path("spec").path("template").path("spec");
        String wanted = spec.path("nodeName").asText("");
        String name = Json.name(node);
        if (!wanted.isEmpty() && !wanted.equals(name)) {
            return new Fit(false, false);
        }
        if (!NodeSelection.matches(spec, node)) {
            return new Fit(false, false);
        }
        ArrayNode tolerations = withDaemonTolerations(spec);
        List<JsonNode> taints = new ArrayList<>();
        node.path("spec").path("taints").forEach(taints::add);
        if (Tolerations.firstUntolerated(taints, tolerations).isEmpty()) {
            return new Fit(true, true);
        }
        boolean noExecute = taints.stream().anyMatch(t -> t.path("effect").asText().equals("NoExecute") && !Tolerations.anyTolerates(tolerations, t));
        return new Fit(false, !noExecute);
    }

    /**
     * {@code AddOrUpdateDaemonPodTolerations}: the template's tolerations and, added or replacing an equal one, not-ready
     * and unreachable NoExecute, disk-, memory- and PID-pressure and unschedulable NoSchedule, and network-unavailable
     * NoSchedule for host-network pods.
     */
    public static ArrayNode withDaemonTolerations(JsonNode podSpec) {
        ArrayNode tolerations = podSpec.path("tolerations").isArray() ? ((ArrayNode) podSpec.path("tolerations")).deepCopy() : Json.NODES.arrayNode();
        addOrUpdate(tolerations, "node.kubernetes.io/not-ready", "NoExecute");
        addOrUpdate(tolerations, "node.kubernetes.io/unreachable", "NoExecute");
        addOrUpdate(tolerations, "node.kubernetes.io/disk-pressure", "NoSchedule");
        addOrUpdate(tolerations, "node.kubernetes.io/memory-pressure", "NoSchedule");
        addOrUpdate(tolerations, "node.kubernetes.io/pid-pressure", "NoSchedule");
        addOrUpdate(tolerations, "node.kubernetes.io/unschedulable", "NoSchedule");
        if (podSpec.path("hostNetwork").asBoolean(false)) {
            addOrUpdate(tolerations, "node.kubernetes.io/network-unavailable", "NoSchedule");
        }
        return tolerations;
    }

    /** {@code AddOrUpdateTolerationInPodSpec}: an Exists toleration for key and effect, unless an equal one is there. */
    private static void addOrUpdate(ArrayNode tolerations, String key, String effect) {
        ObjectNode toleration = Json.object().put("key", key).put("operator", "Exists").put("effect", effect);
        for (int i = 0; i < tolerations.size(); i++) {
            JsonNode t = tolerations.get(i);
            boolean sameKind = t.path("key").asText("").equals(key) && t.path("effect").asText("").equals(effect)
                    && t.path("operator").asText("Equal").equals("Exists") && t.path("value").asText("").isEmpty();
            if (sameKind) {
                if (!t.equals(toleration)) {
                    tolerations.set(i, toleration);
                }
                return;
            }
        }
        tolerations.add(toleration);
    }

    /** The node a daemon pod is for ({@code GetTargetNodeName}): spec.nodeName, else its metadata.name node affinity. */
    public static String targetNode(JsonNode pod) {
        String node = pod.path("spec").path("nodeName").asText("");
        if (!node.isEmpty()) {
            return node;
        }
        for (JsonNode term : pod.path("spec").path("affinity").path("nodeAffinity")
                .path("requiredDuringSchedulingIgnoredDuringExecution").path("nodeSelectorTerms")) {
            for (JsonNode field : term.path("matchFields")) {
                if (field.path("key").asText().equals("metadata.name") && field.path("operator").asText().equals("In")
                        && field.path("values").size() == 1) {
                    return field.path("values").get(0).asText();
                }
            }
        }
        return "";
    }

    /** Claimed pods by target node, leaving out finished pods already being deleted ({@code getNodesToDaemonPods}). */
    public static Map<String, List<ObjectNode>> byNode(List<ObjectNode> pods) {
        Map<String, List<ObjectNode>> byNode = new TreeMap<>();
        for (ObjectNode pod : pods) {
            if (Pods.isTerminal(pod) && Pods.isTerminating(pod)) {
                continue;
            }
            String node = targetNode(pod);
            if (!node.isEmpty()) {
                byNode.computeIfAbsent(node, n -> new ArrayList<>()).add(pod);
            }
        }
        return byNode;
    }

    // ---- the pod to create ----

    /** The DaemonSet's template generation annotation, or null when missing or not a number. */
    public static Long templateGeneration(JsonNode ds) {
        String text = ds.path("metadata").path("annotations").path(TEMPLATE_GENERATION_ANNOTATION).asText("");
        try {
            return text.isEmpty() ? null : Long.parseLong(text);
        } catch (NumberFormatException e) {
            return null;
        }
    }

    /**
     * A daemon pod for a node ({@code CreatePodTemplate} and {@code ReplaceDaemonSetPodNodeNameNodeAffinity}): the
     * template with the daemon tolerations, the template-generation and revision labels, and a required node affinity
     * on the node's name, so that kube-scheduler binds it there.
     */
    public static ObjectNode podFor(ObjectNode ds, String hash, String nodeName) {
        ObjectNode template = ((ObjectNode) ds.path("spec").path("template")).deepCopy();
        ObjectNode spec = template.with("spec");
        spec.set("tolerations", withDaemonTolerations(spec));
        ObjectNode labels = Json.metadata(template).with("labels");
        Long generation = templateGeneration(ds);
        if (generation != null) {
            labels.put(TEMPLATE_GENERATION_LABEL, Long.toString(generation));
        }
        if (!hash.isEmpty()) {
            labels.put(REVISION_LABEL, hash);
        }
        ObjectNode term = Json.object();
        term.putArray("matchFields").addObject().put("key", "metadata.name").put("operator", "In")
                .putArray("values").add(nodeName);
        ObjectNode nodeAffinity = spec.with("affinity").with("nodeAffinity");
        ObjectNode required = nodeAffinity.with("requiredDuringSchedulingIgnoredDuringExecution");
        required.putArray("nodeSelectorTerms").add(term);
        return Pods.fromTemplate(template, ds);
    }

    // ---- manage ----

    /** {@code IsPodUpdated}: at the current revision's hash, or at the current template generation. */
    static boolean isUpdated(JsonNode pod, String hash, Long generation) {
        JsonNode labels = pod.path("metadata").path("labels");
        boolean generationMatches = generation != null && labels.path(TEMPLATE_GENERATION_LABEL).asText("").equals(Long.toString(generation));
        boolean hashMatches = !hash.isEmpty() && labels.path(REVISION_LABEL).asText("").equals(hash);
        return hashMatches || generationMatches;
    }

    static int maxSurge(JsonNode ds, int total) {
        JsonNode strategy = ds.path("spec").path("updateStrategy");
        if (!strategy.path("type").asText("RollingUpdate").equals("RollingUpdate")) {
            return 0;
        }
        return IntOrPercent.scaled(strategy.path("rollingUpdate").get("maxSurge"), total, true, 0);
    }

    static int maxUnavailable(JsonNode ds, int total) {
        JsonNode strategy = ds.path("spec").path("updateStrategy");
        if (!strategy.path("type").asText("RollingUpdate").equals("RollingUpdate")) {
            return 0;
        }
        return IntOrPercent.scaled(strategy.path("rollingUpdate").get("maxUnavailable"), total, true, 0);
    }

    /** {@code AllowsSurge}. */
    static boolean allowsSurge(JsonNode ds) {
        return maxSurge(ds, 1) > 0;
    }

    /** podByCreationTimestampAndPhase: bound pods first, then older, then by name. */
    static final Comparator<JsonNode> OLDEST_FIRST = Comparator
            .comparing((JsonNode p) -> p.path("spec").path("nodeName").asText("").isEmpty())
            .thenComparing(p -> Objects.requireNonNullElse(Pods.creationTimestamp(p), Instant.MAX))
            .thenComparing(Json::name);

    /**
     * {@code manage} over every node ({@code podsShouldBeOnNode}), plus pods waiting for a node that no longer
     * exists. {@code backoff} names the nodes whose failed daemon pod must wait before it is deleted again.
     */
    public static Plan manage(ObjectNode ds, List<? extends JsonNode> nodes, Map<String, List<ObjectNode>> podsByNode, String hash,
                              Instant now, Set<String> backoff) {
        List<String> createOn = new ArrayList<>();
        List<String> delete = new ArrayList<>();
        List<Event> events = new ArrayList<>();
        List<String> failedOn = new ArrayList<>();
        boolean backingOff = false;
        long minReady = ds.path("spec").path("minReadySeconds").asLong(0);
        Set<String> nodeNames = new java.util.HashSet<>();
        for (JsonNode node : nodes) {
            String name = Json.name(node);
            nodeNames.add(name);
            Fit fit = fit(ds, node);
            List<ObjectNode> pods = podsByNode.get(name);
            boolean exists = pods != null && !pods.isEmpty();
            if (fit.shouldRun() && !exists) {
                createOn.add(name);
            } else if (fit.shouldContinueRunning()) {
                List<ObjectNode> running = new ArrayList<>();
                for (ObjectNode pod : pods == null ? List.<ObjectNode>of() : pods) {
                    if (Pods.isTerminating(pod)) {
                        continue;
                    }
                    String phase = Pods.phase(pod);
                    if (phase.equals("Failed")) {
                        if (backoff.contains(name)) {
                            backingOff = true;
                            continue;
                        }
                        failedOn.add(name);
                        events.add(new Event("Warning", "FailedDaemonPod", "Found failed daemon pod " + Json.namespace(pod) + "/"
                                + Json.name(pod) + " on node " + name + ", will try to kill it"));
                        delete.add(Json.name(pod));
                    } else if (phase.equals("Succeeded")) {
                        events.add(new Event("Normal", "SucceededDaemonPod", "Found succeeded daemon pod " + Json.namespace(pod) + "/"
                                + Json.name(pod) + " on node " + name + ", will try to delete it"));
                        delete.add(Json.name(pod));
                    } else {
                        running.add(pod);
                    }
                }
                running.sort(OLDEST_FIRST);
                if (!allowsSurge(ds)) {
                    for (int i = 1; i < running.size(); i++) {
                        delete.add(Json.name(running.get(i)));
                    }
                } else if (running.isEmpty()) {
                    if (fit.shouldRun()) {
                        createOn.add(name);
                    }
                } else if (running.size() > 1) {
                    // Surging: keep the oldest new and the oldest old pod, the old one only while the new one is not yet available.
                    ObjectNode oldestNew = null;
                    ObjectNode oldestOld = null;
                    for (ObjectNode pod : running) {
                        boolean isNew = pod.path("metadata").path("labels").path(REVISION_LABEL).asText("").equals(hash);
                        if (isNew && oldestNew == null) {
                            oldestNew = pod;
                        } else if (!isNew && oldestOld == null) {
                            oldestOld = pod;
                        } else {
                            delete.add(Json.name(pod));
                        }
                    }
                    if (oldestNew != null && oldestOld != null
                            && (!Pods.isReady(oldestOld) || Pods.isAvailable(oldestNew, minReady, now))) {
                        delete.add(Json.name(oldestOld));
                    }
                }
            } else if (exists) {
                for (ObjectNode pod : pods) {
                    if (!Pods.isTerminating(pod)) {
                        delete.add(Json.name(pod));
                    }
                }
            }
        }
        // Pods for a node that is gone never get scheduled, and nothing else deletes them.
        podsByNode.forEach((node, pods) -> {
            if (!nodeNames.contains(node)) {
                pods.stream().filter(p -> p.path("spec").path("nodeName").asText("").isEmpty()).forEach(p -> delete.add(Json.name(p)));
            }
        });
        return new Plan(createOn, delete, events, failedOn, backingOff);
    }

    // ---- rolling update ----

    /** [new, old] pod on a node, or null when there are two of either ({@code findUpdatedPodsOnNode}). */
    private static JsonNode[] updatedAndOld(List<ObjectNode> pods, String hash, Long generation) {
        JsonNode newPod = null;
        JsonNode oldPod = null;
        for (ObjectNode pod : pods == null ? List.<ObjectNode>of() : pods) {
            if (Pods.isTerminating(pod)) {
                continue;
            }
            if (isUpdated(pod, hash, generation)) {
                if (newPod != null) {
                    return null;
                }
                newPod = pod;
            } else {
                if (oldPod != null) {
                    return null;
                }
                oldPod = pod;
            }
        }
        return new JsonNode[] {newPod, oldPod};
    }

    /**
     * {@code rollingUpdate}: without surge, delete old pods while fewer than maxUnavailable daemon pods are
     * unavailable (unavailable old ones at once) and let manage create their successors; with surge, create new pods
     * beside old ones (at most maxSurge at a time) and delete each old pod once its successor is available.
     */
    public static Plan rollingUpdate(ObjectNode ds, List<? extends JsonNode> nodes, Map<String, List<ObjectNode>> podsByNode, String hash,
                                     Instant now) {
        long minReady = ds.path("spec").path("minReadySeconds").asLong(0);
        Long generation = templateGeneration(ds);
        Map<String, List<ObjectNode>> byNode = new LinkedHashMap<>(podsByNode);
        Map<String, JsonNode> nodesByName = new LinkedHashMap<>();
        int desired = 0;
        for (JsonNode node : nodes) {
            nodesByName.put(Json.name(node), node);
            if (fit(ds, node).shouldRun()) {
                desired++;
                byNode.putIfAbsent(Json.name(node), List.of());
            }
        }
        int surge = maxSurge(ds, desired);
        int unavailableAllowed = maxUnavailable(ds, desired);
        if (desired > 0 && unavailableAllowed == 0 && surge == 0) {
            unavailableAllowed = 1;
        }
        List<String> delete = new ArrayList<>();
        List<String> createOn = new ArrayList<>();
        if (surge == 0) {
            int unavailable = 0;
            List<String> replacements = new ArrayList<>();
            List<String> candidates = new ArrayList<>();
            for (var e : byNode.entrySet()) {
                JsonNode[] pair = updatedAndOld(e.getValue(), hash, generation);
                if (pair == null) {
                    unavailable++;
                    continue;
                }
                JsonNode newPod = pair[0];
                JsonNode oldPod = pair[1];
                if ((oldPod == null) == (newPod == null)) {
                    unavailable++;
                } else if (newPod != null) {
                    if (!Pods.isAvailable(newPod, minReady, now)) {
                        unavailable++;
                    }
                } else if (!Pods.isAvailable(oldPod, minReady, now)) {
                    replacements.add(Json.name(oldPod));
                } else if (unavailable < unavailableAllowed) {
                    candidates.add(Json.name(oldPod));
                }
            }
            int remaining = Math.min(Math.max(0, unavailableAllowed - unavailable), candidates.size());
            delete.addAll(replacements);
            delete.addAll(candidates.subList(0, remaining));
            return new Plan(createOn, delete, List.of(), List.of(), false);
        }
        int surged = 0;
        int available = 0;
        List<String> shouldNotRun = new ArrayList<>();
        List<String> candidateNodes = new ArrayList<>();
        for (var e : byNode.entrySet()) {
            JsonNode[] pair = updatedAndOld(e.getValue(), hash, generation);
            if (pair == null) {
                surged++;
                continue;
            }
            JsonNode newPod = pair[0];
            JsonNode oldPod = pair[1];
            if (oldPod != null ? Pods.isAvailable(oldPod, minReady, now) : newPod != null && Pods.isAvailable(newPod, minReady, now)) {
                available++;
            }
            JsonNode node = nodesByName.get(e.getKey());
            boolean shouldRun = node != null && fit(ds, node).shouldRun();
            if (oldPod == null) {
                continue;
            }
            if (newPod == null) {
                if (!Pods.isAvailable(oldPod, minReady, now)) {
                    if (!shouldRun) {
                        delete.add(Json.name(oldPod));
                    } else {
                        createOn.add(e.getKey());
                    }
                } else if (!shouldRun) {
                    shouldNotRun.add(Json.name(oldPod));
                } else if (surged < surge) {
                    candidateNodes.add(e.getKey());
                }
            } else if (!Pods.isAvailable(newPod, minReady, now)) {
                surged++;
            } else {
                delete.add(Json.name(oldPod));
            }
        }
        int deletable = Math.min(available - desired, shouldNotRun.size());
        if (deletable > 0) {
            delete.addAll(shouldNotRun.subList(0, deletable));
        }
        int remaining = Math.min(Math.max(0, surge - surged), candidateNodes.size());
        createOn.addAll(candidateNodes.subList(0, remaining));
        return new Plan(createOn, delete, List.of(), List.of(), false);
    }

    // ---- status ----

    /**
     * {@code updateDaemonSetStatus}: per node that should run the pod, desired; with a pod, current; its oldest pod
     * ready, available and updated; a pod on a node that should not run it, misscheduled. {@code observe} raises
     * observedGeneration (not while the controller waits for its own creations and deletions).
     */
    public static ObjectNode status(ObjectNode ds, List<? extends JsonNode> nodes, Map<String, List<ObjectNode>> podsByNode, String hash,
                                    Instant now, boolean observe) {
        long minReady = ds.path("spec").path("minReadySeconds").asLong(0);
        Long generation = templateGeneration(ds);
        int desired = 0;
        int current = 0;
        int misscheduled = 0;
        int ready = 0;
        int updated = 0;
        int available = 0;
        for (JsonNode node : nodes) {
            boolean shouldRun = fit(ds, node).shouldRun();
            List<ObjectNode> pods = podsByNode.getOrDefault(Json.name(node), List.of());
            boolean scheduled = !pods.isEmpty();
            if (shouldRun) {
                desired++;
                if (!scheduled) {
                    continue;
                }
                current++;
                JsonNode pod = pods.stream().min(OLDEST_FIRST).orElseThrow();
                if (Pods.isReady(pod)) {
                    ready++;
                    if (Pods.isAvailable(pod, minReady, now)) {
                        available++;
                    }
                }
                if (isUpdated(pod, hash, generation)) {
                    updated++;
                }
            } else if (scheduled) {
                misscheduled++;
            }
        }
        ObjectNode status = Json.object();
        status.put("currentNumberScheduled", current);
        status.put("numberMisscheduled", misscheduled);
        status.put("desiredNumberScheduled", desired);
        status.put("numberReady", ready);
        long observed = observe ? ds.path("metadata").path("generation").asLong(1) : ds.path("status").path("observedGeneration").asLong(0);
        if (observed != 0) {
            status.put("observedGeneration", observed);
        }
        if (updated != 0) {
            status.put("updatedNumberScheduled", updated);
        }
        if (available != 0) {
            status.put("numberAvailable", available);
        }
        if (desired - available != 0) {
            status.put("numberUnavailable", desired - available);
        }
        JsonNode collision = ds.path("status").get("collisionCount");
        if (collision != null && !collision.isNull()) {
            status.set("collisionCount", collision.deepCopy());
        }
        JsonNode conditions = ds.path("status").get("conditions");
        if (conditions != null && conditions.isArray() && !conditions.isEmpty()) {
            status.set("conditions", conditions.deepCopy());
        }
        return status;
    }
}
