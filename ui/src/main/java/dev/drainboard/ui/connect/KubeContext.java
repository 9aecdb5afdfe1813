package dev.drainboard.ui.connect;

/** One context of a kubeconfig, as the connect screen lists it. */
public record KubeContext(String name, String cluster, String user, String server, String namespace, boolean current) {

    /** The text the context search matches against. */
    public String searchText() {
        return String.join(" ", name, cluster, user, server, namespace).toLowerCase(java.util.Locale.ROOT);
    }
}
