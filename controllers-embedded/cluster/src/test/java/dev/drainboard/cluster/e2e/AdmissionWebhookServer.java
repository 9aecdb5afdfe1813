package dev.drainboard.cluster.e2e;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsExchange;
import com.sun.net.httpserver.HttpsParameters;
import com.sun.net.httpserver.HttpsServer;
import dev.drainboard.pki.CaCertificates;
import dev.drainboard.pki.CertificateAuthority;
import dev.drainboard.pki.IssuedCertificate;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.X509Certificate;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;

/**
 * A validating admission webhook over HTTPS on 127.0.0.1 that denies every request with a fixed
 * code and message (or, to test the server's checks, allows it while answering with the wrong uid),
 * and keeps the AdmissionReviews it received.
 */
final class AdmissionWebhookServer implements AutoCloseable {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final char[] KEY_PASSWORD = "unused".toCharArray();

    private final CertificateAuthority ca = CertificateAuthority.generate("webhook-test-ca");
    private final HttpsServer server;
    private final List<JsonNode> reviews = new CopyOnWriteArrayList<>();
    private final List<X509Certificate> callers = new CopyOnWriteArrayList<>();
    private final int denialCode;
    private final String denialMessage;
    private volatile boolean allowWithWrongUid;
    private volatile long delayMillis;
    private final AtomicInteger inReview = new AtomicInteger();
    private final AtomicInteger mostInReview = new AtomicInteger();

    AdmissionWebhookServer(int denialCode, String denialMessage) throws IOException, GeneralSecurityException {
        this(denialCode, denialMessage, null);
    }

    /**
     * As {@link #AdmissionWebhookServer(int, String)}, refusing in the TLS handshake every caller without a client
     * certificate from {@code clientCaPem} (null: anyone).
     */
    AdmissionWebhookServer(int denialCode, String denialMessage, String clientCaPem) throws IOException, GeneralSecurityException {
        this.denialCode = denialCode;
        this.denialMessage = denialMessage;
        IssuedCertificate certificate = ca.issueServerCertificate("webhook", List.of(), List.of("127.0.0.1"));
        server = HttpsServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        if (clientCaPem == null) {
            server.setHttpsConfigurator(new HttpsConfigurator(sslContext(certificate)));
        } else {
            SSLContext context;
            try {
                context = CaCertificates.serverRequiringClientCertificates(certificate, CaCertificates.parse(clientCaPem));
            } catch (CaCertificates.InvalidCaException e) {
                throw new IllegalArgumentException(e.getMessage(), e);
            }
            server.setHttpsConfigurator(new HttpsConfigurator(context) {
                @Override
                public void configure(HttpsParameters params) {
                    SSLParameters parameters = getSSLContext().getDefaultSSLParameters();
                    parameters.setNeedClientAuth(true);
                    params.setSSLParameters(parameters);
                }
            });
        }
        server.createContext("/validate", this::review);
        server.setExecutor(Executors.newVirtualThreadPerTaskExecutor()); // reviews side by side, as a real webhook
        server.start();
    }

    String url() {
        return "https://127.0.0.1:" + server.getAddress().getPort() + "/validate";
    }

    /** The CA that signed the serving certificate, base64-encoded PEM as a webhook's caBundle wants it. */
    String caBundle() {
        return Base64.getEncoder().encodeToString(ca.certificatePem().getBytes(StandardCharsets.US_ASCII));
    }

    /** From now on, allow every request but answer with a uid that matches no request. */
    void allowWithWrongUid() {
        allowWithWrongUid = true;
    }

    /** The client certificates the reviews came with (a webhook that requires none may get none). */
    List<X509Certificate> callers() {
        return List.copyOf(callers);
    }

    List<JsonNode> reviews() {
        return List.copyOf(reviews);
    }

    /** From now on, take this long over each review (to see how many a client sends at once). */
    void answerAfter(long millis) {
        delayMillis = millis;
    }

    /** The most reviews this webhook was answering at the same time. */
    int mostAtOnce() {
        return mostInReview.get();
    }

    /** Stops answering: connections to {@link #url()} are refused from now on. */
    @Override
    public void close() {
        server.stop(0);
    }

    private void review(HttpExchange exchange) throws IOException {
        if (!"POST".equals(exchange.getRequestMethod())) {
            // Not a review (the API server opens its connection ahead of the first call): as a webhook server would.
            exchange.sendResponseHeaders(405, -1);
            exchange.close();
            return;
        }
        JsonNode review = JSON.readTree(exchange.getRequestBody());
        if (exchange instanceof HttpsExchange https) {
            try {
                callers.add(((X509Certificate) https.getSSLSession().getPeerCertificates()[0]));
            } catch (javax.net.ssl.SSLPeerUnverifiedException anonymous) {
                // no client certificate: nothing to record
            }
        }
        reviews.add(review);
        mostInReview.accumulateAndGet(inReview.incrementAndGet(), Math::max);
        try {
            if (delayMillis > 0) {
                Thread.sleep(delayMillis);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            inReview.decrementAndGet();
        }
        ObjectNode answer = JSON.createObjectNode();
        answer.put("apiVersion", review.path("apiVersion").asText());
        answer.put("kind", "AdmissionReview");
        ObjectNode response = answer.putObject("response");
        if (allowWithWrongUid) {
            response.put("uid", "not-the-request-uid");
            response.put("allowed", true);
        } else {
            response.put("uid", review.path("request").path("uid").asText());
            response.put("allowed", false);
            response.putObject("status").put("code", denialCode).put("message", denialMessage);
        }
        byte[] body = JSON.writeValueAsBytes(answer);
        exchange.getResponseHeaders().set("Content-Type", "application/json");
        exchange.sendResponseHeaders(200, body.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(body);
        }
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
}
