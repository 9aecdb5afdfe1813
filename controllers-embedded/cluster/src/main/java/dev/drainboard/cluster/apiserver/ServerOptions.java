package dev.drainboard.cluster.apiserver;

/**
 * How the embedded API server behaves where a real cluster's depends on its other parts.
 *
 * @param gracefulPodDeletion   pods on a node get a deletionTimestamp and wait for their kubelet
 *                              (true once simulated kubelets run); false deletes pods at once
 * @param maxBodyBytes          larger request bodies get 413, as kube-apiserver's 3 MiB limit
 * @param bookmarkIntervalMillis how often watches that allow bookmarks get one
 */
public record ServerOptions(boolean gracefulPodDeletion, int maxBodyBytes, long bookmarkIntervalMillis) {

    public static ServerOptions defaults() {
        return new ServerOptions(true, 3 * 1024 * 1024, 10_000);
    }

    public ServerOptions withGracefulPodDeletion(boolean graceful) {
        return new ServerOptions(graceful, maxBodyBytes, bookmarkIntervalMillis);
    }
}
