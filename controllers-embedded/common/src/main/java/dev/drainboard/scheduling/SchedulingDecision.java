package dev.drainboard.scheduling;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.drainboard.architecture.Pure;
import dev.drainboard.labels.LabelSelector;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Where a pod goes, as kube-scheduler's default filters decide it (in their order: NodeUnschedulable,
 * TaintToleration, NodeAffinity, NodeResourcesFit, InterPodAffinity), then the least requested feasible node.
 * When no node fits, the reasons are counted per node into kube-scheduler's message.
 */
@Pure
public final class SchedulingDecision {

    public static final String UNSCHEDULABLE_TAINT = "node.kubernetes.io/unschedulable";
    public static final String NOT_READY_TAINT = "node.kubernetes.io/not-ready";
    public static final String UNREACHABLE_TAINT = "node.kubernetes.io/unreachable";

    static final String REASON_CORDONED = "node(s) were unschedulable";
    static final String REASON_TAINT = "node(s) had untolerated taint {%s: %s}";
    static final String REASON_NODE_AFFINITY = "node(s) didn't match Pod's node affinity/selector";
    static final String REASON_TOO_MANY_PODS = "Too many pods";
    static final String REASON_INSUFFICIENT = "Insufficient %s";
    static final String REASON_ANTI_AFFINITY = "node(s) didn't match pod anti-affinity rules";
    static final String REASON_EXISTING_ANTI_AFFINITY = "node(s) didn't satisfy existing pods anti-affinity rules";
    static final String NO_NODES = "no nodes available to schedule pods";
    static final String PREEMPTION_NOT_HELPFUL = "Preemption is not helpful for scheduling";
    static final String NO_VICTIMS = "No preemption victims found for incoming pod";

    /** The result: a node, or why none fits. */
    public sealed interface Outcome {
    }

    public record Bind(String nodeName) implements Outcome {
    }

    /** {@code reasons}: per reason, how many nodes gave it; {@code message}: kube-scheduler's text. */
    public record Unschedulable(Map<String, Integer> reasons, String message) implements Outcome {
    }

    private SchedulingDecision() {
    }

    /**
     * @param pod   the pod to place
     * @param nodes every node with the pods that occupy it
     */
    public static Outcome decide(JsonNode pod, List<NodeState> nodes) {
        return decide(pod, nodes, PodResources.requestsOf(pod), PodResources.nonZeroRequestsOf(pod));
    }

    /** With the pod's requests already worked out. */
    public static Outcome decide(JsonNode pod, List<NodeState> nodes, PodResources request, PodResources nonZeroRequest) {
        if (nodes.isEmpty()) {
            return new Unschedulable(Map.of(), NO_NODES);
        }
        AntiAffinity antiAffinity = AntiAffinity.of(pod, nodes);
        Map<String, Integer> histogram = new TreeMap<>();
        int unresolvableNodes = 0;
        NodeState best = null;
        double bestScore = -1;
        for (NodeState node : nodes) {
            Failure failure = filter(pod, node, request, antiAffinity);
            if (failure != null) {
                failure.reasons.forEach(r -> histogram.merge(r, 1, Integer::sum));
                if (failure.unresolvable) {
                    unresolvableNodes++;
                }
                continue;
            }
            double score = leastRequestedScore(node, nonZeroRequest);
            if (best == null || score > bestScore || (score == bestScore && tieBreak(node, best) < 0)) {
                best = node;
                bestScore = score;
            }
        }
        if (best != null) {
            return new Bind(best.name());
        }
        return new Unschedulable(histogram, message(pod, nodes.size(), histogram, unresolvableNodes));
    }

    private static int tieBreak(NodeState a, NodeState b) {
        return Comparator.<NodeState>comparingInt(n -> n.pods().size()).thenComparing(NodeState::name).compare(a, b);
    }

    /** Why one node does not fit, or null. Unresolvable failures are those preemption cannot fix. */
    private record Failure(List<String> reasons, boolean unresolvable) {
    }

