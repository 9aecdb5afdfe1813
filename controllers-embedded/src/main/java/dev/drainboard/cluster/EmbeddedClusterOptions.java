package dev.drainboard.cluster;

import java.nio.file.Path;

/**
 * How to start an embedded cluster.
 *
 * @param scenario       "demo", a YAML file or a folder, or null for an empty cluster
 * @param port           HTTPS port on 127.0.0.1; 0 picks a free one
 * @param kubeconfigOut  where to write the kubeconfig; null for a file in a fresh temporary folder
 * @param contextName    the kubeconfig context (and cluster and user) name
 */
public record EmbeddedClusterOptions(String scenario, int port, Path kubeconfigOut, String contextName) {

    public static EmbeddedClusterOptions defaults() {
        return new EmbeddedClusterOptions(null, 0, null, "drainboard-embedded");
    }

    public EmbeddedClusterOptions withScenario(String s) {
        return new EmbeddedClusterOptions(s, port, kubeconfigOut, contextName);
    }

    public EmbeddedClusterOptions withPort(int p) {
        return new EmbeddedClusterOptions(scenario, p, kubeconfigOut, contextName);
    }

    public EmbeddedClusterOptions withKubeconfigOut(Path path) {
        return new EmbeddedClusterOptions(scenario, port, path, contextName);
    }
}
