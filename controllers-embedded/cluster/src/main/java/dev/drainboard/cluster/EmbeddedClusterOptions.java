package dev.drainboard.cluster;

import dev.drainboard.cluster.apiserver.store.ObjectStore;
import dev.drainboard.cluster.hypervisor.SimulatedHypervisor;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;

/**
 * How to start an embedded cluster.
 *
 * @param scenario         "demo", a YAML file or a folder, or null for an empty cluster
 * @param port             HTTPS port on 127.0.0.1; 0 picks a free one
 * @param kubeconfigOut    where to write the kubeconfig; null for a file in a fresh temporary folder
 * @param contextName      the kubeconfig context (and cluster and user) name
 * @param watchLogCapacity how many changes watches can replay; older resourceVersions get 410 Gone
 * @param watchLogMaxBytes how many bytes of objects (as compact JSON) the change log may keep; the oldest changes
 *                         are compacted away first, as they are past the capacity
 * @param podStartDelay    how long a bound pod takes to run when it has no {@code sim.drainboard.dev/start-delay}
 * @param hypervisorTiming the simulated guests' default boot and shutdown times, the hypervisors' transfer tick and
 *                         progress interval
 * @param kubeVirtCrds     whether KubeVirt's CRDs (and Drainboard's own, its drain history) are served from the start (as on a cluster running KubeVirt)
 * @param timeScale        how many times faster than real time the simulated world runs (1: real time); written on
 *                         the KubeVirt CR as {@code drainboard.dev/time-scale} for the controllers (docs/embedded-cluster.md,
 *                         "Time scale")
 */
public record EmbeddedClusterOptions(String scenario, int port, Path kubeconfigOut, String contextName,
                                     int watchLogCapacity, long watchLogMaxBytes, Duration podStartDelay,
                                     SimulatedHypervisor.Timing hypervisorTiming, boolean kubeVirtCrds, double timeScale) {

    public static final int DEFAULT_WATCH_LOG_CAPACITY = ObjectStore.DEFAULT_LOG_CAPACITY;
    public static final long DEFAULT_WATCH_LOG_MAX_BYTES = ObjectStore.DEFAULT_LOG_MAX_BYTES;

    public EmbeddedClusterOptions {
        Objects.requireNonNull(podStartDelay);
        Objects.requireNonNull(hypervisorTiming);
        if (!(timeScale > 0) || timeScale > dev.drainboard.kubevirt.config.ClusterConfig.MAX_TIME_SCALE) {
            throw new IllegalArgumentException("time scale must be above 0 and at most "
                    + (long) dev.drainboard.kubevirt.config.ClusterConfig.MAX_TIME_SCALE + ", got " + timeScale);
        }
    }

    public static EmbeddedClusterOptions defaults() {
        return new EmbeddedClusterOptions(null, 0, null, "drainboard-embedded", DEFAULT_WATCH_LOG_CAPACITY,
                DEFAULT_WATCH_LOG_MAX_BYTES, Duration.ZERO, SimulatedHypervisor.Timing.defaults(), true, 1.0);
    }

    public EmbeddedClusterOptions withScenario(String s) {
        return new EmbeddedClusterOptions(s, port, kubeconfigOut, contextName, watchLogCapacity, watchLogMaxBytes, podStartDelay, hypervisorTiming, kubeVirtCrds, timeScale);
    }

    public EmbeddedClusterOptions withPort(int p) {
        return new EmbeddedClusterOptions(scenario, p, kubeconfigOut, contextName, watchLogCapacity, watchLogMaxBytes, podStartDelay, hypervisorTiming, kubeVirtCrds, timeScale);
    }

    public EmbeddedClusterOptions withKubeconfigOut(Path path) {
        return new EmbeddedClusterOptions(scenario, port, path, contextName, watchLogCapacity, watchLogMaxBytes, podStartDelay, hypervisorTiming, kubeVirtCrds, timeScale);
    }

    /** A small capacity lets tests reach "resourceVersion too old" quickly. */
    public EmbeddedClusterOptions withWatchLogCapacity(int capacity) {
        if (capacity < 1) {
            throw new IllegalArgumentException("watch log capacity must be at least 1, got " + capacity);
        }
        return new EmbeddedClusterOptions(scenario, port, kubeconfigOut, contextName, capacity, watchLogMaxBytes, podStartDelay, hypervisorTiming, kubeVirtCrds, timeScale);
    }

    /** A small byte budget lets tests see the log compacted by size rather than by count. */
    public EmbeddedClusterOptions withWatchLogMaxBytes(long maxBytes) {
        if (maxBytes < 1) {
            throw new IllegalArgumentException("watch log byte budget must be at least 1, got " + maxBytes);
        }
        return new EmbeddedClusterOptions(scenario, port, kubeconfigOut, contextName, watchLogCapacity, maxBytes, podStartDelay, hypervisorTiming, kubeVirtCrds, timeScale);
    }

    /** The cluster-wide pod start delay; a pod's {@code sim.drainboard.dev/start-delay} annotation overrides it. */
    public EmbeddedClusterOptions withPodStartDelay(Duration delay) {
        if (delay.isNegative()) {
            throw new IllegalArgumentException("pod start delay must not be negative, got " + delay);
        }
        return new EmbeddedClusterOptions(scenario, port, kubeconfigOut, contextName, watchLogCapacity, watchLogMaxBytes, delay, hypervisorTiming, kubeVirtCrds, timeScale);
    }

    /**
     * Default guest boot and ACPI shutdown times (a VMI's annotations override them), how often a live migration's
     * transfer advances and how often its progress is reported.
     */
    public EmbeddedClusterOptions withHypervisorTiming(SimulatedHypervisor.Timing timing) {
        return new EmbeddedClusterOptions(scenario, port, kubeconfigOut, contextName, watchLogCapacity, watchLogMaxBytes, podStartDelay, timing, kubeVirtCrds, timeScale);
    }

    /** A cluster without KubeVirt's CRDs, as a plain Kubernetes cluster is before KubeVirt is installed. */
    public EmbeddedClusterOptions withoutKubeVirtCrds() {
        return new EmbeddedClusterOptions(scenario, port, kubeconfigOut, contextName, watchLogCapacity, watchLogMaxBytes, podStartDelay, hypervisorTiming, false, timeScale);
    }

    /**
     * Runs the simulated world {@code scale} times faster than real time: boots, guest shutdowns, pod start and
     * shutdown delays, grace periods, live-migration transfers, and (through the KubeVirt CR's annotation) the
     * controllers' timeouts.
     */
    public EmbeddedClusterOptions withTimeScale(double scale) {
        return new EmbeddedClusterOptions(scenario, port, kubeconfigOut, contextName, watchLogCapacity, watchLogMaxBytes, podStartDelay, hypervisorTiming, kubeVirtCrds, scale);
    }
}
