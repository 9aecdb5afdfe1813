package dev.drainboard.cluster.workloads.replicaset;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.drainboard.architecture.Pure;
import dev.drainboard.cluster.apiserver.Json;
import dev.drainboard.cluster.workloads.Pods;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * kube-controller-manager's ReplicaSet controller as pure functions ({@code pkg/controller/replicaset/replica_set.go},
 * {@code replica_set_utils.go}, and the ranking in {@code pkg/controller/controller_utils.go}): how many pods to
 * create, which to delete, and the status.
 */
@Pure
public final class ReplicaSetDecision {

    /** {@code BurstReplicas}: at most this many creations or deletions per sync. */
    public static final int BURST_REPLICAS = 500;
    public static final String DELETION_COST = "controller.kubernetes.io/pod-deletion-cost";

    /** What one sync should do: create this many pods from the template, delete these. */
    public record Plan(int create, List<ObjectNode> delete) {
        public boolean isEmpty() {
            return create == 0 && delete.isEmpty();
        }
    }

    /** A create or delete that failed, as it goes into the ReplicaFailure condition. */
    public record Failure(String reason, String message) {
    }

    private ReplicaSetDecision() {
    }

    public static int replicas(JsonNode rs) {
        return rs.path("spec").path("replicas").asInt(1);
    }

    /**
     * {@code manageReplicas}: too few active pods, create the difference (at most {@link #BURST_REPLICAS}); too many,
     * delete the surplus the ranking puts first.
     *
     * @param active  the active pods the set owns
     * @param related the active pods of every ReplicaSet with the same controller (its own included), for the rank
     *                "more pods of the family on the same node deleted first"
     */
    public static Plan manage(JsonNode rs, List<ObjectNode> active, List<? extends JsonNode> related, Instant now) {
        int diff = active.size() - replicas(rs);
        if (diff < 0) {
            return new Plan(Math.min(-diff, BURST_REPLICAS), List.of());
        }
        if (diff > 0) {
            return new Plan(0, podsToDelete(active, related, Math.min(diff, BURST_REPLICAS), now));
        }
        return new Plan(0, List.of());
    }

    /** {@code getPodsToDelete}: the first {@code count} pods in deletion order. */
    static List<ObjectNode> podsToDelete(List<ObjectNode> pods, List<? extends JsonNode> related, int count, Instant now) {
        if (count >= pods.size()) {
            return List.copyOf(pods);
        }
        Map<String, Integer> onNode = new HashMap<>();
        for (JsonNode pod : related) {
            if (Pods.isActive(pod)) {
                onNode.merge(pod.path("spec").path("nodeName").asText(""), 1, Integer::sum);
            }
        }
        List<ObjectNode> sorted = new ArrayList<>(pods);
        sorted.sort(deletionOrder(pod -> onNode.getOrDefault(pod.path("spec").path("nodeName").asText(""), 0), now));
        return List.copyOf(sorted.subList(0, count));
    }

    /**
     * {@code ActivePodsWithRanks.Less}, with PodDeletionCost and LogarithmicScaleDown (both on by default): the pod
     * to delete first sorts first. Unassigned before assigned; Pending before Unknown before Running; not ready
     * before ready; lower {@code pod-deletion-cost} first; more pods of the family on its node first; ready for a
     * shorter time first (in powers of two); more container restarts first; newer first (in powers of two); then by
     * uid.
     */
    public static Comparator<JsonNode> deletionOrder(java.util.function.ToIntFunction<JsonNode> rank, Instant now) {
        return (a, b) -> {
            String nodeA = a.path("spec").path("nodeName").asText("");
            String nodeB = b.path("spec").path("nodeName").asText("");
            if (!nodeA.equals(nodeB) && (nodeA.isEmpty() || nodeB.isEmpty())) {
                return nodeA.isEmpty() ? -1 : 1;
            }
            int phase = Integer.compare(phaseOrdinal(a), phaseOrdinal(b));
            if (phase != 0) {
                return phase;
            }
            boolean readyA = Pods.isReady(a);
            boolean readyB = Pods.isReady(b);
            if (readyA != readyB) {
                return readyA ? 1 : -1;
            }
            int cost = Integer.compare(deletionCost(a), deletionCost(b));
            if (cost != 0) {
                return cost;
            }
            int ranks = Integer.compare(rank.applyAsInt(b), rank.applyAsInt(a));
            if (ranks != 0) {
                return ranks;
            }
            if (readyA) {
                int readyTime = newerFirst(Pods.readyTime(a), Pods.readyTime(b), Json.uid(a), Json.uid(b), now);
                if (readyTime != 0) {
                    return readyTime;
                }
            }
            int restarts = Integer.compare(Pods.maxContainerRestarts(b), Pods.maxContainerRestarts(a));
            if (restarts != 0) {
                return restarts;
            }
            return newerFirst(Pods.creationTimestamp(a), Pods.creationTimestamp(b), Json.uid(a), Json.uid(b), now);
        };
    }

