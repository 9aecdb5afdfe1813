package dev.drainboard.cluster.apiserver.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.drainboard.cluster.apiserver.ApiServer;
import dev.drainboard.cluster.apiserver.ResourceRegistry;
import dev.drainboard.cluster.apiserver.ServerOptions;
import dev.drainboard.cluster.apiserver.store.ObjectStore;
import dev.drainboard.pki.CertificateAuthority;
import dev.drainboard.pki.TrustedClients;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;

import javax.net.ssl.SSLSocket;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * A client cannot hold the API server with a body it never sends, a connection it never uses, or a body larger
 * than the limit: raw TLS sockets, each read bounded, against a server whose timeouts are short.
 */
@DisplayName("the API server bounds bodies and idle connections")
class RequestLimitsTest {

    private static final Duration BODY_TIMEOUT = Duration.ofMillis(700);
    private static final Duration IDLE_TIMEOUT = Duration.ofMillis(700);
    /** Far beyond either timeout: a read that waits this long means nothing was enforced. */
    private static final int BOUNDED_READ_MILLIS = 15_000;
    private static final int MAX_BODY = 64 * 1024;
    private static final String TOKEN = "limits-test-token";
    private static final ObjectMapper JSON = new ObjectMapper();

    private static ApiServer api;
    private static ApiHttpServer http;
    private static CertificateAuthority ca;
    private static int port;

    @BeforeAll
    static void start() {
        api = new ApiServer(new ObjectStore(), new ResourceRegistry(), ServerOptions.defaults());
        ca = CertificateAuthority.generate("limits-test-ca");
        http = new ApiHttpServer(api, TOKEN, new RequestLimits(MAX_BODY, BODY_TIMEOUT, IDLE_TIMEOUT));
        port = http.start(0, ca.issueServerCertificate("apiserver", List.of("localhost"), List.of("127.0.0.1")));
    }

    @AfterAll
    static void stop() {
        http.close();
        api.close();
    }

