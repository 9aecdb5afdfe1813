package dev.drainboard.admission;

import java.util.Objects;

/**
 * What the eviction webhook is asked: may the pod {@code namespace/podName} be evicted. {@code dryRun} is
 * the AdmissionReview's {@code request.dryRun}: nothing the webhook writes for it may persist.
 */
public record EvictionRequest(String namespace, String podName, boolean dryRun) {

    public EvictionRequest {
        Objects.requireNonNull(namespace, "namespace");
        Objects.requireNonNull(podName, "podName");
    }
}