    /** PodPending &lt; PodUnknown &lt; PodRunning; any other phase counts as Pending, as a missing map entry does. */
    private static int phaseOrdinal(JsonNode pod) {
        return switch (Pods.phase(pod)) {
            case "Unknown" -> 1;
            case "Running" -> 2;
            default -> 0;
        };
    }

    /** The pod's {@code controller.kubernetes.io/pod-deletion-cost}; 0 when missing or not an int32. */
    static int deletionCost(JsonNode pod) {
        String text = pod.path("metadata").path("annotations").path(DELETION_COST).asText("");
        try {
            return text.isEmpty() ? 0 : Integer.parseInt(text);
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    /**
     * A missing time first, then the more recent one, compared by the whole power of two of its age
     * ({@code logarithmicRankDiff}); equal ranks fall back to the uid.
     */
    private static int newerFirst(Instant a, Instant b, String uidA, String uidB, Instant now) {
        if (a == null || b == null) {
            if (a == null && b == null) {
                return 0;
            }
            return a == null ? -1 : 1;
        }
        if (a.equals(b)) {
            return 0;
        }
        long diff = logRank(a, now) - logRank(b, now);
        if (diff == 0) {
            return uidA.compareTo(uidB);
        }
        return diff < 0 ? -1 : 1;
    }

    private static long logRank(Instant t, Instant now) {
        long nanos = Duration.between(t, now).toNanos();
        return nanos > 0 ? (long) (Math.log(nanos) / Math.log(2)) : -1;
    }

    /**
     * {@code calculateStatus}: replicas (the active pods it owns), fullyLabeledReplicas (those carrying every label
     * of the template), readyReplicas, availableReplicas (ready for minReadySeconds), observedGeneration, and the
     * ReplicaFailure condition while creating or deleting fails. Zero counts are left out, as the Go type's
     * {@code omitempty} leaves them out.
     */
    public static ObjectNode status(JsonNode rs, List<? extends JsonNode> active, Failure failure, Instant now) {
        JsonNode templateLabels = rs.path("spec").path("template").path("metadata").path("labels");
        long minReady = rs.path("spec").path("minReadySeconds").asLong(0);
        int fullyLabeled = 0;
        int ready = 0;
        int available = 0;
        for (JsonNode pod : active) {
            if (hasAll(pod.path("metadata").path("labels"), templateLabels)) {
                fullyLabeled++;
            }
            if (Pods.isReady(pod)) {
                ready++;
                if (Pods.isAvailable(pod, minReady, now)) {
                    available++;
                }
            }
        }
        ObjectNode status = Json.object();
        status.put("replicas", active.size());
        putNonZero(status, "fullyLabeledReplicas", fullyLabeled);
        putNonZero(status, "readyReplicas", ready);
        putNonZero(status, "availableReplicas", available);
        long generation = rs.path("metadata").path("generation").asLong(1);
        if (generation != 0) {
            status.put("observedGeneration", generation);
        }
        ArrayNode conditions = Json.NODES.arrayNode();
        JsonNode existingFailure = null;
        for (JsonNode c : rs.path("status").path("conditions")) {
            if (c.path("type").asText().equals("ReplicaFailure")) {
                existingFailure = c;
            } else {
                conditions.add(c.deepCopy());
            }
        }
        if (failure != null) {
            if (existingFailure != null) {
                conditions.add(existingFailure.deepCopy());
            } else {
                ObjectNode c = conditions.addObject();
                c.put("type", "ReplicaFailure");
                c.put("status", "True");
                c.put("lastTransitionTime", Json.timestamp(now));
                c.put("reason", failure.reason());
                c.put("message", failure.message());
            }
        }
        if (!conditions.isEmpty()) {
            status.set("conditions", conditions);
        }
        return status;
    }

    /** When the next ready-but-not-yet-available pod becomes available, or null. */
    public static Instant nextAvailability(JsonNode rs, List<? extends JsonNode> active, Instant now) {
        long minReady = rs.path("spec").path("minReadySeconds").asLong(0);
        if (minReady == 0) {
            return null;
        }
        Instant next = null;
        for (JsonNode pod : active) {
            Instant at = Pods.availableAt(pod, minReady);
            if (at != null && !Pods.isAvailable(pod, minReady, now) && (next == null || at.isBefore(next))) {
                next = at;
            }
        }
        return next;
    }

    private static boolean hasAll(JsonNode labels, JsonNode required) {
        for (var e : required.properties()) {
            if (!labels.path(e.getKey()).isTextual() || !labels.path(e.getKey()).asText().equals(e.getValue().asText())) {
                return false;
            }
        }
        return true;
    }

    private static void putNonZero(ObjectNode status, String field, int value) {
        if (value != 0) {
            status.put(field, value);
        }
    }
}