    private static Failure filter(JsonNode pod, NodeState state, PodResources request, AntiAffinity antiAffinity) {
        JsonNode spec = pod.path("spec");
        JsonNode node = state.node();
        JsonNode tolerations = spec.path("tolerations");
        if (node.path("spec").path("unschedulable").asBoolean(false)
                && !Tolerations.anyTolerates(tolerations, taint(UNSCHEDULABLE_TAINT, "NoSchedule"))) {
            return new Failure(List.of(REASON_CORDONED), true);
        }
        var untolerated = Tolerations.firstUntolerated(state.taints(), tolerations);
        if (untolerated.isPresent()) {
            JsonNode t = untolerated.get();
            return new Failure(List.of(REASON_TAINT.formatted(t.path("key").asText(), t.path("value").asText(""))), true);
        }
        if (!NodeSelection.matches(spec, node)) {
            return new Failure(List.of(REASON_NODE_AFFINITY), true);
        }
        List<String> insufficient = new ArrayList<>();
        PodResources allocatable = state.allocatable();
        if (state.pods().size() + 1 > state.maxPods()) {
            insufficient.add(REASON_TOO_MANY_PODS);
        }
        if (request.milliCpu() > 0 && request.milliCpu() > allocatable.milliCpu() - state.requested().milliCpu()) {
            insufficient.add(REASON_INSUFFICIENT.formatted("cpu"));
        }
        if (request.memoryBytes() > 0
                && request.memoryBytes() > allocatable.memoryBytes() - state.requested().memoryBytes()) {
            insufficient.add(REASON_INSUFFICIENT.formatted("memory"));
        }
        if (!insufficient.isEmpty()) {
            return new Failure(insufficient, false);
        }
        if (antiAffinity.existingForbid(node)) {
            return new Failure(List.of(REASON_EXISTING_ANTI_AFFINITY), false);
        }
        if (antiAffinity.incomingForbids(node)) {
            return new Failure(List.of(REASON_ANTI_AFFINITY), false);
        }
        return null;
    }

    /**
     * The node's taints, plus the one the node lifecycle controller would add for a node that is not Ready
     * ({@code not-ready} for Ready=False or no report yet, {@code unreachable} for Ready=Unknown).
     */
    static List<JsonNode> taintsOf(JsonNode node) {
        List<JsonNode> taints = new ArrayList<>();
        node.path("spec").path("taints").forEach(taints::add);
        String ready = "";
        for (JsonNode c : node.path("status").path("conditions")) {
            if (c.path("type").asText().equals("Ready")) {
                ready = c.path("status").asText();
            }
        }
        String implicit = switch (ready) {
            case "True" -> null;
            case "Unknown" -> UNREACHABLE_TAINT;
            default -> NOT_READY_TAINT;
        };
        if (implicit != null && taints.stream().noneMatch(t -> t.path("key").asText().equals(implicit))) {
            taints.add(taint(implicit, "NoSchedule"));
        }
        return taints;
    }

    private static ObjectNode taint(String key, String effect) {
        return JsonNodeFactory.instance.objectNode().put("key", key).put("effect", effect);
    }

    /** kube-scheduler's LeastAllocated score: the mean free share of CPU and memory once the pod is placed. */
    private static double leastRequestedScore(NodeState state, PodResources nonZeroRequest) {
        PodResources allocatable = state.allocatable();
        double cpu = freeShare(allocatable.milliCpu(), state.nonZeroRequested().milliCpu() + nonZeroRequest.milliCpu());
        double memory = freeShare(allocatable.memoryBytes(), state.nonZeroRequested().memoryBytes() + nonZeroRequest.memoryBytes());
        return (cpu + memory) / 2;
    }

    private static double freeShare(long capacity, long requested) {
        if (capacity <= 0 || requested > capacity) {
            return 0;
        }
        return (double) (capacity - requested) / capacity;
    }

    private static String message(JsonNode pod, int nodeCount, Map<String, Integer> histogram, int unresolvableNodes) {
        StringBuilder text = new StringBuilder("0/").append(nodeCount).append(" nodes are available: ");
        text.append(sortedCounts(histogram)).append('.');
        if (pod.path("spec").path("preemptionPolicy").asText().equals("Never")) {
            text.append(" preemption: not eligible due to preemptionPolicy=Never.");
            return text.toString();
        }
        // No simulated pod has a lower priority to give way, so nodes that failed on resources or anti-affinity
        // have no victims; the others cannot be helped by preemption at all.
        Map<String, Integer> preemption = new TreeMap<>();
        if (unresolvableNodes > 0) {
            preemption.put(PREEMPTION_NOT_HELPFUL, unresolvableNodes);
        }
        if (nodeCount - unresolvableNodes > 0) {
            preemption.put(NO_VICTIMS, nodeCount - unresolvableNodes);
        }
        text.append(" preemption: 0/").append(nodeCount).append(" nodes are available: ")
                .append(sortedCounts(preemption)).append('.');
        return text.toString();
    }