    @Test
    @DisplayName("a request that announces a body and sends none is answered 504 Timeout and closed")
    void announcedBodyNeverSent() throws Exception {
        try (SSLSocket socket = connect()) {
            long started = System.nanoTime();
            send(socket, "POST /api/v1/namespaces/default/configmaps HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                    + "Authorization: Bearer " + TOKEN + "\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n");

            String answer = readUntilClosed(socket);
            long waitedMillis = (System.nanoTime() - started) / 1_000_000;

            assertThat(answer).startsWith("HTTP/1.1 504");
            JsonNode status = body(answer);
            assertThat(status.path("kind").asText()).isEqualTo("Status");
            assertThat(status.path("reason").asText()).isEqualTo("Timeout");
            assertThat(status.path("code").asInt()).isEqualTo(504);
            assertThat(status.path("message").asText())
                    .isEqualTo("Timeout: request did not complete within requested timeout - context deadline exceeded");
            assertThat(waitedMillis).isGreaterThanOrEqualTo(BODY_TIMEOUT.toMillis() - 50).isLessThan(BOUNDED_READ_MILLIS);
        }
    }

    @Test
    @DisplayName("a body that stops half-way is answered 504 Timeout and closed")
    void bodyStopsHalfWay() throws Exception {
        try (SSLSocket socket = connect()) {
            send(socket, "POST /api/v1/namespaces/default/configmaps HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                    + "Authorization: Bearer " + TOKEN + "\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n"
                    + "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",");

            assertThat(readUntilClosed(socket)).startsWith("HTTP/1.1 504");
        }
    }

    @Test
    @DisplayName("a keep-alive connection left idle after its response is closed")
    void idleKeepAliveClosed() throws Exception {
        try (SSLSocket socket = connect()) {
            send(socket, "GET /version HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");

            String answer = readUntilClosed(socket);

            assertThat(answer).startsWith("HTTP/1.1 200");
            assertThat(answer).contains("gitVersion");
        }
    }

    @Test
    @DisplayName("a connection that never sends a request is closed")
    void silentConnectionClosed() throws Exception {
        try (SSLSocket socket = connect()) {
            assertThat(readUntilClosed(socket)).isEmpty();
        }
    }

    @Test
    @DisplayName("a chunked body that grows past the limit is answered 413 while it streams")
    void oversizeChunkedBody() throws Exception {
        try (SSLSocket socket = connect()) {
            send(socket, "POST /api/v1/namespaces/default/configmaps HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                    + "Authorization: Bearer " + TOKEN + "\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n");
            String chunk = "x".repeat(16 * 1024);
            for (int i = 0; i < 5; i++) { // 80 KiB, never terminated: only the count can end it
                send(socket, Integer.toHexString(chunk.length()) + "\r\n" + chunk + "\r\n");
            }

            String answer = readUntilClosed(socket);

            assertThat(answer).startsWith("HTTP/1.1 413");
            JsonNode status = body(answer);
            assertThat(status.path("reason").asText()).isEqualTo("RequestEntityTooLarge");
            assertThat(status.path("message").asText()).isEqualTo("Request entity too large: limit is " + MAX_BODY);
        }
    }

    @Test
    @DisplayName("30 MiB announced and sent: 413 before the body is read, and the client gets to read it")
    void oversizeAnnouncedBody() throws Exception {
        try (SSLSocket socket = connect()) {
            int size = 30 * 1024 * 1024;
            send(socket, "POST /api/v1/namespaces/default/configmaps HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                    + "Authorization: Bearer " + TOKEN + "\r\nContent-Type: application/json\r\nContent-Length: "
                    + size + "\r\n\r\n");
            Thread.ofVirtual().start(() -> {
                byte[] piece = new byte[64 * 1024];
                try {
                    for (int sent = 0; sent < size; sent += piece.length) {
                        socket.getOutputStream().write(piece);
                    }
                } catch (IOException refused) {
                    // answered and closed: the rest is never read
                }
            });

            String answer = readUntilClosed(socket);

            assertThat(answer).startsWith("HTTP/1.1 413");
            assertThat(body(answer).path("code").asInt()).isEqualTo(413);
        }
    }

    @Test
    @DisplayName("a watch with nothing to send stays open beyond the idle timeout")
    void quietWatchStaysOpen() throws Exception {
        try (SSLSocket socket = connect()) {
            send(socket, "GET /api/v1/namespaces/quiet/configmaps?watch=true HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                    + "Authorization: Bearer " + TOKEN + "\r\n\r\n");
            InputStream in = socket.getInputStream();
            String headers = readHeaders(in);
            assertThat(headers).startsWith("HTTP/1.1 200");

            // Waiting on the socket (bounded) for three idle timeouts: nothing arrives and nobody closes it.
            socket.setSoTimeout((int) IDLE_TIMEOUT.toMillis() * 3);
            assertThatThrownBy(in::read).isInstanceOf(SocketTimeoutException.class);
        }
    }

    private static SSLSocket connect() throws IOException {
        SSLSocket socket = (SSLSocket) TrustedClients.trusting(ca.certificatePem()).getSocketFactory()
                .createSocket("127.0.0.1", port);
        socket.setSoTimeout(BOUNDED_READ_MILLIS);
        socket.startHandshake();
        return socket;
    }

    private static void send(SSLSocket socket, String text) throws IOException {
        OutputStream out = socket.getOutputStream();
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
            // an abrupt close after the answer: closed all the same
        }
        return all.toString(StandardCharsets.UTF_8);
    }

    private static String readHeaders(InputStream in) throws IOException {
        ByteArrayOutputStream headers = new ByteArrayOutputStream();
        while (!headers.toString(StandardCharsets.UTF_8).endsWith("\r\n\r\n")) {
            int b = in.read();
            if (b < 0) {
                break;
            }
            headers.write(b);
        }
        return headers.toString(StandardCharsets.UTF_8);
    }

    private static JsonNode body(String response) throws IOException {
        return JSON.readTree(response.substring(response.indexOf("\r\n\r\n") + 4));
    }
}
