package dev.drainboard.cluster.apiserver;

import com.fasterxml.jackson.databind.JsonNode;
import dev.drainboard.cluster.EmbeddedCluster;
import dev.drainboard.cluster.EmbeddedClusterOptions;
import dev.drainboard.pki.TrustedClients;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.BufferedReader;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.WebSocket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Many writes in a burst reach a watch as separate events, in commit order, whether the watch is
 * chunked HTTP (one JSON line per event) or WebSocket (one message per event) — also when the
 * server sends several queued events together.
 */
class WatchStreamFramingTest {

    private static final int WRITES = 200;
    private static EmbeddedCluster cluster;
    private static HttpClient http;

    @BeforeAll
    static void start() throws Exception {
        cluster = EmbeddedCluster.start(EmbeddedClusterOptions.defaults());
        http = HttpClient.newBuilder().sslContext(TrustedClients.trusting(cluster.caPem())).build();
        send("POST", "/api/v1/namespaces", "{\"metadata\":{\"name\":\"framing\"}}");
    }

    @AfterAll
    static void stop() {
        cluster.close();
    }

    @Test
    void aBurstOfWritesArrivesAsOrderedSeparateEventsOverChunkedHttpAndWebSocket() throws Exception {
        String watchPath = "/api/v1/namespaces/framing/configmaps?watch=true&resourceVersion=" + cluster.store().resourceVersion();
        List<String> chunkedLines = new CopyOnWriteArrayList<>();
        HttpResponse<InputStream> chunked = http.send(request(watchPath).GET().build(), HttpResponse.BodyHandlers.ofInputStream());
        Thread reader = Thread.ofVirtual().start(() -> {
            try (BufferedReader lines = new BufferedReader(new InputStreamReader(chunked.body(), StandardCharsets.UTF_8))) {
                String line;
                while ((line = lines.readLine()) != null) {
                    chunkedLines.add(line);
                }
            } catch (Exception closed) {
                // the test is over
            }
        });
        List<String> messages = new CopyOnWriteArrayList<>();
        WebSocket socket = http.newWebSocketBuilder()
                .header("Authorization", "Bearer " + cluster.token())
                .buildAsync(URI.create(cluster.url().replace("https:", "wss:") + watchPath), new WebSocket.Listener() {
                    private final StringBuilder partial = new StringBuilder();

                    @Override
                    public CompletionStage<?> onText(WebSocket webSocket, CharSequence data, boolean last) {
                        partial.append(data);
                        if (last) {
                            messages.add(partial.toString());
                            partial.setLength(0);
                        }
                        webSocket.request(1);
                        return null;
                    }
                }).get();

        List<Thread> writers = List.of(0, 1, 2, 3).stream().map(w -> Thread.ofVirtual().start(() -> {
            for (int i = w; i < WRITES; i += 4) {
                send("POST", "/api/v1/namespaces/framing/configmaps", "{\"metadata\":{\"name\":\"cm-" + i + "\"}}");
            }
        })).toList();
        for (Thread writer : writers) {
            writer.join();
        }

        await().atMost(Duration.ofSeconds(60)).until(() -> chunkedLines.size() >= WRITES && messages.size() >= WRITES);
        for (List<String> events : List.of(chunkedLines, messages)) {
            assertThat(events).hasSize(WRITES);
            long previous = 0;
            for (String event : events) {
                JsonNode parsed = Json.MAPPER.readTree(event);
                assertThat(parsed.path("type").asText()).isEqualTo("ADDED");
                long rv = Json.resourceVersion(parsed.path("object"));
                assertThat(rv).isGreaterThan(previous);
                previous = rv;
            }
        }
        socket.abort();
        chunked.body().close();
        reader.interrupt();
    }

    private static HttpRequest.Builder request(String path) {
        return HttpRequest.newBuilder(URI.create(cluster.url() + path))
                .header("Authorization", "Bearer " + cluster.token())
                .timeout(Duration.ofSeconds(60));
    }

    private static void send(String method, String path, String json) {
        try {
            HttpResponse<String> response = http.send(request(path).header("Content-Type", "application/json")
                    .method(method, HttpRequest.BodyPublishers.ofString(json)).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(response.statusCode()).as(response.body()).isEqualTo(201);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
