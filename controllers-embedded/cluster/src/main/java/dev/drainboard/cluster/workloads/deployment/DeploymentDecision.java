package dev.drainboard.cluster.workloads.deployment;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.drainboard.architecture.Pure;
import dev.drainboard.cluster.apiserver.Json;
import dev.drainboard.cluster.workloads.IntOrPercent;
import dev.drainboard.cluster.workloads.Pods;
import dev.drainboard.cluster.workloads.TemplateHashes;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * One sync of kube-controller-manager's Deployment controller as a pure function ({@code syncDeployment} in
 * {@code pkg/controller/deployment/deployment_controller.go}, with {@code sync.go}, {@code rolling.go},
 * {@code recreate.go}, {@code progress.go} and {@code util/deployment_util.go}): given the Deployment, the
 * ReplicaSets it owns and (for Recreate) their pods, the ReplicaSets to create, scale and delete, the events, and
 * the Deployment's revision annotation and status. It runs the controller's steps on copies, so a step sees what
 * the steps before it changed, as the controller sees its own writes.
 *
 * <p>Not modelled: the deprecated {@code deprecated.deployment.rollback.to} rollback (kubectl rolls back by
 * patching the template), and hash collisions are left to the loop (it bumps {@code status.collisionCount}).
 */
@Pure
public final class DeploymentDecision {

    public static final String REVISION = "deployment.kubernetes.io/revision";
    public static final String REVISION_HISTORY = "deployment.kubernetes.io/revision-history";
    public static final String DESIRED_REPLICAS = "deployment.kubernetes.io/desired-replicas";
    public static final String MAX_REPLICAS = "deployment.kubernetes.io/max-replicas";
    public static final String POD_TEMPLATE_HASH = "pod-template-hash";
    static final int MAX_REVISION_HISTORY_CHARS = 2000;
    private static final Set<String> ANNOTATIONS_NOT_COPIED = Set.of("kubectl.kubernetes.io/last-applied-configuration",
            REVISION, REVISION_HISTORY, DESIRED_REPLICAS, MAX_REPLICAS, "deprecated.deployment.rollback.to");

    /** A write the loop makes, in order. */
    public sealed interface Action {
    }

    /** Create this ReplicaSet (named, owned, labelled and annotated already). */
    public record CreateReplicaSet(ObjectNode replicaSet) implements Action {
    }

    /** Set an existing ReplicaSet's replicas and minReadySeconds, and these annotations. */
    public record UpdateReplicaSet(String name, String uid, int replicas, long minReadySeconds,
                                   Map<String, String> annotations) implements Action {
    }

    /** Delete an old ReplicaSet beyond the revision history. */
    public record DeleteReplicaSet(String name, String uid) implements Action {
    }

    public record Event(String type, String reason, String message) implements Action {
    }

    /**
     * @param actions      the writes, in order
     * @param revision     the Deployment's new {@code deployment.kubernetes.io/revision} (null: unchanged)
     * @param status       its status after the sync (null: unchanged)
     * @param requeueAfter when to look again to notice a missed progress deadline (null: not needed)
     */
    public record Result(List<Action> actions, String revision, ObjectNode status, Duration requeueAfter) {
    }

    private DeploymentDecision() {
    }

    /**
     * @param deployment  the Deployment as stored
     * @param replicaSets the ReplicaSets it owns (claimed), as stored
     * @param podsByReplicaSet the pods each of them controls, by ReplicaSet uid (read for Recreate only)
     */
    public static Result sync(ObjectNode deployment, List<ObjectNode> replicaSets, Map<String, List<? extends JsonNode>> podsByReplicaSet,
                              Instant now) {
        return new Sync(deployment, replicaSets, podsByReplicaSet, now).run();
    }

    // ---- figures shared with the status viewer and the tests ----

    static int replicas(JsonNode object) {
        return object.path("spec").path("replicas").asInt(1);
    }

    static boolean isRollingUpdate(JsonNode deployment) {
        return deployment.path("spec").path("strategy").path("type").asText("RollingUpdate").equals("RollingUpdate");
    }

    /** {@code ResolveFenceposts}: surge rounded up, unavailability down, and 1 unavailable when both come to 0. */
    static int[] fenceposts(JsonNode deployment) {
        int desired = replicas(deployment);
        JsonNode rollingUpdate = deployment.path("spec").path("strategy").path("rollingUpdate");
        int surge = IntOrPercent.scaled(rollingUpdate.get("maxSurge"), desired, true, 0);
        int unavailable = IntOrPercent.scaled(rollingUpdate.get("maxUnavailable"), desired, false, 0);
        if (surge == 0 && unavailable == 0) {
            unavailable = 1;
        }
        return new int[] {surge, unavailable};
    }

    static int maxSurge(JsonNode deployment) {
        return isRollingUpdate(deployment) ? fenceposts(deployment)[0] : 0;
    }

    static int maxUnavailable(JsonNode deployment) {
        int desired = replicas(deployment);
        if (!isRollingUpdate(deployment) || desired == 0) {
            return 0;
        }
        return Math.min(fenceposts(deployment)[1], desired);
    }

    public static boolean hasProgressDeadline(JsonNode deployment) {
        JsonNode deadline = deployment.path("spec").get("progressDeadlineSeconds");
        return deadline != null && deadline.isIntegralNumber() && deadline.asLong() != Integer.MAX_VALUE;
    }

