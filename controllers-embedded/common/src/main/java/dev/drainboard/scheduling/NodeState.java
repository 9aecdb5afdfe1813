package dev.drainboard.scheduling;

import com.fasterxml.jackson.databind.JsonNode;
import dev.drainboard.architecture.Pure;
import dev.drainboard.units.Quantities;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * A node as the scheduler sees it: the Node object and the pods that hold its resources (bound to it and not
 * Succeeded or Failed), with their summed requests; its taints (with the implicit not-ready one) read once.
 */
@Pure
public record NodeState(JsonNode node, List<JsonNode> pods, PodResources requested, PodResources nonZeroRequested,
                        List<JsonNode> podsWithAntiAffinity, PodResources allocatable, long maxPods, List<JsonNode> taints) {

    public static NodeState of(JsonNode node, List<JsonNode> pods) {
        return of(node, pods, PodResources::requestsOf, PodResources::nonZeroRequestsOf);
    }

    /** With the pods' requests from the caller (the scheduler keeps them from pass to pass). */
    public static NodeState of(JsonNode node, List<JsonNode> pods, Function<JsonNode, PodResources> requestsOf,
                               Function<JsonNode, PodResources> nonZeroRequestsOf) {
        PodResources requested = PodResources.NONE;
        PodResources nonZero = PodResources.NONE;
        List<JsonNode> withAntiAffinity = new ArrayList<>();
        for (JsonNode p : pods) {
            requested = requested.plus(requestsOf.apply(p));
            nonZero = nonZero.plus(nonZeroRequestsOf.apply(p));
            if (hasRequiredAntiAffinity(p)) {
                withAntiAffinity.add(p);
            }
        }
        JsonNode status = node.path("status");
        JsonNode figures = status.has("allocatable") ? status.path("allocatable") : status.path("capacity");
        PodResources allocatable = new PodResources(quantity(figures, "cpu", true), quantity(figures, "memory", false));
        return new NodeState(node, List.copyOf(pods), requested, nonZero, List.copyOf(withAntiAffinity), allocatable,
                quantity(figures, "pods", false), List.copyOf(SchedulingDecision.taintsOf(node)));
    }

    /** A missing figure means the node reports no limit. */
    private static long quantity(JsonNode resources, String name, boolean milli) {
        JsonNode value = resources.path(name);
        if (value.isMissingNode() || value.isNull()) {
            return Long.MAX_VALUE / 2;
        }
        return milli ? Quantities.milli(value.asText()) : Quantities.whole(value.asText());
    }

    static boolean hasRequiredAntiAffinity(JsonNode pod) {
        return !pod.path("spec").path("affinity").path("podAntiAffinity")
                .path("requiredDuringSchedulingIgnoredDuringExecution").isEmpty();
    }

    public String name() {
        return node.path("metadata").path("name").asText();
    }

    /** The same node with one more pod on it (a pod just bound in this scheduling pass). */
    public NodeState with(JsonNode pod) {
        return with(pod, PodResources.requestsOf(pod), PodResources.nonZeroRequestsOf(pod));
    }

    public NodeState with(JsonNode pod, PodResources podRequests, PodResources podNonZeroRequests) {
        List<JsonNode> more = new ArrayList<>(pods);
        more.add(pod);
        List<JsonNode> moreWithAntiAffinity = podsWithAntiAffinity;
        if (hasRequiredAntiAffinity(pod)) {
            moreWithAntiAffinity = new ArrayList<>(podsWithAntiAffinity);
            moreWithAntiAffinity.add(pod);
        }
        return new NodeState(node, List.copyOf(more), requested.plus(podRequests),
                nonZeroRequested.plus(podNonZeroRequests), List.copyOf(moreWithAntiAffinity),
                allocatable, maxPods, taints);
    }
}
