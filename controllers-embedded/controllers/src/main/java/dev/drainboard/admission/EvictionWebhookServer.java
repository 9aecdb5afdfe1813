package dev.drainboard.admission;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsParameters;
import com.sun.net.httpserver.HttpsServer;
import dev.drainboard.pki.CaCertificates;
import dev.drainboard.pki.CertificateAuthority;
import dev.drainboard.pki.IssuedCertificate;
import dev.drainboard.kubevirt.api.VirtualMachineInstance;
import dev.drainboard.kubevirt.KubeVirtValues;
import dev.drainboard.kubevirt.config.ClusterConfig;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.X509Certificate;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Supplier;

/**
 * KubeVirt's launcher eviction webhook, served by Drainboard: HTTPS with a certificate from its own
 * certificate authority (generated at construction; subject alternative name the advertised host), AdmissionReview
 * v1 and v1beta1 at {@value WebhookRegistration#PATH}, and the {@code virt-api-validator} configuration that makes
 * the API server call it.
 *
 * <pre>{@code
 * EvictionWebhookServer webhook = EvictionWebhookServer.builder(client)
 *         .clusterConfig(plane.clusterConfig()::current)
 *         .vmiCache(informers.vmis()).podCache(informers.pods())
 *         .build();
 * webhook.start();   // serves, then registers the configuration
 * ...
 * webhook.close();   // stops serving; the configuration stays (failurePolicy Ignore: harmless)
 * }</pre>
 *
 * <p>Stopping leaves the configuration in place on purpose: with {@code failurePolicy: Ignore} the API server
 * lets evictions through to the PodDisruptionBudgets while nobody answers, which is why it fails open
 * (docs/behaviour.md, "Eviction webhook").
 * {@link #removeRegistration()} takes it out for good.
 *
 * <p>With {@link Builder#callers} naming a CA, only callers presenting a TLS client certificate from it get through
 * the handshake (the API server's webhook client certificate); by default anyone who connects is answered.
 *
 * <p>Requests that are no AdmissionReview for a pod eviction are answered 400 and logged; bodies over 3 MiB 413;
 * a body that has not arrived within the body read timeout (the API server's {@code timeoutSeconds}, 10 s) closes
 * the connection; nothing a client sends stops the server. Each request runs on its own virtual thread.
 */
