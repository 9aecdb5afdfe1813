package dev.drainboard.benchmarks;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.drainboard.cluster.EmbeddedCluster;
import dev.drainboard.cluster.EmbeddedClusterOptions;

import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.IntConsumer;

/**
 * The embedded API server benchmark of issue 2: an empty embedded cluster, filled over HTTPS on
 * loopback by several client threads with nodes, pods and custom objects, then timed on single GETs,
 * a 1,000-pod list and the fan-out of writes to many watchers. Warm-up work is never timed.
 *
 * <p>Run it as docs/benchmarks.md says; {@code --smoke} runs tiny sizes, {@code --name=value}
 * changes one size (see {@link BenchmarkSizes}).
 */
public final class ApiServerBenchmark {

    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final String BIG_NAMESPACE = "bench-big";

    private final BenchmarkSizes sizes;
    private final PrintStream out;
    private final ApiClient client;

    private ApiServerBenchmark(BenchmarkSizes sizes, PrintStream out, ApiClient client) {
        this.sizes = sizes;
        this.out = out;
        this.client = client;
    }

    public static void main(String[] args) throws Exception {
        BenchmarkSizes sizes = BenchmarkSizes.fromArgs(args);
        BenchmarkReport report = run(sizes, System.out);
        report.print(System.out, sizes);
        System.exit(0);
    }

    /** Starts an empty embedded cluster, runs every phase against it and stops it. */
    public static BenchmarkReport run(BenchmarkSizes sizes, PrintStream out) throws Exception {
        try (EmbeddedCluster cluster = EmbeddedCluster.start(EmbeddedClusterOptions.defaults().withPort(0))) {
            out.println("embedded cluster at " + cluster.url() + "; " + Runtime.getRuntime().availableProcessors()
                    + " processors; " + sizes);
            try (ApiClient client = new ApiClient(cluster.url(), cluster.token(), cluster.caPem())) {
                return new ApiServerBenchmark(sizes, out, client).measure(() -> new ApiClient(cluster.url(), cluster.token(), cluster.caPem()));
            }
        }
    }

    private BenchmarkReport measure(java.util.function.Supplier<ApiClient> newClient) throws Exception {
        prepare();
        long heapBefore = usedHeapMiB();
        warmUp();

        // 1. creates
        List<String[]> creates = createRequests();
        long start = System.nanoTime();
        long cpuStart = processCpuNanos();
        parallel(sizes.threads(), creates.size(), i -> client.post(creates.get(i)[0], creates.get(i)[1]));
        double createSeconds = (System.nanoTime() - start) / 1e9;
        double createCpuMicros = (processCpuNanos() - cpuStart) / 1e3 / creates.size();
        double createsPerSecond = creates.size() / createSeconds;
        out.printf(Locale.ROOT, "created %d objects in %.2f s%n", creates.size(), createSeconds);

        // 2. single-object GETs, with everything stored
        parallel(sizes.threads(), sizes.warmup(), i -> client.get(randomObjectPath()));
        Latencies gets = new Latencies(sizes.gets());
        long getCpuStart = processCpuNanos();
        parallel(sizes.threads(), sizes.gets(), i -> {
            String path = randomObjectPath();
            long t = System.nanoTime();
            client.get(path);
            gets.add(System.nanoTime() - t);
        });
        double getCpuMicros = (processCpuNanos() - getCpuStart) / 1e3 / sizes.gets();
        Latencies singleGets = new Latencies(sizes.gets() / sizes.threads());
        for (int i = 0; i < Math.max(1, sizes.gets() / sizes.threads()); i++) {
            String path = randomObjectPath();
            long t = System.nanoTime();
            client.get(path);
            singleGets.add(System.nanoTime() - t);
        }

        // 3. list of the big namespace
        String listPath = "/api/v1/namespaces/" + BIG_NAMESPACE + "/pods";
        int listed = MAPPER.readTree(client.get(listPath)).path("items").size();
        if (listed != sizes.bigNamespacePods()) {
            throw new IllegalStateException("listed " + listed + " pods in " + BIG_NAMESPACE + ", expected " + sizes.bigNamespacePods());
        }
        for (int i = 0; i < 5; i++) {
            client.get(listPath);
        }
        long[] listNanos = new long[sizes.listRuns()];
        for (int i = 0; i < listNanos.length; i++) {
            long t = System.nanoTime();
            client.get(listPath);
            listNanos[i] = System.nanoTime() - t;
        }
        Arrays.sort(listNanos);

        // 4. one write reaching many watchers
        Latencies watch = watchFanOut(newClient);

        long heapAfter = usedHeapMiB();

        // 5. not timed: pod updates whose old versions stay in the watch log
        parallel(sizes.threads(), sizes.churn(), i -> {
            int pod = i % sizes.pods();
            client.mergePatch("/api/v1/namespaces/" + podNamespaceOf(pod) + "/pods/pod-" + pod,
                    "{\"metadata\":{\"labels\":{\"churn\":\"c" + i + "\"}}}");
        });
        long heapAfterChurn = usedHeapMiB();
        return new BenchmarkReport(creates.size(), createsPerSecond, createCpuMicros,
                gets.percentileMillis(50), gets.percentileMillis(99), getCpuMicros, singleGets.percentileMillis(50),
                listed, listNanos[listNanos.length / 2] / 1e6, listNanos[listNanos.length - 1] / 1e6,
                watch.percentileMillis(50), watch.percentileMillis(99), sizes.watchers(),
                heapBefore, heapAfter, sizes.churn(), heapAfterChurn);
    }