    /** "N reason" entries sorted as strings, as kube-scheduler sorts them. */
    private static String sortedCounts(Map<String, Integer> histogram) {
        List<String> entries = new ArrayList<>();
        histogram.forEach((reason, count) -> entries.add(count + " " + reason));
        entries.sort(Comparator.naturalOrder());
        return String.join(", ", entries);
    }

    /**
     * Required pod anti-affinity in both directions: the incoming pod's terms against the pods already placed, and
     * the placed pods' terms against the incoming pod. Each term forbids topology domains (node label values of
     * its topologyKey, {@code kubernetes.io/hostname} for "not on the same node").
     */
    private record AntiAffinity(Set<Domain> forbiddenByIncoming, Set<Domain> forbiddenByExisting) {

        private record Domain(String topologyKey, String value) {
        }

        static AntiAffinity of(JsonNode pod, List<NodeState> nodes) {
            String namespace = pod.path("metadata").path("namespace").asText();
            JsonNode incomingTerms = requiredAntiAffinityTerms(pod);
            Set<Domain> byIncoming = new HashSet<>();
            Set<Domain> byExisting = new LinkedHashSet<>();
            for (NodeState state : nodes) {
                JsonNode labels = state.node().path("metadata").path("labels");
                for (JsonNode existing : incomingTerms.isEmpty() ? List.<JsonNode>of() : state.pods()) {
                    for (JsonNode term : incomingTerms) {
                        String key = term.path("topologyKey").asText();
                        if (labels.has(key) && termSelects(term, namespace, existing)) {
                            byIncoming.add(new Domain(key, labels.path(key).asText()));
                        }
                    }
                }
                for (JsonNode existing : state.podsWithAntiAffinity()) {
                    JsonNode existingTerms = requiredAntiAffinityTerms(existing);
                    for (JsonNode term : existingTerms) {
                        String key = term.path("topologyKey").asText();
                        String existingNamespace = existing.path("metadata").path("namespace").asText();
                        if (labels.has(key) && termSelects(term, existingNamespace, pod)) {
                            byExisting.add(new Domain(key, labels.path(key).asText()));
                        }
                    }
                }
            }
            return new AntiAffinity(byIncoming, byExisting);
        }

        boolean incomingForbids(JsonNode node) {
            return inAny(forbiddenByIncoming, node);
        }

        boolean existingForbid(JsonNode node) {
            return inAny(forbiddenByExisting, node);
        }

        private static boolean inAny(Set<Domain> domains, JsonNode node) {
            if (domains.isEmpty()) {
                return false;
            }
            JsonNode labels = node.path("metadata").path("labels");
            for (Domain d : domains) {
                if (labels.has(d.topologyKey()) && labels.path(d.topologyKey()).asText().equals(d.value())) {
                    return true;
                }
            }
            return false;
        }

        private static JsonNode requiredAntiAffinityTerms(JsonNode pod) {
            return pod.path("spec").path("affinity").path("podAntiAffinity").path("requiredDuringSchedulingIgnoredDuringExecution");
        }

        /**
         * Whether a term selects a pod: the pod is in the term's namespaces (its own owner's namespace when none
         * are listed; every namespace for an empty namespaceSelector) and matches its label selector.
         */
        private static boolean termSelects(JsonNode term, String ownerNamespace, JsonNode candidate) {
            String candidateNamespace = candidate.path("metadata").path("namespace").asText();
            JsonNode namespaces = term.path("namespaces");
            JsonNode namespaceSelector = term.path("namespaceSelector");
            boolean allNamespaces = namespaceSelector.isObject() && namespaceSelector.isEmpty();
            if (!allNamespaces) {
                boolean listed = false;
                for (JsonNode n : namespaces) {
                    listed |= n.asText().equals(candidateNamespace);
                }
                if (!listed && !(namespaces.isEmpty() && candidateNamespace.equals(ownerNamespace))) {
                    return false;
                }
            }
            return LabelSelector.selects(term.path("labelSelector"), candidate.path("metadata").path("labels"));
        }
    }
}