public final class EvictionWebhookServer implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(EvictionWebhookServer.class);
    /** kube-apiserver's own limit on request bodies; an Eviction review is a few kilobytes. */
    static final int MAX_BODY_BYTES = 3 * 1024 * 1024;
    private static final Duration LINGER = Duration.ofMillis(500);
    private static final char[] KEY_PASSWORD = "in-memory".toCharArray();

    private final KubernetesClient client;
    private final EvictionAdmission admission;
    private final Supplier<ClusterConfig> clusterConfig;
    private volatile dev.drainboard.kubevirt.KubeVirtProfile registeredProfile;
    private final String bindAddress;
    private final String advertisedHost;
    private final int requestedPort;
    private final CertificateAuthority ca;
    private final IssuedCertificate serving;
    private final WebhookCallers callers;
    private final LongAdder answered = new LongAdder();
    private final LongAdder malformed = new LongAdder();
    private final LongAdder tooLarge = new LongAdder();
    private final LongAdder timedOut = new LongAdder();
    private final Duration bodyReadTimeout;

    private HttpsServer server;
    private ExecutorService executor;
    private ScheduledExecutorService deadlines;

    private EvictionWebhookServer(Builder b) {
        this.client = b.client;
        this.bindAddress = b.bindAddress;
        this.advertisedHost = b.advertisedHost;
        this.requestedPort = b.port;
        this.callers = b.callers;
        this.bodyReadTimeout = b.bodyReadTimeout;
        AdmissionCluster cluster = b.cluster != null ? b.cluster : new ApiAdmissionCluster(b.client, b.vmis, b.pods);
        this.admission = new EvictionAdmission(cluster, b.clusterConfig);
        this.clusterConfig = b.clusterConfig;
        this.ca = CertificateAuthority.generate("drainboard-eviction-webhook-ca");
        boolean ip = advertisedHost.chars().allMatch(c -> Character.isDigit(c) || c == '.') || advertisedHost.contains(":");
        this.serving = ca.issueServerCertificate("drainboard-eviction-webhook",
                ip ? List.of() : List.of(advertisedHost), ip ? List.of(advertisedHost) : List.of());
    }

    public static Builder builder(KubernetesClient client) {
        return new Builder(client);
    }

    /** Serves, then registers the webhook configuration pointing here. */
    public synchronized void start() {
        startServing();
        register();
    }

    /** Opens the HTTPS port (no registration); a second call does nothing. */
    public synchronized void startServing() {
        if (server != null) {
            return;
        }
        try {
            List<X509Certificate> clientCas = callers.resolve(client);
            HttpsServer s = HttpsServer.create(new InetSocketAddress(InetAddress.getByName(bindAddress), requestedPort), 128);
            s.setHttpsConfigurator(clientCas.isEmpty() ? new HttpsConfigurator(sslContext(serving))
                    : requiringClientCertificates(CaCertificates.serverRequiringClientCertificates(serving, clientCas)));
            s.createContext(WebhookRegistration.PATH, this::handle);
            executor = Executors.newVirtualThreadPerTaskExecutor();
            deadlines = Executors.newSingleThreadScheduledExecutor(Thread.ofPlatform().daemon().name("eviction-webhook-deadlines").factory());
            s.setExecutor(executor);
            s.start();
            server = s;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot serve the eviction webhook on " + bindAddress + ":" + requestedPort, e);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("cannot set up TLS for the eviction webhook", e);
        }
        if (callers.authenticated()) {
            LOG.info("eviction webhook serving at {}; callers need a TLS client certificate from {}", url(), callers.origin());
        } else {
            LOG.warn("eviction webhook serving at {}: {}", url(), WebhookCallers.unauthenticatedWarning(bindAddress));
        }
    }

    /**
     * The TLS handshake itself refuses a caller without a certificate from the trusted CAs, before a byte of HTTP is
     * read: nothing a forged review says is ever looked at. The API server sees a failed call, as with any TLS error.
     */
    private static HttpsConfigurator requiringClientCertificates(SSLContext context) {
        return new HttpsConfigurator(context) {
            @Override
            public void configure(HttpsParameters params) {
                SSLParameters parameters = getSSLContext().getDefaultSSLParameters();
                parameters.setNeedClientAuth(true);
                params.setSSLParameters(parameters);
            }
        };
    }

    /** Creates or updates {@code virt-api-validator} so the API server calls this server. Needs {@link #startServing()}. */
    public void register() {
        var profile = clusterConfig.get().profile();
        WebhookRegistration.register(client, WebhookRegistration.webhook(url(), caPem(), profile));
        registeredProfile = profile;
        LOG.info("registered {} in ValidatingWebhookConfiguration {} at {} as {} does", WebhookRegistration.WEBHOOK_NAME,
                WebhookRegistration.CONFIGURATION_NAME, url(), profile.label());
    }

    /** Registers again when the cluster's profile changed what the registration says (failure policy, match condition). */
    public synchronized void profileChanged() {
        if (server != null && registeredProfile != null
                && registeredProfile.webhookFailsClosed() != clusterConfig.get().profile().webhookFailsClosed()) {
            register();
        }
    }

    /** Takes the webhook out of the cluster's configuration (the server keeps running until {@link #stop()}). */
    public void removeRegistration() {
        WebhookRegistration.remove(client);
    }

    /** Stops serving. The configuration stays registered: evictions then pass on to the PDBs (failurePolicy Ignore). */
    public synchronized void stop() {
        if (server == null) {
            return;
        }
        server.stop(0);
        executor.shutdownNow();
        deadlines.shutdownNow();
        server = null;
        executor = null;
        deadlines = null;
        LOG.info("eviction webhook stopped");
    }

    @Override
    public void close() {
        stop();
    }

    public synchronized boolean isServing() {
        return server != null;
    }

    /** {@code https://<advertised host>:<port>/launcher-eviction-validate}. */
    public synchronized String url() {
        if (server == null) {
            throw new IllegalStateException("the eviction webhook is not serving");
        }
        String host = advertisedHost.contains(":") ? "[" + advertisedHost + "]" : advertisedHost;
        return "https://" + host + ":" + server.getAddress().getPort() + WebhookRegistration.PATH;
    }

    /** Whom this webhook answers. */
    public WebhookCallers callers() {
        return callers;
    }

    /** The address it listens on (e.g. {@code 0.0.0.0}). */
    public String bindAddress() {
        return bindAddress;
    }

    /** The CA certificate (PEM) that signed the serving certificate: what a client must trust. */
    public String caPem() {
        return ca.certificatePem();
    }

    /** Reviews answered (allowed or denied) since construction. */
    public long answered() {
        return answered.sum();
    }

    /** Requests refused with 400 since construction. */
    public long malformed() {
        return malformed.sum();
    }

    /** Requests refused with 413 (body over 3 MiB) since construction. */
    public long tooLarge() {
        return tooLarge.sum();
    }

    /** Connections closed because their request's body did not arrive in time, since construction. */
    public long timedOut() {
        return timedOut.sum();
    }

    /** The decision for one eviction, without HTTP (the drain preview asks the same question). */
    public EvictionDecision admit(EvictionRequest request) {
        return admission.admit(request);
    }

    private void handle(HttpExchange exchange) {
        // Until the body is in, the client sets the pace: past the deadline the reading thread is interrupted,
        // which closes the connection under it (a blocking SocketChannel read is interruptible). The deadline also
        // covers the refusals, whose close drains what is left of an unread body.
        BodyDeadline deadline = new BodyDeadline(Thread.currentThread());
        deadline.arm(deadlines, bodyReadTimeout);
        try (exchange) {
            handleArmed(exchange, deadline);
        } finally {
            deadline.disarm();
        }
    }

    private void handleArmed(HttpExchange exchange, BodyDeadline deadline) {
        try {
            if (!"POST".equals(exchange.getRequestMethod())) {
                exchange.getResponseHeaders().set("Allow", "POST");
                exchange.getResponseHeaders().set("Connection", "close");
                reply(exchange, 405, "only POST is served here");
                return;
            }
            if (announcedLength(exchange) > MAX_BODY_BYTES) {
                refuseTooLarge(exchange);
                return;
            }
            // Read the body first, whatever the verdict: an unread body left on a keep-alive connection
            // would be taken for the next request.
            byte[] body = readBody(exchange.getRequestBody());
            if (body == null) {
                refuseTooLarge(exchange);
                return;
            }
            deadline.disarm();
            if (deadline.fired()) {
                throw new IOException("the request body did not arrive within " + bodyReadTimeout);
            }
            String contentType = exchange.getRequestHeaders().getFirst("Content-Type");
            if (contentType == null || !contentType.toLowerCase(Locale.ROOT).startsWith("application/json")) {
                reject(exchange, "contentType=" + contentType + ", expected application/json");
                return;
            }
            AdmissionReviews.Review review;
            try {
                review = AdmissionReviews.parse(body);
            } catch (AdmissionReviews.MalformedReviewException e) {
                reject(exchange, e.getMessage());
                return;
            }
            EvictionDecision decision = admission.admit(review.eviction());
            byte[] answer = AdmissionReviews.answer(review, decision);
            exchange.getResponseHeaders().set("Content-Type", "application/json");
            exchange.sendResponseHeaders(200, answer.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(answer);
            }
            answered.increment();
        } catch (IOException e) {
            if (deadline.fired()) {
                timedOut.increment();
                LOG.warn("eviction webhook: closed the connection from {}: its request body did not arrive within {}",
                        exchange.getRemoteAddress(), bodyReadTimeout);
                return;
            }
            LOG.debug("eviction webhook: connection lost: {}", e.toString());
        } catch (RuntimeException e) {
            // A bug in one request must not take the server down; the API server then ignores the webhook.
            LOG.error("eviction webhook: request failed", e);
        }
    }

    private void reject(HttpExchange exchange, String why) throws IOException {
        malformed.increment();
        LOG.warn("eviction webhook: bad request from {}: {}", exchange.getRemoteAddress(), why);
        reply(exchange, 400, why);
    }

    /**
     * 413 with a Status as kube-apiserver answers (k8s.io/apiserver pkg/endpoints/handlers/rest.go, limitedReadBody);
     * the rest of the body is not read, so the connection closes after the answer.
     */
    private void refuseTooLarge(HttpExchange exchange) throws IOException {
        tooLarge.increment();
        LOG.warn("eviction webhook: request body from {} larger than {} bytes", exchange.getRemoteAddress(), MAX_BODY_BYTES);
        String message = "Request entity too large: limit is " + MAX_BODY_BYTES;
        byte[] status = ("{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"metadata\":{},\"status\":\"Failure\","
                + "\"message\":\"" + message + "\",\"reason\":\"RequestEntityTooLarge\",\"code\":413}")
                .getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", "application/json");
        exchange.getResponseHeaders().set("Connection", "close");
        exchange.sendResponseHeaders(413, status.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(status);
            out.flush(); // on the wire now; closing the body would close the connection ("Connection: close")
            lingerBeforeClose(exchange.getRequestBody());
        }
    }

    /**
     * Closing a connection whose client is still sending makes the kernel answer with a reset, which can destroy
     * the answer before the client has read it; so what follows is read and thrown away a little longer, as Go's
     * server waits before it closes such a connection (net/http server.go, rstAvoidanceDelay, 500 ms).
     */
    private static void lingerBeforeClose(InputStream rest) {
        long until = System.nanoTime() + LINGER.toNanos();
        byte[] discard = new byte[64 * 1024];
        try {
            while (System.nanoTime() < until && rest.read(discard) >= 0) {
                // discarded
            }
        } catch (IOException e) {
            // the client is gone, or the body deadline has closed the connection
        }
    }

    private static long announcedLength(HttpExchange exchange) {
        String length = exchange.getRequestHeaders().getFirst("Content-Length");
        try {
            return length == null ? -1 : Long.parseLong(length.trim());
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    /** Interrupts the handler's thread once, if still armed when the time is up. */
    private static final class BodyDeadline {
        private final Thread reader;
        private boolean armed;
        private boolean fired;
        private ScheduledFuture<?> task;

        BodyDeadline(Thread reader) {
            this.reader = reader;
        }

        synchronized void arm(ScheduledExecutorService scheduler, Duration timeout) {
            armed = true;
            task = scheduler.schedule(this::fire, timeout.toMillis(), TimeUnit.MILLISECONDS);
        }

        private synchronized void fire() {
            if (armed) {
                armed = false;
                fired = true;
                reader.interrupt();
            }
        }

        /** After this returns, no interrupt can arrive; one that did is cleared (fired() tells). */
        synchronized void disarm() {
            if (task != null) {
                task.cancel(false);
            }
            armed = false;
            if (fired && Thread.currentThread() == reader) {
                Thread.interrupted();
            }
        }

        synchronized boolean fired() {
            return fired;
        }
    }

    private static void reply(HttpExchange exchange, int code, String text) throws IOException {
        byte[] bytes = (text + "\n").getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", "text/plain; charset=utf-8");
        exchange.sendResponseHeaders(code, bytes.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(bytes);
        }
    }

    /** The body, or null when it is larger than allowed. */
    private static byte[] readBody(InputStream in) throws IOException {
        byte[] bytes = in.readNBytes(MAX_BODY_BYTES + 1);
        return bytes.length > MAX_BODY_BYTES ? null : bytes;
    }

    private static SSLContext sslContext(IssuedCertificate issued) throws IOException, GeneralSecurityException {
        KeyStore keys = KeyStore.getInstance("PKCS12");
        keys.load(null, null);
        keys.setKeyEntry("webhook", issued.privateKey(), KEY_PASSWORD, new X509Certificate[] {issued.certificate(), issued.issuer()});
        KeyManagerFactory factory = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        factory.init(keys, KEY_PASSWORD);
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(factory.getKeyManagers(), null, null);
        return context;
    }

    public static final class Builder {
        private final KubernetesClient client;
        private Supplier<ClusterConfig> clusterConfig = ClusterConfig::defaults;
        private SharedIndexInformer<VirtualMachineInstance> vmis;
        private SharedIndexInformer<Pod> pods;
        private AdmissionCluster cluster;
        private String bindAddress = "127.0.0.1";
        private String advertisedHost = "127.0.0.1";
        private int port;
        private WebhookCallers callers = WebhookCallers.anyone();
        private Duration bodyReadTimeout = Duration.ofSeconds(KubeVirtValues.WEBHOOK_TIMEOUT_SECONDS);

        private Builder(KubernetesClient client) {
            this.client = Objects.requireNonNull(client, "client");
        }

        /** The cluster configuration in force, e.g. {@code clusterConfigSource::current} (default: KubeVirt's defaults). */
        public Builder clusterConfig(Supplier<ClusterConfig> config) {
            this.clusterConfig = Objects.requireNonNull(config);
            return this;
        }

        /** Read VMIs from this informer (all namespaces) instead of a GET per eviction. */
        public Builder vmiCache(SharedIndexInformer<VirtualMachineInstance> informer) {
            this.vmis = informer;
            return this;
        }

        /** Read pods from this informer instead of a GET per eviction (pods missing from it are still read). */
        public Builder podCache(SharedIndexInformer<Pod> informer) {
            this.pods = informer;
            return this;
        }

        /** Reads and writes through this instead of the client (tests, benchmarks). */
        public Builder cluster(AdmissionCluster cluster) {
            this.cluster = cluster;
            return this;
        }

        /** Address to listen on (default {@code 127.0.0.1}). */
        public Builder bindAddress(String address) {
            this.bindAddress = Objects.requireNonNull(address);
            return this;
        }

        /** Host name or IP the API server reaches this server by: the URL's host and the certificate's SAN. */
        public Builder advertisedHost(String host) {
            this.advertisedHost = Objects.requireNonNull(host);
            return this;
        }

        /** Port to listen on; 0 (the default) picks a free one. */
        public Builder port(int port) {
            this.port = port;
            return this;
        }

        /** Whom to answer (default: anyone who connects; see {@link WebhookCallers}). */
        public Builder callers(WebhookCallers callers) {
            this.callers = Objects.requireNonNull(callers);
            return this;
        }

        /**
         * How long a request's body may take to arrive; then the connection is closed. Default: the API server's
         * {@code timeoutSeconds} for this webhook (10 s), after which it has given up on the answer anyway.
         */
        public Builder bodyReadTimeout(Duration timeout) {
            if (timeout.isNegative() || timeout.isZero()) {
                throw new IllegalArgumentException("bodyReadTimeout must be positive: " + timeout);
            }
            this.bodyReadTimeout = timeout;
            return this;
        }

        public EvictionWebhookServer build() {
            return new EvictionWebhookServer(this);
        }
    }
}