    /** Namespaces and the CRD: set up before anything is timed. */
    private void prepare() throws InterruptedException {
        for (String ns : namespaces()) {
            client.post("/api/v1/namespaces", Fixtures.namespace(ns));
        }
        client.post("/apis/apiextensions.k8s.io/v1/customresourcedefinitions", Fixtures.widgetsCrd());
        long deadline = System.nanoTime() + 30_000_000_000L;
        while (true) {
            try {
                client.get(Fixtures.WIDGETS);
                break;
            } catch (IllegalStateException notYet) {
                if (System.nanoTime() > deadline) {
                    throw notYet;
                }
                Thread.sleep(20);
            }
        }
    }

    private List<String> namespaces() {
        List<String> names = new ArrayList<>(List.of(BIG_NAMESPACE, "bench-warmup", WatchFanOut.NAMESPACE));
        for (int i = 0; i < sizes.podNamespaces(); i++) {
            names.add(podNamespace(i));
        }
        return names;
    }

    private static String podNamespace(int i) {
        return "bench-" + i;
    }

    /** Creates and reads ConfigMaps (a resource the timed phases leave alone) so the JIT and pools are warm. */
    private void warmUp() {
        String path = "/api/v1/namespaces/bench-warmup/configmaps";
        parallel(sizes.threads(), sizes.warmup(), i -> client.post(path, Fixtures.configMap("warm-" + i, Integer.toString(i))));
        parallel(sizes.threads(), sizes.warmup(), i -> client.get(path + "/warm-" + i));
        for (int i = 0; i < 5; i++) {
            client.get(path);
        }
    }

    /** Every timed create as {path, body}: nodes, then pods, then custom objects. */
    private List<String[]> createRequests() {
        List<String[]> requests = new ArrayList<>(sizes.nodes() + sizes.pods() + sizes.customObjects());
        for (int i = 0; i < sizes.nodes(); i++) {
            requests.add(new String[]{"/api/v1/nodes", Fixtures.node(i)});
        }
        for (int i = 0; i < sizes.pods(); i++) {
            requests.add(new String[]{"/api/v1/namespaces/" + podNamespaceOf(i) + "/pods", Fixtures.pod(i)});
        }
        for (int i = 0; i < sizes.customObjects(); i++) {
            requests.add(new String[]{Fixtures.WIDGETS + "/namespaces/" + podNamespace(i % sizes.podNamespaces()) + "/widgets",
                    Fixtures.widget(i)});
        }
        return requests;
    }

    private String podNamespaceOf(int pod) {
        return pod < sizes.bigNamespacePods() ? BIG_NAMESPACE : podNamespace(pod % sizes.podNamespaces());
    }

    private String randomObjectPath() {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        int total = sizes.nodes() + sizes.pods() + sizes.customObjects();
        int pick = random.nextInt(total);
        if (pick < sizes.nodes()) {
            return "/api/v1/nodes/node-" + pick;
        }
        pick -= sizes.nodes();
        if (pick < sizes.pods()) {
            return "/api/v1/namespaces/" + podNamespaceOf(pick) + "/pods/pod-" + pick;
        }
        pick -= sizes.pods();
        return Fixtures.WIDGETS + "/namespaces/" + podNamespace(pick % sizes.podNamespaces()) + "/widgets/widget-" + pick;
    }

    private Latencies watchFanOut(java.util.function.Supplier<ApiClient> newClient) throws Exception {
        byte[] created = client.post("/api/v1/namespaces/" + WatchFanOut.NAMESPACE + "/configmaps",
                Fixtures.configMap(WatchFanOut.NAME, "0"));
        String rv = MAPPER.readTree(created).path("metadata").path("resourceVersion").asText();
        int warmupWrites = Math.max(5, sizes.watchWrites() / 5);
        int total = warmupWrites + sizes.watchWrites();
        try (WatchFanOut fanOut = new WatchFanOut(newClient, sizes.watchers(), rv, total)) {
            return fanOut.run(client, 1, total, warmupWrites + 1);
        }
    }

    /** Runs {@code count} tasks on {@code threads} platform threads; the first failure is rethrown. */
    private static void parallel(int threads, int count, IntConsumer task) {
        AtomicInteger next = new AtomicInteger();
        AtomicReference<RuntimeException> failure = new AtomicReference<>();
        List<Thread> workers = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            workers.add(Thread.ofPlatform().name("bench-client-" + t).start(() -> {
                int i;
                while (failure.get() == null && (i = next.getAndIncrement()) < count) {
                    try {
                        task.accept(i);
                    } catch (RuntimeException e) {
                        failure.compareAndSet(null, e);
                    }
                }
            }));
        }
        for (Thread worker : workers) {
            try {
                worker.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted", e);
            }
        }
        if (failure.get() != null) {
            throw failure.get();
        }
    }

    /** CPU time of the whole process (server and client threads): a figure the machine's other load barely changes. */
    private static long processCpuNanos() {
        return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean()).getProcessCpuTime();
    }

    private static long usedHeapMiB() {
        for (int i = 0; i < 3; i++) {
            System.gc();
        }
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed() / (1024 * 1024);
    }
}
