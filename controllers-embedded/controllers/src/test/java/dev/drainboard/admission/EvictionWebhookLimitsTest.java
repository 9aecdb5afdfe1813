package dev.drainboard.admission;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.drainboard.kubevirt.api.VirtualMachineInstance;
import dev.drainboard.pki.TrustedClients;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;

import javax.net.ssl.SSLSocket;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The eviction webhook cannot be held by a body that never arrives nor fed one larger than an AdmissionReview can
 * be: raw TLS sockets with bounded reads against a server whose body read timeout is short.
 */
@DisplayName("eviction webhook server: 413 for oversize bodies, closed connection for bodies that never arrive")
class EvictionWebhookLimitsTest {

    private static final Duration BODY_TIMEOUT = Duration.ofMillis(700);
    /** Far beyond the timeout: a read that waits this long means nothing was enforced. */
    private static final int BOUNDED_READ_MILLIS = 15_000;
    private static final ObjectMapper JSON = new ObjectMapper();

    private static KubernetesClient client;
    /** The default body read timeout (10 s), so that megabytes over TLS on a loaded machine arrive in time. */
    private static EvictionWebhookServer webhook;
    private static EvictionWebhookServer impatient;

    @BeforeAll
    static void start() {
        // Never called: only registration talks to the API server, and these tests do not register.
        client = new KubernetesClientBuilder().withConfig(new ConfigBuilder().withMasterUrl("https://127.0.0.1:1").build()).build();
        webhook = EvictionWebhookServer.builder(client).cluster(new NoPods()).build();
        webhook.startServing();
        impatient = EvictionWebhookServer.builder(client).cluster(new NoPods()).bodyReadTimeout(BODY_TIMEOUT).build();
        impatient.startServing();
    }

    @AfterAll
    static void stop() {
        webhook.close();
        impatient.close();
        client.close();
    }

    @AfterEach
    void stillAnswersReviews() throws Exception {
        stillAnswers(webhook);
        stillAnswers(impatient);
    }

    private static void stillAnswers(EvictionWebhookServer webhook) throws Exception {
        HttpClient https = HttpClient.newBuilder().sslContext(TrustedClients.trusting(webhook.caPem())).build();
        HttpResponse<String> answer = https.send(HttpRequest.newBuilder(URI.create(webhook.url()))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(AdmissionReviewsTest.review("admission.k8s.io/v1", "u-1", false)))
                .build(), HttpResponse.BodyHandlers.ofString());
        assertThat(answer.statusCode()).isEqualTo(200);
        assertThat(JSON.readTree(answer.body()).path("response").path("uid").asText()).isEqualTo("u-1");
    }

    @Test
    @DisplayName("30 MiB announced and sent: 413 RequestEntityTooLarge with a Status")
    void thirtyMebibytes() throws Exception {
        long before = webhook.tooLarge();
        try (SSLSocket socket = connect(webhook)) {
            int size = 30 * 1024 * 1024;
            sendInBackground(socket, "POST /launcher-eviction-validate HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                    + "Content-Type: application/json\r\nContent-Length: " + size + "\r\n\r\n", size, false);

            String answer = readUntilClosed(socket);

            assertThat(answer).startsWith("HTTP/1.1 413");
            assertTooLargeStatus(answer);
        }
        assertThat(webhook.tooLarge() - before).isEqualTo(1);
    }

    @Test
    @DisplayName("a chunked body that grows past 3 MiB: 413 while it streams")
    void oversizeChunked() throws Exception {
        try (SSLSocket socket = connect(webhook)) {
            sendInBackground(socket, "POST /launcher-eviction-validate HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                    + "Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n", 8 * 1024 * 1024, true);

            String answer = readUntilClosed(socket);

            assertThat(answer).startsWith("HTTP/1.1 413");
            assertTooLargeStatus(answer);
        }
    }

    @Test
    @DisplayName("a request that announces a body and sends none: the connection is closed after the timeout")
    void announcedBodyNeverSent() throws Exception {
        long before = impatient.timedOut();
        try (SSLSocket socket = connect(impatient)) {
            long started = System.nanoTime();
            send(socket.getOutputStream(), "POST /launcher-eviction-validate HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                    + "Content-Type: application/json\r\nContent-Length: 100\r\n\r\n");

            String answer = readUntilClosed(socket);
            long waitedMillis = (System.nanoTime() - started) / 1_000_000;

            assertThat(answer).isEmpty();
            assertThat(waitedMillis).isGreaterThanOrEqualTo(BODY_TIMEOUT.toMillis() - 50).isLessThan(BOUNDED_READ_MILLIS);
        }
        await().atMost(Duration.ofSeconds(10)).until(() -> impatient.timedOut() - before == 1);
    }

    private static void assertTooLargeStatus(String answer) throws IOException {
        JsonNode status = JSON.readTree(answer.substring(answer.indexOf("\r\n\r\n") + 4));
        assertThat(status.path("kind").asText()).isEqualTo("Status");
        assertThat(status.path("code").asInt()).isEqualTo(413);
        assertThat(status.path("reason").asText()).isEqualTo("RequestEntityTooLarge");
        assertThat(status.path("message").asText()).isEqualTo("Request entity too large: limit is 3145728");
    }

    private static SSLSocket connect(EvictionWebhookServer webhook) throws IOException {
        URI url = URI.create(webhook.url());
        SSLSocket socket = (SSLSocket) TrustedClients.trusting(webhook.caPem()).getSocketFactory()
                .createSocket(url.getHost(), url.getPort());
        socket.setSoTimeout(BOUNDED_READ_MILLIS);
        socket.startHandshake();
        return socket;
    }

    /** Writes the headers, then up to {@code bodyBytes} of body until the server stops taking it. */
    private static void sendInBackground(SSLSocket socket, String headers, int bodyBytes, boolean chunked) {
        Thread.ofVirtual().start(() -> {
            try {
                OutputStream out = socket.getOutputStream();
                send(out, headers);
                byte[] piece = new byte[64 * 1024];
                Arrays.fill(piece, (byte) ' ');
                for (int sent = 0; sent < bodyBytes; sent += piece.length) {
                    if (chunked) {
                        send(out, Integer.toHexString(piece.length) + "\r\n");
                    }
                    out.write(piece);
                    if (chunked) {
                        send(out, "\r\n");
                    }
                }
                out.flush();
            } catch (IOException refused) {
                // the server has answered and closed: the rest is never read
            }
        });
    }

    private static void send(OutputStream out, String text) throws IOException {
        out.write(text.getBytes(StandardCharsets.UTF_8));
        out.flush();
    }

    /** Everything the server sends until it closes; a SocketTimeoutException fails the test. */
    private static String readUntilClosed(SSLSocket socket) throws IOException {
        ByteArrayOutputStream all = new ByteArrayOutputStream();
        InputStream in = socket.getInputStream();
        byte[] buffer = new byte[8192];
        try {
            for (int n; (n = in.read(buffer)) >= 0; ) {
                all.write(buffer, 0, n);
            }
        } catch (javax.net.ssl.SSLException | java.net.SocketException closed) {
            // an abrupt close: closed all the same
        }
        return all.toString(StandardCharsets.UTF_8);
    }

    /** A cluster without the pod: the eviction is none of KubeVirt's business and is allowed. */
    private static final class NoPods implements AdmissionCluster {
        @Override
        public Pod pod(String namespace, String name) {
            return null;
        }

        @Override
        public Source<VirtualMachineInstance> vmi(String namespace, String name, boolean live) {
            return new Source<>(null, false);
        }

        @Override
        public void mark(MarkForEvacuation mark) {
        }
    }
}
