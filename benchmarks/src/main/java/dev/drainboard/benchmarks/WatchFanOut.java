package dev.drainboard.benchmarks;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * Measures how long one write takes to reach every one of several watchers of the same object.
 *
 * <p>Each watcher is its own HTTP client with a chunked watch of one ConfigMap (by field selector)
 * and a thread that reads the stream line by line, parses each event and notes when the write with
 * a given sequence number (the ConfigMap's {@code data.seq}) arrived. The writer sends merge patches
 * one at a time: the clock starts just before a patch is sent and stops when the last watcher has
 * that event; the next write waits until then (plus a short pause), so writes never queue up.
 */
final class WatchFanOut implements AutoCloseable {

    static final String NAMESPACE = "bench-watch";
    static final String NAME = "watched";
    private static final ObjectMapper MAPPER = new ObjectMapper();

    private final int watchers;
    private final long[][] arrivals;
    private final CountDownLatch[] delivered;
    private final List<InputStream> streams = new ArrayList<>();
    private final List<Thread> readers = new ArrayList<>();

    /**
     * Opens the watches from the ConfigMap's current resourceVersion.
     *
     * @param clients one client per watcher (so that no watcher shares a connection or selector)
     * @param writes  the highest sequence number that will be written
     */
    WatchFanOut(Supplier<ApiClient> clients, int watchers, String fromResourceVersion, int writes) {
        this.watchers = watchers;
        this.arrivals = new long[watchers][writes + 1];
        this.delivered = new CountDownLatch[writes + 1];
        for (int i = 0; i <= writes; i++) {
            delivered[i] = new CountDownLatch(watchers);
        }
        String path = "/api/v1/namespaces/" + NAMESPACE + "/configmaps?watch=true&fieldSelector=metadata.name%3D" + NAME
                + "&resourceVersion=" + fromResourceVersion;
        for (int w = 0; w < watchers; w++) {
            InputStream stream = clients.get().stream(path);
            streams.add(stream);
            int watcher = w;
            readers.add(Thread.ofPlatform().daemon().name("bench-watcher-" + w).start(() -> read(watcher, stream)));
        }
    }

    private void read(int watcher, InputStream stream) {
        try (BufferedReader lines = new BufferedReader(new InputStreamReader(stream, StandardCharsets.UTF_8))) {
            String line;
            while ((line = lines.readLine()) != null) {
                long now = System.nanoTime();
                JsonNode event = MAPPER.readTree(line);
                if (!"MODIFIED".equals(event.path("type").asText())) {
                    continue;
                }
                int seq = Integer.parseInt(event.path("object").path("data").path("seq").asText("0"));
                if (seq > 0 && seq < arrivals[watcher].length) {
                    arrivals[watcher][seq] = now;
                    delivered[seq].countDown();
                }
            }
        } catch (IOException e) {
            // the stream was closed: the measurement is over
        }
    }

    /**
     * Writes sequence numbers {@code from..to} and returns, for those at or after {@code timedFrom},
     * the delay until the last watcher had each.
     */
    Latencies run(ApiClient writer, int from, int to, int timedFrom) throws InterruptedException {
        Latencies lastWatcher = new Latencies(to - from + 1);
        String path = "/api/v1/namespaces/" + NAMESPACE + "/configmaps/" + NAME;
        for (int seq = from; seq <= to; seq++) {
            long start = System.nanoTime();
            writer.mergePatch(path, "{\"data\":{\"seq\":\"" + seq + "\"}}");
            if (!delivered[seq].await(30, TimeUnit.SECONDS)) {
                throw new IllegalStateException("write " + seq + " reached only "
                        + (watchers - delivered[seq].getCount()) + " of " + watchers + " watchers in 30 s");
            }
            long last = 0;
            for (int w = 0; w < watchers; w++) {
                last = Math.max(last, arrivals[w][seq]);
            }
            if (seq >= timedFrom) {
                lastWatcher.add(last - start);
            }
            Thread.sleep(2);
        }
        return lastWatcher;
    }

    @Override
    public void close() {
        for (InputStream stream : streams) {
            try {
                stream.close();
            } catch (IOException ignored) {
                // closing anyway
            }
        }
        readers.forEach(Thread::interrupt);
    }
}
