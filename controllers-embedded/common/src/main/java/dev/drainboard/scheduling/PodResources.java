package dev.drainboard.scheduling;

import com.fasterxml.jackson.databind.JsonNode;
import dev.drainboard.architecture.Pure;
import dev.drainboard.units.Quantities;

/**
 * CPU (millicores) and memory (bytes) of a pod as the scheduler counts them: the sum over its containers, at least
 * the largest init container, plus the pod overhead.
 */
@Pure
public record PodResources(long milliCpu, long memoryBytes) {

    /** What kube-scheduler assumes, for scoring only, of a container that requests nothing. */
    static final long DEFAULT_MILLI_CPU = 100;
    static final long DEFAULT_MEMORY_BYTES = 200L << 20;

    public static final PodResources NONE = new PodResources(0, 0);

    public static PodResources requestsOf(JsonNode pod) {
        return of(pod, false);
    }

    /** Requests with the scoring defaults filled in for containers that request no CPU or memory. */
    public static PodResources nonZeroRequestsOf(JsonNode pod) {
        return of(pod, true);
    }

    private static PodResources of(JsonNode pod, boolean nonZero) {
        JsonNode spec = pod.path("spec");
        long cpu = 0;
        long memory = 0;
        for (JsonNode c : spec.path("containers")) {
            cpu += request(c, "cpu", nonZero ? DEFAULT_MILLI_CPU : 0, true);
            memory += request(c, "memory", nonZero ? DEFAULT_MEMORY_BYTES : 0, false);
        }
        for (JsonNode c : spec.path("initContainers")) {
            cpu = Math.max(cpu, request(c, "cpu", 0, true));
            memory = Math.max(memory, request(c, "memory", 0, false));
        }
        JsonNode overhead = spec.path("overhead");
        if (overhead.has("cpu")) {
            cpu += Quantities.milli(overhead.path("cpu").asText());
        }
        if (overhead.has("memory")) {
            memory += Quantities.whole(overhead.path("memory").asText());
        }
        return new PodResources(cpu, memory);
    }

    private static long request(JsonNode container, String resource, long fallback, boolean milli) {
        JsonNode resources = container.path("resources");
        // A limit without a request defaults the request to the limit, as the API server does.
        JsonNode value = resources.path("requests").path(resource);
        if (value.isMissingNode() || value.isNull()) {
            value = resources.path("limits").path(resource);
        }
        if (value.isMissingNode() || value.isNull()) {
            return fallback;
        }
        long parsed = milli ? Quantities.milli(value.asText()) : Quantities.whole(value.asText());
        return parsed;
    }

    public PodResources plus(PodResources other) {
        return new PodResources(milliCpu + other.milliCpu, memoryBytes + other.memoryBytes);
    }
}
