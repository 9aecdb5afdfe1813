package dev.drainboard.admission;

import java.util.Objects;

/**
 * What the eviction webhook is asked: may the pod {@code namespace/podName} be evicted. {@code dryRun} is
 * the AdmissionReview's {@code request.dryRun}: nothing the webhook writes for it may persist.
 * {@code byDescheduler}: the Eviction says the descheduler sent it ({@link
 * dev.drainboard.kubevirt.DeschedulerAnnotations#isDeschedulerEviction}).
 */
public record EvictionRequest(String namespace, String podName, boolean dryRun, boolean byDescheduler) {

    public EvictionRequest {
        Objects.requireNonNull(namespace, "namespace");
        Objects.requireNonNull(podName, "podName");
    }

    /** An eviction someone other than the descheduler asked for (kubectl drain, the console, an operator). */
    public EvictionRequest(String namespace, String podName, boolean dryRun) {
        this(namespace, podName, dryRun, false);
    }
}