    static long revision(JsonNode rs) {
        String text = rs.path("metadata").path("annotations").path(REVISION).asText("");
        try {
            return Long.parseLong(text);
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    /** ReplicaSetsByCreationTimestamp: older first, then by name. */
    static final Comparator<JsonNode> BY_CREATION = Comparator
            .comparing((JsonNode rs) -> Objects.requireNonNullElse(Pods.creationTimestamp(rs), Instant.MAX))
            .thenComparing(Json::name);

    /** The mutable working state of one sync. */
    private static final class Sync {
        private final ObjectNode original;
        private final ObjectNode d;
        private final List<ObjectNode> rsList;
        private final Map<String, List<? extends JsonNode>> podsByReplicaSet;
        private final Instant now;
        private final List<Action> actions = new ArrayList<>();
        private Duration requeueAfter;

        Sync(ObjectNode deployment, List<ObjectNode> replicaSets, Map<String, List<? extends JsonNode>> podsByReplicaSet, Instant now) {
            this.original = deployment;
            this.d = deployment.deepCopy();
            this.rsList = new ArrayList<>();
            replicaSets.forEach(rs -> rsList.add(rs.deepCopy()));
            this.podsByReplicaSet = podsByReplicaSet;
            this.now = now;
        }

        Result run() {
            JsonNode selector = d.path("spec").path("selector");
            if (selector.isObject() && selector.path("matchLabels").isEmpty() && selector.path("matchExpressions").isEmpty()) {
                actions.add(new Event("Warning", "SelectingAll", "This deployment is selecting all pods. A non-empty selector is required."));
                if (status().path("observedGeneration").asLong(0) < generation()) {
                    status().put("observedGeneration", generation());
                }
                return result();
            }
            if (Pods.isTerminating(d)) {
                ObjectNode[] found = allReplicaSetsAndSyncRevision(false);
                syncDeploymentStatus(all(found), found[0]);
                return result();
            }
            checkPausedConditions();
            if (d.path("spec").path("paused").asBoolean(false)) {
                syncScaling();
                return result();
            }
            if (isScalingEvent()) {
                syncScaling();
                return result();
            }
            if (isRollingUpdate(d)) {
                rolloutRolling();
            } else {
                rolloutRecreate();
            }
            return result();
        }

        private Result result() {
            String before = original.path("metadata").path("annotations").path(REVISION).asText("");
            String after = d.path("metadata").path("annotations").path(REVISION).asText("");
            ObjectNode status = Pods.same(original.get("status"), d.get("status")) ? null : status();
            return new Result(List.copyOf(actions), before.equals(after) ? null : after, status, requeueAfter);
        }

        private long generation() {
            return d.path("metadata").path("generation").asLong(1);
        }

        private ObjectNode status() {
            return d.with("status");
        }

        private List<ObjectNode> all(ObjectNode[] newAndOld) {
            List<ObjectNode> all = new ArrayList<>();
            for (int i = 1; i < newAndOld.length; i++) {
                all.add(newAndOld[i]);
            }
            if (newAndOld[0] != null) {
                all.add(newAndOld[0]);
            }
            return all;
        }

        private static List<ObjectNode> old(ObjectNode[] newAndOld) {
            List<ObjectNode> old = new ArrayList<>();
            for (int i = 1; i < newAndOld.length; i++) {
                old.add(newAndOld[i]);
            }
            return old;
        }

        // ---- sync.go ----

        /** {@code sync}: scaling or paused. */
        private void syncScaling() {
            ObjectNode[] found = allReplicaSetsAndSyncRevision(false);
            scale(found[0], old(found));
            if (d.path("spec").path("paused").asBoolean(false)) {
                cleanupDeployment(old(found));
            }
            syncDeploymentStatus(all(found), found[0]);
        }

        private void checkPausedConditions() {
            if (!hasProgressDeadline(d)) {
                return;
            }
            JsonNode cond = condition(status(), "Progressing");
            if (cond != null && cond.path("reason").asText().equals("ProgressDeadlineExceeded")) {
                return;
            }
            boolean pausedCondExists = cond != null && cond.path("reason").asText().equals("DeploymentPaused");
            boolean paused = d.path("spec").path("paused").asBoolean(false);
            if (paused && !pausedCondExists) {
                setCondition(status(), newCondition("Progressing", "Unknown", "DeploymentPaused", "Deployment is paused"));
            } else if (!paused && pausedCondExists) {
                setCondition(status(), newCondition("Progressing", "Unknown", "DeploymentResumed", "Deployment is resumed"));
            }
        }

        /** [new (or null), old…]: the new ReplicaSet (created when asked) and every other one. */
        private ObjectNode[] allReplicaSetsAndSyncRevision(boolean createIfNotExisted) {
            ObjectNode existingNew = findNewReplicaSet();
            List<ObjectNode> old = new ArrayList<>();
            for (ObjectNode rs : rsList) {
                if (rs != existingNew) {
                    old.add(rs);
                }
            }
            ObjectNode newRs = newReplicaSet(existingNew, old, createIfNotExisted);
            ObjectNode[] result = new ObjectNode[old.size() + 1];
            result[0] = newRs;
            for (int i = 0; i < old.size(); i++) {
                result[i + 1] = old.get(i);
            }
            return result;
        }

        /** {@code FindNewReplicaSet}: the oldest ReplicaSet whose template is the Deployment's, hash label aside. */
        private ObjectNode findNewReplicaSet() {
            List<ObjectNode> sorted = new ArrayList<>(rsList);
            sorted.sort(BY_CREATION);
            for (ObjectNode rs : sorted) {
                if (TemplateHashes.equalIgnoringHash(rs.path("spec").path("template"), d.path("spec").path("template"))) {
                    return rs;
                }
            }
            return null;
        }

        private ObjectNode newReplicaSet(ObjectNode existing, List<ObjectNode> old, boolean createIfNotExisted) {
            long maxOldRevision = 0;
            for (ObjectNode rs : old) {
                maxOldRevision = Math.max(maxOldRevision, revision(rs));
            }
            String newRevision = Long.toString(maxOldRevision + 1);
            if (existing != null) {
                boolean annotationsUpdated = setNewReplicaSetAnnotations(existing, newRevision, true);
                long minReady = d.path("spec").path("minReadySeconds").asLong(0);
                boolean minReadyNeedsUpdate = existing.path("spec").path("minReadySeconds").asLong(0) != minReady;
                if (annotationsUpdated || minReadyNeedsUpdate) {
                    setMinReadySeconds(existing, minReady);
                    update(existing);
                    return existing;
                }
                setDeploymentRevision(existing.path("metadata").path("annotations").path(REVISION).asText(""));
                JsonNode cond = condition(status(), "Progressing");
                if (hasProgressDeadline(d) && cond == null) {
                    setCondition(status(), newCondition("Progressing", "True", "FoundNewReplicaSet",
                            "Found new replica set \"" + Json.name(existing) + "\""));
                }
                return existing;
            }
            if (!createIfNotExisted) {
                return null;
            }
            JsonNode collision = status().get("collisionCount");
            ObjectNode template = ((ObjectNode) d.path("spec").path("template")).deepCopy();
            String hash = TemplateHashes.podTemplateHash(d.path("spec").path("template"),
                    collision == null || collision.isNull() ? null : collision.asInt());
            Json.metadata(template).with("labels").put(POD_TEMPLATE_HASH, hash);
            ObjectNode selector = ((ObjectNode) d.path("spec").path("selector")).deepCopy();
            selector.with("matchLabels").put(POD_TEMPLATE_HASH, hash);

            ObjectNode rs = Json.object();
            rs.put("apiVersion", "apps/v1");
            rs.put("kind", "ReplicaSet");
            ObjectNode meta = rs.putObject("metadata");
            meta.put("name", Json.name(d) + "-" + hash);
            meta.put("namespace", Json.namespace(d));
            meta.set("labels", template.path("metadata").path("labels").deepCopy());
            meta.putArray("ownerReferences").add(Pods.newControllerRef(d));
            ObjectNode spec = rs.putObject("spec");
            spec.put("replicas", 0);
            setMinReadySeconds(rs, d.path("spec").path("minReadySeconds").asLong(0));
            spec.set("selector", selector);
            spec.set("template", template);
            // What the rest of this sync needs of a ReplicaSet that exists from now on.
            meta.put("creationTimestamp", Json.timestamp(now));
            List<ObjectNode> all = new ArrayList<>(old);
            all.add(rs);
            int newReplicas = newReplicaSetReplicas(all, rs);
            spec.put("replicas", newReplicas);
            setNewReplicaSetAnnotations(rs, newRevision, false);
            ObjectNode toCreate = rs.deepCopy();
            Json.metadata(toCreate).remove("creationTimestamp");
            actions.add(new CreateReplicaSet(toCreate));
            rsList.add(rs);
            if (newReplicas > 0) {
                actions.add(new Event("Normal", "ScalingReplicaSet",
                        "Scaled up replica set " + Json.name(rs) + " from 0 to " + newReplicas));
            }
            setDeploymentRevision(newRevision);
            if (hasProgressDeadline(d)) {
                setCondition(status(), newCondition("Progressing", "True", "NewReplicaSetCreated",
                        "Created new replica set \"" + Json.name(rs) + "\""));
            }
            return rs;
        }

        private static void setMinReadySeconds(ObjectNode rs, long minReady) {
            if (minReady == 0) {
                rs.with("spec").remove("minReadySeconds");
            } else {
                rs.with("spec").put("minReadySeconds", minReady);
            }
        }

        private boolean setDeploymentRevision(String revision) {
            ObjectNode annotations = Json.metadata(d).with("annotations");
            if (annotations.path(REVISION).asText("").equals(revision)) {
                if (annotations.isEmpty()) {
                    Json.metadata(d).remove("annotations");
                }
                return false;
            }
            annotations.put(REVISION, revision);
            return true;
        }

        /** {@code SetNewReplicaSetAnnotations}: the Deployment's annotations, the revision (and its history), the replica figures. */
        private boolean setNewReplicaSetAnnotations(ObjectNode rs, String newRevision, boolean exists) {
            ObjectNode annotations = Json.metadata(rs).with("annotations");
            boolean changed = false;
            for (var e : d.path("metadata").path("annotations").properties()) {
                if (ANNOTATIONS_NOT_COPIED.contains(e.getKey()) || e.getValue().equals(annotations.get(e.getKey()))) {
                    continue;
                }
                annotations.set(e.getKey(), e.getValue().deepCopy());
                changed = true;
            }
            String oldRevision = annotations.path(REVISION).asText("");
            boolean had = annotations.has(REVISION);
            long oldRevisionInt;
            try {
                oldRevisionInt = oldRevision.isEmpty() ? 0 : Long.parseLong(oldRevision);
            } catch (NumberFormatException e) {
                return false;
            }
            long newRevisionInt = Long.parseLong(newRevision);
            if (oldRevisionInt < newRevisionInt) {
                annotations.put(REVISION, newRevision);
                changed = true;
            }
            if (had && oldRevisionInt < newRevisionInt) {
                // Rolling back to this ReplicaSet: keep the revisions it had, within 2000 characters.
                String history = annotations.path(REVISION_HISTORY).asText("");
                if (history.isEmpty()) {
                    annotations.put(REVISION_HISTORY, oldRevision);
                } else {
                    List<String> revisions = new ArrayList<>(List.of(history.split(",")));
                    int total = history.length() + oldRevision.length() + 1;
                    int start = 0;
                    while (total > MAX_REVISION_HISTORY_CHARS && start < revisions.size()) {
                        total -= revisions.get(start).length() + 1;
                        start++;
                    }
                    if (total <= MAX_REVISION_HISTORY_CHARS) {
                        List<String> kept = new ArrayList<>(revisions.subList(start, revisions.size()));
                        kept.add(oldRevision);
                        annotations.put(REVISION_HISTORY, String.join(",", kept));
                    }
                }
            }
            if (!exists && setReplicasAnnotations(rs, replicas(d), replicas(d) + maxSurge(d))) {
                changed = true;
            }
            return changed;
        }

        private static boolean setReplicasAnnotations(ObjectNode rs, int desired, int max) {
            ObjectNode annotations = Json.metadata(rs).with("annotations");
            boolean changed = false;
            if (!annotations.path(DESIRED_REPLICAS).asText("").equals(Integer.toString(desired))) {
                annotations.put(DESIRED_REPLICAS, Integer.toString(desired));
                changed = true;
            }
            if (!annotations.path(MAX_REPLICAS).asText("").equals(Integer.toString(max))) {
                annotations.put(MAX_REPLICAS, Integer.toString(max));
                changed = true;
            }
            return changed;
        }

        private static boolean replicasAnnotationsNeedUpdate(JsonNode rs, int desired, int max) {
            JsonNode annotations = rs.path("metadata").path("annotations");
            return !annotations.path(DESIRED_REPLICAS).asText("").equals(Integer.toString(desired))
                    || !annotations.path(MAX_REPLICAS).asText("").equals(Integer.toString(max));
        }

        /** {@code NewRSNewReplicas}: how far the new ReplicaSet may grow now. */
        private int newReplicaSetReplicas(List<ObjectNode> all, ObjectNode newRs) {
            if (!isRollingUpdate(d)) {
                return replicas(d);
            }
            int surge = IntOrPercent.scaled(d.path("spec").path("strategy").path("rollingUpdate").get("maxSurge"), replicas(d), true, 0);
            int current = specReplicas(all);
            int maxTotal = replicas(d) + surge;
            if (current >= maxTotal) {
                return replicas(newRs);
            }
            int scaleUp = Math.min(maxTotal - current, replicas(d) - replicas(newRs));
            return replicas(newRs) + scaleUp;
        }

        private void update(ObjectNode rs) {
            Map<String, String> annotations = new LinkedHashMap<>();
            rs.path("metadata").path("annotations").properties().forEach(e -> annotations.put(e.getKey(), e.getValue().asText()));
            actions.removeIf(a -> a instanceof UpdateReplicaSet u && u.name().equals(Json.name(rs)));
            if (actions.stream().anyMatch(a -> a instanceof CreateReplicaSet c && Json.name(c.replicaSet()).equals(Json.name(rs)))) {
                // Created in this sync: the create carries the latest figures.
                actions.replaceAll(a -> a instanceof CreateReplicaSet c && Json.name(c.replicaSet()).equals(Json.name(rs))
                        ? new CreateReplicaSet(withoutCreationTimestamp(rs)) : a);
                return;
            }
            actions.add(new UpdateReplicaSet(Json.name(rs), Json.uid(rs), replicas(rs),
                    rs.path("spec").path("minReadySeconds").asLong(0), annotations));
        }

        private static ObjectNode withoutCreationTimestamp(ObjectNode rs) {
            ObjectNode copy = rs.deepCopy();
            Json.metadata(copy).remove("creationTimestamp");
            return copy;
        }

        /** {@code scaleReplicaSetAndRecordEvent}. */
        private boolean scaleAndRecord(ObjectNode rs, int newScale) {
            if (replicas(rs) == newScale) {
                return false;
            }
            return scaleReplicaSet(rs, newScale, replicas(rs) < newScale ? "up" : "down");
        }

        /** {@code scaleReplicaSet}: the size and the replica annotations; an event when the size changed. */
        private boolean scaleReplicaSet(ObjectNode rs, int newScale, String operation) {
            boolean sizeNeedsUpdate = replicas(rs) != newScale;
            int desired = replicas(d);
            int max = desired + maxSurge(d);
            boolean annotationsNeedUpdate = replicasAnnotationsNeedUpdate(rs, desired, max);
            if (!sizeNeedsUpdate && !annotationsNeedUpdate) {
                return false;
            }
            int oldScale = replicas(rs);
            rs.with("spec").put("replicas", newScale);
            setReplicasAnnotations(rs, desired, max);
            update(rs);
            if (sizeNeedsUpdate) {
                actions.add(new Event("Normal", "ScalingReplicaSet",
                        "Scaled " + operation + " replica set " + Json.name(rs) + " from " + oldScale + " to " + newScale));
                return true;
            }
            return false;
        }

        private boolean isScalingEvent() {
            ObjectNode[] found = allReplicaSetsAndSyncRevision(false);
            for (ObjectNode rs : all(found)) {
                if (replicas(rs) <= 0) {
                    continue;
                }
                String desired = rs.path("metadata").path("annotations").path(DESIRED_REPLICAS).asText("");
                if (desired.isEmpty()) {
                    continue;
                }
                try {
                    if (Integer.parseInt(desired) != replicas(d)) {
                        return true;
                    }
                } catch (NumberFormatException e) {
                    // not a figure: not a scaling event
                }
            }
            return false;
        }

        /** {@code scale}: after a change of spec.replicas, resize the one active set or spread the change proportionally. */
        private void scale(ObjectNode newRs, List<ObjectNode> oldRss) {
            ObjectNode activeOrLatest = activeOrLatest(newRs, oldRss);
            if (activeOrLatest != null) {
                if (replicas(activeOrLatest) != replicas(d)) {
                    scaleAndRecord(activeOrLatest, replicas(d));
                }
                return;
            }
            if (isSaturated(newRs)) {
                for (ObjectNode old : active(oldRss)) {
                    scaleAndRecord(old, 0);
                }
                return;
            }
            if (!isRollingUpdate(d)) {
                return;
            }
            List<ObjectNode> all = new ArrayList<>(oldRss);
            if (newRs != null) {
                all.add(newRs);
            }
            all = active(all);
            int allReplicas = specReplicas(all);
            int allowedSize = replicas(d) > 0 ? replicas(d) + maxSurge(d) : 0;
            int toAdd = allowedSize - allReplicas;
            String operation = "";
            if (toAdd > 0) {
                // ReplicaSetsBySizeNewer: larger first, newer first among equals.
                all.sort(Comparator.comparingInt((ObjectNode rs) -> -replicas(rs)).thenComparing(BY_CREATION.reversed()));
                operation = "up";
            } else if (toAdd < 0) {
                // ReplicaSetsBySizeOlder: larger first, older first among equals.
                all.sort(Comparator.comparingInt((ObjectNode rs) -> -replicas(rs)).thenComparing(BY_CREATION));
                operation = "down";
            }
            int added = 0;
            Map<ObjectNode, Integer> sizes = new LinkedHashMap<>();
            for (ObjectNode rs : all) {
                if (toAdd != 0) {
                    int proportion = proportion(rs, toAdd, added);
                    sizes.put(rs, replicas(rs) + proportion);
                    added += proportion;
                } else {
                    sizes.put(rs, replicas(rs));
                }
            }
            for (int i = 0; i < all.size(); i++) {
                ObjectNode rs = all.get(i);
                if (i == 0 && toAdd != 0) {
                    sizes.put(rs, Math.max(0, sizes.get(rs) + toAdd - added));
                }
                scaleReplicaSet(rs, sizes.get(rs), operation);
            }
        }

        /** {@code GetReplicaSetProportion}. */
        private int proportion(ObjectNode rs, int toAdd, int added) {
            if (replicas(rs) == 0 || toAdd == 0 || toAdd == added) {
                return 0;
            }
            int fraction = fraction(rs);
            int allowed = toAdd - added;
            return toAdd > 0 ? Math.min(fraction, allowed) : Math.max(fraction, allowed);
        }

        /** {@code getReplicaSetFraction}: the set's share of the new size, by the max-replicas it was made for. */
        private int fraction(ObjectNode rs) {
            if (replicas(d) == 0) {
                return -replicas(rs);
            }
            int maxReplicas = replicas(d) + maxSurge(d);
            int before;
            try {
                before = Integer.parseInt(rs.path("metadata").path("annotations").path(MAX_REPLICAS).asText(""));
            } catch (NumberFormatException e) {
                before = 0;
            }
            if (before == 0) {
                before = status().path("replicas").asInt(0);
            }
            double newSize = (double) replicas(rs) * maxReplicas / before;
            // integer.RoundToInt32: math.Round, halves away from zero.
            return (int) (Math.signum(newSize) * Math.round(Math.abs(newSize))) - replicas(rs);
        }

        private ObjectNode activeOrLatest(ObjectNode newRs, List<ObjectNode> oldRss) {
            if (newRs == null && oldRss.isEmpty()) {
                return null;
            }
            List<ObjectNode> sortedOld = new ArrayList<>(oldRss);
            sortedOld.sort(BY_CREATION.reversed());
            List<ObjectNode> all = new ArrayList<>(sortedOld);
            if (newRs != null) {
                all.add(newRs);
            }
            List<ObjectNode> active = active(all);
            return switch (active.size()) {
                case 0 -> newRs != null ? newRs : sortedOld.getFirst();
                case 1 -> active.getFirst();
                default -> null;
            };
        }

        private boolean isSaturated(ObjectNode rs) {
            if (rs == null) {
                return false;
            }
            String desired = rs.path("metadata").path("annotations").path(DESIRED_REPLICAS).asText("");
            return replicas(rs) == replicas(d) && desired.equals(Integer.toString(replicas(d)))
                    && rs.path("status").path("availableReplicas").asInt(0) == replicas(d);
        }

        private static List<ObjectNode> active(List<ObjectNode> rss) {
            return rss.stream().filter(rs -> rs != null && replicas(rs) > 0).collect(java.util.stream.Collectors.toCollection(ArrayList::new));
        }

        /** {@code cleanupDeployment}: delete the oldest idle ReplicaSets beyond revisionHistoryLimit. */
        private void cleanupDeployment(List<ObjectNode> oldRss) {
            JsonNode limit = d.path("spec").get("revisionHistoryLimit");
            if (limit == null || limit.isNull()) {
                return;
            }
            List<ObjectNode> cleanable = new ArrayList<>(oldRss.stream().filter(rs -> !Pods.isTerminating(rs)).toList());
            int diff = cleanable.size() - limit.asInt();
            if (diff <= 0) {
                return;
            }
            cleanable.sort(Comparator.comparingLong(DeploymentDecision::revision).thenComparing(BY_CREATION));
            for (int i = 0; i < diff; i++) {
                ObjectNode rs = cleanable.get(i);
                boolean idle = rs.path("status").path("replicas").asInt(0) == 0 && replicas(rs) == 0
                        && rs.path("metadata").path("generation").asLong(1) <= rs.path("status").path("observedGeneration").asLong(0);
                if (!idle || Json.uid(rs).isEmpty()) {
                    continue;
                }
                actions.add(new DeleteReplicaSet(Json.name(rs), Json.uid(rs)));
            }
        }

        // ---- rolling.go ----

        private void rolloutRolling() {
            ObjectNode[] found = allReplicaSetsAndSyncRevision(true);
            ObjectNode newRs = found[0];
            List<ObjectNode> oldRss = old(found);
            List<ObjectNode> all = all(found);
            if (newRs == null) {
                syncRolloutStatus(all, null);
                return;
            }
            if (reconcileNewReplicaSet(all, newRs)) {
                syncRolloutStatus(all, newRs);
                return;
            }
            if (reconcileOldReplicaSets(all, active(oldRss), newRs)) {
                syncRolloutStatus(all, newRs);
                return;
            }
            if (deploymentComplete(d, status())) {
                cleanupDeployment(oldRss);
            }
            syncRolloutStatus(all, newRs);
        }

        private boolean reconcileNewReplicaSet(List<ObjectNode> all, ObjectNode newRs) {
            if (replicas(newRs) == replicas(d)) {
                return false;
            }
            if (replicas(newRs) > replicas(d)) {
                return scaleAndRecord(newRs, replicas(d));
            }
            return scaleAndRecord(newRs, newReplicaSetReplicas(all, newRs));
        }

        private boolean reconcileOldReplicaSets(List<ObjectNode> all, List<ObjectNode> oldRss, ObjectNode newRs) {
            if (specReplicas(oldRss) == 0) {
                return false;
            }
            int allPods = specReplicas(all);
            int minAvailable = replicas(d) - maxUnavailable(d);
            int newUnavailable = replicas(newRs) - newRs.path("status").path("availableReplicas").asInt(0);
            int maxScaledDown = allPods - minAvailable - newUnavailable;
            if (maxScaledDown <= 0) {
                return false;
            }
            int cleaned = cleanupUnhealthyReplicas(oldRss, maxScaledDown);
            List<ObjectNode> allAfter = new ArrayList<>(oldRss);
            allAfter.add(newRs);
            int scaledDown = scaleDownOldReplicaSetsForRollingUpdate(allAfter, oldRss);
            return cleaned + scaledDown > 0;
        }

        private int cleanupUnhealthyReplicas(List<ObjectNode> oldRss, int maxCleanup) {
            oldRss.sort(BY_CREATION);
            int total = 0;
            for (ObjectNode rs : oldRss) {
                if (total >= maxCleanup) {
                    break;
                }
                int available = rs.path("status").path("availableReplicas").asInt(0);
                if (replicas(rs) == 0 || replicas(rs) == available) {
                    continue;
                }
                int scaledDown = Math.min(maxCleanup - total, replicas(rs) - available);
                scaleAndRecord(rs, replicas(rs) - scaledDown);
                total += scaledDown;
            }
            return total;
        }

        private int scaleDownOldReplicaSetsForRollingUpdate(List<ObjectNode> all, List<ObjectNode> oldRss) {
            int minAvailable = replicas(d) - maxUnavailable(d);
            int available = availableReplicas(all);
            if (available <= minAvailable) {
                return 0;
            }
            oldRss.sort(BY_CREATION);
            int total = 0;
            int toScaleDown = available - minAvailable;
            for (ObjectNode rs : oldRss) {
                if (total >= toScaleDown) {
                    break;
                }
                if (replicas(rs) == 0) {
                    continue;
                }
                int count = Math.min(replicas(rs), toScaleDown - total);
                scaleAndRecord(rs, replicas(rs) - count);
                total += count;
            }
            return total;
        }

        // ---- recreate.go ----

        private void rolloutRecreate() {
            ObjectNode[] found = allReplicaSetsAndSyncRevision(false);
            ObjectNode newRs = found[0];
            List<ObjectNode> oldRss = old(found);
            List<ObjectNode> all = all(found);
            boolean scaledDown = false;
            for (ObjectNode rs : active(oldRss)) {
                if (replicas(rs) != 0) {
                    scaledDown |= scaleAndRecord(rs, 0);
                }
            }
            if (scaledDown || oldPodsRunning(newRs, oldRss)) {
                syncRolloutStatus(all, newRs);
                return;
            }
            if (newRs == null) {
                found = allReplicaSetsAndSyncRevision(true);
                newRs = found[0];
                oldRss = old(found);
                all = all(found);
            }
            if (newRs != null) {
                scaleAndRecord(newRs, replicas(d));
            }
            if (deploymentComplete(d, status())) {
                cleanupDeployment(oldRss);
            }
            syncRolloutStatus(all, newRs);
        }

        private boolean oldPodsRunning(ObjectNode newRs, List<ObjectNode> oldRss) {
            int actual = 0;
            for (ObjectNode rs : oldRss) {
                actual += rs.path("status").path("replicas").asInt(0);
            }
            if (actual > 0) {
                return true;
            }
            for (var e : podsByReplicaSet.entrySet()) {
                if (newRs != null && e.getKey().equals(Json.uid(newRs))) {
                    continue;
                }
                for (JsonNode pod : e.getValue()) {
                    if (!Pods.isTerminal(pod)) {
                        return true;
                    }
                }
            }
            return false;
        }

        // ---- progress.go and status ----

        private void syncDeploymentStatus(List<ObjectNode> all, ObjectNode newRs) {
            d.set("status", calculateStatus(all, newRs));
        }

        private ObjectNode calculateStatus(List<ObjectNode> all, ObjectNode newRs) {
            int available = availableReplicas(all);
            int total = specReplicas(all);
            int unavailable = Math.max(0, total - available);
            ObjectNode status = Json.object();
            putNonZero(status, "observedGeneration", generation());
            putNonZero(status, "replicas", actualReplicas(all));
            putNonZero(status, "updatedReplicas", newRs == null ? 0 : newRs.path("status").path("replicas").asInt(0));
            int ready = 0;
            for (ObjectNode rs : all) {
                ready += rs.path("status").path("readyReplicas").asInt(0);
            }
            putNonZero(status, "readyReplicas", ready);
            putNonZero(status, "availableReplicas", available);
            putNonZero(status, "unavailableReplicas", unavailable);
            JsonNode conditions = status().get("conditions");
            if (conditions != null && conditions.isArray() && !conditions.isEmpty()) {
                status.set("conditions", conditions.deepCopy());
            }
            if (available >= replicas(d) - maxUnavailable(d)) {
                setCondition(status, newCondition("Available", "True", "MinimumReplicasAvailable", "Deployment has minimum availability."));
            } else {
                setCondition(status, newCondition("Available", "False", "MinimumReplicasUnavailable", "Deployment does not have minimum availability."));
            }
            JsonNode collision = status().get("collisionCount");
            if (collision != null && !collision.isNull()) {
                status.set("collisionCount", collision.deepCopy());
            }
            return status;
        }

        private void syncRolloutStatus(List<ObjectNode> all, ObjectNode newRs) {
            ObjectNode newStatus = calculateStatus(all, newRs);
            if (!hasProgressDeadline(d)) {
                removeCondition(newStatus, "Progressing");
            }
            JsonNode currentCond = condition(status(), "Progressing");
            boolean isComplete = newStatus.path("replicas").asInt(0) == newStatus.path("updatedReplicas").asInt(0)
                    && currentCond != null && currentCond.path("reason").asText().equals("NewReplicaSetAvailable");
            if (hasProgressDeadline(d) && !isComplete) {
                String name = newRs == null ? null : Json.name(newRs);
                if (deploymentComplete(d, newStatus)) {
                    setCondition(newStatus, newCondition("Progressing", "True", "NewReplicaSetAvailable", name == null
                            ? "Deployment \"" + Json.name(d) + "\" has successfully progressed."
                            : "ReplicaSet \"" + name + "\" has successfully progressed."));
                } else if (deploymentProgressing(status(), newStatus)) {
                    ObjectNode condition = newCondition("Progressing", "True", "ReplicaSetUpdated", name == null
                            ? "Deployment \"" + Json.name(d) + "\" is progressing."
                            : "ReplicaSet \"" + name + "\" is progressing.");
                    if (currentCond != null) {
                        if (currentCond.path("status").asText().equals("True")) {
                            condition.set("lastTransitionTime", currentCond.get("lastTransitionTime"));
                        }
                        removeCondition(newStatus, "Progressing");
                    }
                    setCondition(newStatus, condition);
                } else if (timedOut(newStatus)) {
                    setCondition(newStatus, newCondition("Progressing", "False", "ProgressDeadlineExceeded", name == null
                            ? "Deployment \"" + Json.name(d) + "\" has timed out progressing."
                            : "ReplicaSet \"" + name + "\" has timed out progressing."));
                }
            }
            JsonNode failure = replicaFailure(all, newRs);
            if (failure != null) {
                setCondition(newStatus, (ObjectNode) failure);
            } else {
                removeCondition(newStatus, "ReplicaFailure");
            }
            requeueAfter = stuckRequeue(newStatus);
            d.set("status", newStatus);
        }

        /** {@code getReplicaFailures}: the new set's ReplicaFailure first, else an old one's, as a Deployment condition. */
        private JsonNode replicaFailure(List<ObjectNode> all, ObjectNode newRs) {
            List<ObjectNode> order = new ArrayList<>();
            if (newRs != null) {
                order.add(newRs);
            }
            for (ObjectNode rs : all) {
                if (rs != newRs) {
                    order.add(rs);
                }
            }
            for (ObjectNode rs : order) {
                for (JsonNode c : rs.path("status").path("conditions")) {
                    if (c.path("type").asText().equals("ReplicaFailure")) {
                        ObjectNode condition = Json.object();
                        condition.put("type", "ReplicaFailure");
                        condition.set("status", c.path("status"));
                        condition.set("lastUpdateTime", c.path("lastTransitionTime"));
                        condition.set("lastTransitionTime", c.path("lastTransitionTime"));
                        condition.set("reason", c.path("reason"));
                        condition.set("message", c.path("message"));
                        return condition;
                    }
                }
            }
            return null;
        }

        private boolean timedOut(ObjectNode newStatus) {
            JsonNode condition = condition(newStatus, "Progressing");
            if (condition == null || condition.path("reason").asText().equals("NewReplicaSetAvailable")) {
                return false;
            }
            if (condition.path("reason").asText().equals("ProgressDeadlineExceeded")) {
                return true;
            }
            Instant from = Json.parseTimestamp(condition.path("lastUpdateTime").asText(""));
            long deadline = d.path("spec").path("progressDeadlineSeconds").asLong();
            return from != null && from.plusSeconds(deadline).isBefore(now);
        }

        /** {@code requeueStuckDeployment}: when a rollout without progress should be looked at for its deadline. */
        private Duration stuckRequeue(ObjectNode newStatus) {
            JsonNode current = condition(newStatus, "Progressing");
            if (!hasProgressDeadline(d) || current == null || deploymentComplete(d, newStatus)
                    || current.path("reason").asText().equals("ProgressDeadlineExceeded")) {
                return null;
            }
            Instant from = Json.parseTimestamp(current.path("lastUpdateTime").asText(""));
            if (from == null) {
                return null;
            }
            Duration after = Duration.between(now, from.plusSeconds(d.path("spec").path("progressDeadlineSeconds").asLong()));
            return after.compareTo(Duration.ofSeconds(1)) < 0 ? Duration.ofSeconds(1) : after.plusSeconds(1);
        }

        private ObjectNode newCondition(String type, String status, String reason, String message) {
            ObjectNode c = Json.object();
            c.put("type", type);
            c.put("status", status);
            c.put("lastUpdateTime", Json.timestamp(now));
            c.put("lastTransitionTime", Json.timestamp(now));
            c.put("reason", reason);
            c.put("message", message);
            return c;
        }
    }

    /** {@code DeploymentComplete}. */
    static boolean deploymentComplete(JsonNode deployment, JsonNode status) {
        int desired = replicas(deployment);
        return status.path("updatedReplicas").asInt(0) == desired
                && status.path("replicas").asInt(0) == desired
                && status.path("availableReplicas").asInt(0) == desired
                && status.path("observedGeneration").asLong(0) >= deployment.path("metadata").path("generation").asLong(1);
    }

    /** {@code DeploymentProgressing}: more updated, fewer old, more ready or more available than before. */
    static boolean deploymentProgressing(JsonNode oldStatus, JsonNode newStatus) {
        int oldOld = oldStatus.path("replicas").asInt(0) - oldStatus.path("updatedReplicas").asInt(0);
        int newOld = newStatus.path("replicas").asInt(0) - newStatus.path("updatedReplicas").asInt(0);
        return newStatus.path("updatedReplicas").asInt(0) > oldStatus.path("updatedReplicas").asInt(0)
                || newOld < oldOld
                || newStatus.path("readyReplicas").asInt(0) > oldStatus.path("readyReplicas").asInt(0)
                || newStatus.path("availableReplicas").asInt(0) > oldStatus.path("availableReplicas").asInt(0);
    }

    static JsonNode condition(JsonNode status, String type) {
        for (JsonNode c : status.path("conditions")) {
            if (c.path("type").asText().equals(type)) {
                return c;
            }
        }
        return null;
    }

    /** {@code SetDeploymentCondition}: same status and reason, nothing; same status, keep lastTransitionTime; moved last. */
    public static void setCondition(ObjectNode status, ObjectNode condition) {
        JsonNode current = condition(status, condition.path("type").asText());
        if (current != null && current.path("status").asText().equals(condition.path("status").asText())
                && current.path("reason").asText().equals(condition.path("reason").asText())) {
            return;
        }
        if (current != null && current.path("status").asText().equals(condition.path("status").asText())) {
            condition.set("lastTransitionTime", current.get("lastTransitionTime"));
        }
        removeCondition(status, condition.path("type").asText());
        status.withArray("conditions").add(condition);
    }

    static void removeCondition(ObjectNode status, String type) {
        if (!(status.get("conditions") instanceof ArrayNode conditions)) {
            return;
        }
        for (int i = conditions.size() - 1; i >= 0; i--) {
            if (conditions.get(i).path("type").asText().equals(type)) {
                conditions.remove(i);
            }
        }
        if (conditions.isEmpty()) {
            status.remove("conditions");
        }
    }

    static int specReplicas(List<ObjectNode> rss) {
        int total = 0;
        for (ObjectNode rs : rss) {
            if (rs != null) {
                total += replicas(rs);
            }
        }
        return total;
    }

    static int actualReplicas(List<ObjectNode> rss) {
        int total = 0;
        for (ObjectNode rs : rss) {
            if (rs != null) {
                total += rs.path("status").path("replicas").asInt(0);
            }
        }
        return total;
    }

    static int availableReplicas(List<ObjectNode> rss) {
        int total = 0;
        for (ObjectNode rs : rss) {
            if (rs != null) {
                total += rs.path("status").path("availableReplicas").asInt(0);
            }
        }
        return total;
    }

    private static void putNonZero(ObjectNode status, String field, long value) {
        if (value != 0) {
            status.put(field, value);
        }
    }
}
