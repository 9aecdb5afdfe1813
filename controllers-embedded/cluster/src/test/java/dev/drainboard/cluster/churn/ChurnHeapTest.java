package dev.drainboard.cluster.churn;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.drainboard.pki.TrustedClients;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Creating and deleting large ConfigMaps stores nothing, so it must cost nothing lasting: against an embedded cluster
 * in a child JVM with {@code -Xmx768m} (where this churn once ended in {@code OutOfMemoryError}), with a watch reading
 * every event, the heap after a full GC stays bounded (the change log keeps at most {@code watchLogMaxBytes}, 64 MiB)
 * and {@code /healthz} answers.
 *
 * <p>CI runs {@value #DEFAULT_PAIRS} pairs twice (the second round shows nothing accumulates); the figure in docs/benchmarks.md comes from
 * {@code -Ddrainboard.churn.pairs=2000 -Ddrainboard.churn.rounds=4}.
 */
@DisplayName("create-and-delete churn of 100 KiB ConfigMaps leaves the heap bounded and the server answering")
class ChurnHeapTest {

    static final int DEFAULT_PAIRS = 2000;
    private static final int VALUE_BYTES = 100 * 1024;
    private static final int CLIENTS = 8;
    /**
     * What the churn may add to the heap after GC: the 64 MiB change log and room to spare. Before the change log
     * was bounded by bytes, 2,000 pairs added about 200 MB.
     */
    private static final long GROWTH_BOUND = 128L * 1024 * 1024;
    private static final long MIB = 1024 * 1024;

    @Test
    @Timeout(value = 10, unit = TimeUnit.MINUTES)
    @DisplayName("after the churn the used heap (after GC) has grown by less than 128 MiB and /healthz answers 200")
    void churnLeavesHeapBounded() throws Exception {
        int pairs = Integer.getInteger("drainboard.churn.pairs", DEFAULT_PAIRS);
        int rounds = Integer.getInteger("drainboard.churn.rounds", 2);
        Process child = startChild();
        try {
            BufferedReader out = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8));
            Writer in = new OutputStreamWriter(child.getOutputStream(), StandardCharsets.UTF_8);
            String[] ready = awaitLine(out, "READY ").split(" ");
            String url = ready[1];
            String token = ready[2];
            HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                    .sslContext(TrustedClients.trusting(Files.readString(Path.of(ready[3]))))
                    .connectTimeout(Duration.ofSeconds(10)).build();

            Heap before = heap(in, out);
            AtomicLong watched = new AtomicLong();
            // From a listed resourceVersion, as an informer watches: the churn's first changes are not lost to a
            // watch that is still being set up.
            String listed = http.send(request(url + "/api/v1/namespaces/default/configmaps", token).build(),
                    HttpResponse.BodyHandlers.ofString()).body();
            String resourceVersion = new com.fasterxml.jackson.databind.ObjectMapper().readTree(listed)
                    .path("metadata").path("resourceVersion").asText();
            assertThat(resourceVersion).isNotEmpty();
            Thread watcher = Thread.ofVirtual().start(() -> watch(http, url, token, resourceVersion, watched));
            String value = "x".repeat(VALUE_BYTES);
            long maxPeak = 0;
            long started = System.nanoTime();
            for (int round = 0; round < rounds; round++) {
                churn(http, url, token, round, pairs, value);
                Heap after = heap(in, out);
                maxPeak = Math.max(maxPeak, after.peak);
                System.out.printf("round %d: heap after GC %d MiB, peak %d MiB, change log %d changes %d MiB, watch events %d%n",
                        round + 1, after.used / MIB, after.peak / MIB, after.logChanges, after.logBytes / MIB, watched.get());
                assertThat(after.used - before.used).as("heap growth after GC, round %d", round + 1).isLessThan(GROWTH_BOUND);
                assertThat(after.logBytes).isLessThanOrEqualTo(64 * MIB);
            }
            Heap end = heap(in, out);
            System.out.printf("CHURN pairs=%d rounds=%d value=%d KiB clients=%d: heap after GC before %d MiB, after %d MiB,"
                            + " peak %d MiB (-Xmx768m), %.1f s%n", pairs, rounds, VALUE_BYTES / 1024, CLIENTS,
                    before.used / MIB, end.used / MIB, maxPeak / MIB, (System.nanoTime() - started) / 1e9);

            HttpResponse<String> healthz = http.send(HttpRequest.newBuilder(URI.create(url + "/healthz"))
                    .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(healthz.statusCode()).isEqualTo(200);
            assertThat(healthz.body()).isEqualTo("ok");
            // the watch saw every change: an ADDED and a DELETED per pair
            await().atMost(Duration.ofMinutes(1)).until(() -> watched.get() >= 2L * pairs * rounds);
            assertThat(child.isAlive()).isTrue();
            watcher.interrupt();
        } finally {
            child.destroy();
            if (!child.waitFor(30, TimeUnit.SECONDS)) {
                child.destroyForcibly();
            }
        }
    }

    private static Process startChild() throws IOException {
        String java = ProcessHandle.current().info().command().orElse("java");
        return new ProcessBuilder(java, "-Xmx768m", "-XX:+UseG1GC",
                "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn",
                "-cp", System.getProperty("java.class.path"), ChurnChild.class.getName())
                .redirectError(ProcessBuilder.Redirect.INHERIT)
                .start();
    }

    private static void churn(HttpClient http, String url, String token, int round, int pairs, String value) throws Exception {
        try (ExecutorService clients = Executors.newFixedThreadPool(CLIENTS, Thread.ofVirtual().factory())) {
            List<Future<?>> done = new ArrayList<>();
            for (int c = 0; c < CLIENTS; c++) {
                int client = c;
                done.add(clients.submit(() -> {
                    for (int i = client; i < pairs; i += CLIENTS) {
                        String name = "churn-" + round + "-" + i;
                        String body = "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"" + name
                                + "\"},\"data\":{\"payload\":\"" + value + "\"}}";
                        expect(http, request(url + "/api/v1/namespaces/default/configmaps", token)
                                .header("Content-Type", "application/json")
                                .POST(HttpRequest.BodyPublishers.ofString(body)), 201);
                        expect(http, request(url + "/api/v1/namespaces/default/configmaps/" + name, token).DELETE(), 200);
                    }
                    return null;
                }));
            }
            for (Future<?> f : done) {
                f.get();
            }
        }
    }

    private static void expect(HttpClient http, HttpRequest.Builder request, int code) throws Exception {
        HttpResponse<Void> response = http.send(request.build(), HttpResponse.BodyHandlers.discarding());
        if (response.statusCode() != code) {
            throw new AssertionError(request.build().method() + " " + request.build().uri() + ": " + response.statusCode());
        }
    }

    private static HttpRequest.Builder request(String url, String token) {
        return HttpRequest.newBuilder(URI.create(url)).header("Authorization", "Bearer " + token).timeout(Duration.ofSeconds(60));
    }

    /** Reads a watch on the namespace's ConfigMaps, counting events, as an informer would. */
    private static void watch(HttpClient http, String url, String token, String resourceVersion, AtomicLong events) {
        try {
            HttpResponse<InputStream> stream = http.send(request(url + "/api/v1/namespaces/default/configmaps?watch=true"
                            + "&resourceVersion=" + resourceVersion, token)
                    .timeout(Duration.ofHours(1)).build(), HttpResponse.BodyHandlers.ofInputStream());
            try (BufferedReader lines = new BufferedReader(new InputStreamReader(stream.body(), StandardCharsets.UTF_8))) {
                while (lines.readLine() != null) {
                    events.incrementAndGet();
                }
            }
        } catch (IOException | InterruptedException e) {
            // ended with the test
        }
    }

    private record Heap(long used, long peak, long logChanges, long logBytes) {
    }

    private static Heap heap(Writer in, BufferedReader out) throws IOException {
        in.write("heap\n");
        in.flush();
        String[] parts = awaitLine(out, "HEAP ").split(" ");
        return new Heap(Long.parseLong(parts[1]), Long.parseLong(parts[2]), Long.parseLong(parts[3]), Long.parseLong(parts[4]));
    }

    /** The child's next line with this prefix; its other lines are passed on. A dead child ends the stream. */
    private static String awaitLine(BufferedReader out, String prefix) throws IOException {
        for (String line; (line = out.readLine()) != null; ) {
            if (line.startsWith(prefix)) {
                return line;
            }
            System.out.println("child: " + line);
        }
        throw new AssertionError("the child JVM ended before printing " + prefix.trim());
    }
}
