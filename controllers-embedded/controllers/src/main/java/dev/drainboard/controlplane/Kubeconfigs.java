package dev.drainboard.controlplane;

import io.fabric8.kubernetes.api.model.NamedContext;
import io.fabric8.kubernetes.client.Config;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/** Loads a client configuration from a kubeconfig file, refusing what fabric8 would quietly paper over. */
public final class Kubeconfigs {

    /** The kubeconfig cannot be used; the message says why, for the operator. */
    public static final class InvalidKubeconfigException extends Exception {
        public InvalidKubeconfigException(String message) {
            super(message);
        }
    }

    private Kubeconfigs() {
    }

    /**
     * @param context a context of the file, or null for its current context
     */
    public static Config load(Path kubeconfig, String context) throws InvalidKubeconfigException {
        if (!Files.isReadable(kubeconfig)) {
            throw new InvalidKubeconfigException("cannot read kubeconfig " + kubeconfig);
        }
        Config config;
        try {
            config = Config.fromKubeconfig(context, kubeconfig.toFile());
        } catch (RuntimeException e) {
            throw new InvalidKubeconfigException("cannot use kubeconfig " + kubeconfig + ": " + rootMessage(e));
        }
        // fabric8 falls back to the current context for an unknown name: never run against the wrong cluster.
        String used = config.getCurrentContext() == null ? null : config.getCurrentContext().getName();
        if (context != null && !context.equals(used)) {
            List<String> known = config.getContexts() == null ? List.of()
                    : config.getContexts().stream().map(NamedContext::getName).toList();
            throw new InvalidKubeconfigException("kubeconfig " + kubeconfig + " has no context \"" + context + "\""
                    + (known.isEmpty() ? "" : " (it has: " + String.join(", ", known) + ")"));
        }
        if (config.getMasterUrl() == null || config.getMasterUrl().isBlank()) {
            throw new InvalidKubeconfigException("kubeconfig " + kubeconfig + " names no cluster server");
        }
        return config;
    }

    public static String rootMessage(Throwable e) {
        Throwable t = e;
        while (t.getCause() != null && t.getCause() != t) {
            t = t.getCause();
        }
        return t == e ? String.valueOf(e.getMessage()) : e.getMessage() + " (" + t.getMessage() + ")";
    }
}
