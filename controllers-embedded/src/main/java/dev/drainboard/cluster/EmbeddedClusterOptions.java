package dev.drainboard.cluster;

import dev.drainboard.cluster.apiserver.store.ObjectStore;

import java.nio.file.Path;

/**
 * How to start an embedded cluster.
 *
 * @param scenario       "demo", a YAML file or a folder, or null for an empty cluster
 * @param port           HTTPS port on 127.0.0.1; 0 picks a free one
 * @param kubeconfigOut  where to write the kubeconfig; null for a file in a fresh temporary folder
 * @param contextName    the kubeconfig context (and cluster and user) name
 * @param watchLogCapacity how many changes watches can replay; older resourceVersions get 410 Gone
 */
public record EmbeddedClusterOptions(String scenario, int port, Path kubeconfigOut, String contextName,
                                     int watchLogCapacity) {

    public static final int DEFAULT_WATCH_LOG_CAPACITY = ObjectStore.DEFAULT_LOG_CAPACITY;

    public static EmbeddedClusterOptions defaults() {
        return new EmbeddedClusterOptions(null, 0, null, "drainboard-embedded", DEFAULT_WATCH_LOG_CAPACITY);
    }

    public EmbeddedClusterOptions withScenario(String s) {
        return new EmbeddedClusterOptions(s, port, kubeconfigOut, contextName, watchLogCapacity);
    }

    public EmbeddedClusterOptions withPort(int p) {
        return new EmbeddedClusterOptions(scenario, p, kubeconfigOut, contextName, watchLogCapacity);
    }

    public EmbeddedClusterOptions withKubeconfigOut(Path path) {
        return new EmbeddedClusterOptions(scenario, port, path, contextName, watchLogCapacity);
    }

    /** A small capacity lets tests reach "resourceVersion too old" quickly. */
    public EmbeddedClusterOptions withWatchLogCapacity(int capacity) {
        if (capacity < 1) {
            throw new IllegalArgumentException("watch log capacity must be at least 1, got " + capacity);
        }
        return new EmbeddedClusterOptions(scenario, port, kubeconfigOut, contextName, capacity);
    }
}
