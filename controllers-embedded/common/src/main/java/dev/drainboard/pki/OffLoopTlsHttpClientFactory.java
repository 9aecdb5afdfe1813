package dev.drainboard.pki;

import io.fabric8.kubernetes.client.vertx.VertxHttpClientFactory;
import io.vertx.core.net.JdkSSLEngineOptions;
import io.vertx.ext.web.client.WebClientOptions;

/**
 * fabric8's Vert.x HTTP client with the TLS handshake's heavy steps (certificate checks, signatures: the JDK engine's
 * delegated tasks) on Vert.x's worker pool instead of the event loop. Netty runs them on the event loop unless told
 * otherwise, and at a cold start (classes still loading, a loaded machine) one handshake held an event loop for more
 * than Vert.x's 2 s limit, which it reports as a blocked thread. Registered through
 * {@code META-INF/services/io.fabric8.kubernetes.client.http.HttpClient$Factory} with a higher priority than fabric8's
 * own factory, so every client built with {@code new KubernetesClientBuilder()} uses it.
 */
public class OffLoopTlsHttpClientFactory extends VertxHttpClientFactory {

    /** For {@code ServiceLoader}: each client gets its own Vert.x instance, closed with it (without waiting). */
    public OffLoopTlsHttpClientFactory() {
        super();
    }

    /** Clients on this Vert.x instance, which their owner closes (and may wait for) when done with them. */
    public OffLoopTlsHttpClientFactory(io.vertx.core.Vertx vertx) {
        super(vertx);
    }

    @Override
    public int priority() {
        return super.priority() + 1;
    }

    @Override
    protected void additionalConfig(WebClientOptions options) {
        super.additionalConfig(options);
        offLoop(options);
    }

    /**
     * Sets the worker-pool flag on the engine options fabric8 chose: they carry its SSL context (the cluster's CA, the
     * client certificate), so they are changed in place, never replaced.
     */
    static void offLoop(WebClientOptions options) {
        if (options.getSslEngineOptions() != null) {
            options.getSslEngineOptions().setUseWorkerThread(true);
        } else if (options.isSsl()) {
            options.setSslEngineOptions(new JdkSSLEngineOptions().setUseWorkerThread(true));
        }
    }
}
