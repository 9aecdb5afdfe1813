package dev.drainboard.app;

import dev.drainboard.controlplane.RedactingHttpClientFactory;
import dev.drainboard.pki.OffLoopTlsHttpClientFactory;
import dev.drainboard.controlplane.Kubeconfigs;
import dev.drainboard.ops.Ops;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import picocli.CommandLine.Option;

import java.nio.file.Path;

/** {@code --kubeconfig} and {@code --context}, shared by the operator commands, and the connection they make. */
final class ClusterOptions {

    @Option(names = "--kubeconfig", paramLabel = "FILE", required = true, description = "Kubeconfig of the cluster.")
    Path kubeconfig;

    @Option(names = "--context", paramLabel = "NAME", description = "Context of the kubeconfig (default: its current context).")
    String context;

    /** A problem the operator has to fix before the command can run; exit code 1. */
    static final class CannotConnect extends Exception {
        CannotConnect(String message) {
            super(message);
        }
    }

    /** Ops on the cluster, once the kubeconfig is usable and the API server answers. */
    Ops connect() throws CannotConnect {
        Config config;
        try {
            config = Kubeconfigs.load(kubeconfig, context);
        } catch (Kubeconfigs.InvalidKubeconfigException e) {
            throw new CannotConnect(e.getMessage());
        }
        Ops ops;
        try {
            // On a Vert.x instance Ops waits for when it closes: the command's exit then does not wait for it.
            ops = Ops.connect(new ConfigBuilder(config).withRequestTimeout(30_000).build(),
                    vertx -> RedactingHttpClientFactory.over(new OffLoopTlsHttpClientFactory(vertx)));
        } catch (KubernetesClientException e) {
            // fabric8 reads the client certificate and key only now.
            throw new CannotConnect("cannot use the credentials of kubeconfig " + kubeconfig + ": " + Kubeconfigs.safeMessage(e));
        }
        try {
            ops.client().getKubernetesVersion();
        } catch (KubernetesClientException e) {
            ops.close();
            throw new CannotConnect("cannot reach the cluster at " + config.getMasterUrl() + ": " + Kubeconfigs.rootMessage(e));
        }
        return ops;
    }
}
