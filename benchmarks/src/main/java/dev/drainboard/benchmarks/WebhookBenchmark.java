package dev.drainboard.benchmarks;

import dev.drainboard.kubevirt.KubeVirtMessages;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.drainboard.admission.EvictionWebhookServer;
import dev.drainboard.cluster.EmbeddedCluster;
import dev.drainboard.cluster.EmbeddedClusterOptions;
import dev.drainboard.kubevirt.KubeVirtAnnotations;
import dev.drainboard.kubevirt.KubeVirtLabels;
import dev.drainboard.kubevirt.api.DomainSpec;
import dev.drainboard.kubevirt.api.VirtualMachineInstance;
import dev.drainboard.kubevirt.api.VirtualMachineInstanceSpec;
import dev.drainboard.pki.TrustedClients;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;

import javax.net.ssl.SSLSocketFactory;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Queue;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;

/**
 * The eviction webhook benchmark of issue 4: AdmissionReview round trips over HTTPS on loopback at a steady rate
 * (default 500 requests/s for 20 s), the way kube-apiserver calls the webhook: a few keep-alive connections, each
 * request a pod eviction review. The webhook runs as Drainboard runs it, reading pods and VMIs from informer caches
 * filled from an embedded cluster. The requests cycle through four evictions that write nothing: a pod that is not
 * a launcher (allowed), a launcher of a {@code None} VMI (allowed), of a non-migratable {@code LiveMigrate} VMI
 * (denied, 429) and of a marked {@code External} VMI (allowed, passed on to the PDB).
 *
 * <p>Open loop: request {@code i} is due at {@code start + i / rate}; its latency counts from when it was due, so
 * a slow answer that delays the next requests shows up in their latency too (no coordinated omission).
 *
 * <p>Every answer is checked: HTTP 200, the AdmissionReview echoing the request's uid, the expected {@code allowed},
 * and for the refusal code 429 with KubeVirt's message. A request whose connection fails is counted as failed and
 * the connection reopened; the requests after it are still sent. A run with a wrong answer, a failed request or one
 * left unanswered (warm-up included) prints {@code FAILED} with the first problems and exits with status 1.
 *
 * <p>Arguments: {@code --rate=500 --seconds=20 --connections=4 --warmup-seconds=5}.
 */
public final class WebhookBenchmark {

    /**
     * What the webhook must answer for an eviction: allowed, or refused with this HTTP code and message (the
     * AdmissionReview's {@code response.status}).
     */
    record Expected(boolean allowed, int code, String message) {
        static Expected allowedAnswer() {
            return new Expected(true, 0, null);
        }

        static Expected denied(int code, String message) {
            return new Expected(false, code, message);
        }

        /** How the report counts an answer of this kind: {@code allowed} or {@code denied 429}. */
        String kind() {
            return allowed ? "allowed" : "denied " + code;
        }
    }

    record Case(String pod, Expected expected) {
    }

    /** One keep-alive connection to the webhook: POSTs a review, returns the HTTP answer. */
    interface Exchanger extends AutoCloseable {
        HttpConnection.Response post(String review) throws IOException;

        @Override
        void close();
    }

    /** Opens a connection; a request that found its connection broken gets a new one. */
    interface Connector {
        Exchanger open() throws IOException;
    }

    /**
     * @param requests       requests due in the measured run
     * @param answered       of those, the ones that got an answer (right or wrong)
     * @param wrongAnswers   answers that were not the expected one (status, uid, allowed, code or message)
     * @param failedRequests requests that got no answer (the connection failed); counted, and the run went on
     * @param rightAnswers   the right answers by kind ({@code allowed}, {@code denied 429})
     * @param warmupProblems wrong answers and failed requests during the warm-up
     * @param problems       the first few problems, described
     */
    public record Report(long requests, long answered, long wrongAnswers, long failedRequests, Map<String, Long> rightAnswers,
                         long warmupProblems, List<String> problems, double achievedRate, double p50Millis, double p90Millis,
                         double p99Millis, double maxMillis, double roundTripP50Millis, double roundTripP99Millis,
                         double cpuMicrosPerRequest) {

        /** Every request, warm-up included, got the answer it should have. */
        public boolean passed() {
            return wrongAnswers == 0 && failedRequests == 0 && answered == requests && warmupProblems == 0;
        }
    }

    /** How many problems a run describes (the counts cover all of them). */
    static final int PROBLEMS_SHOWN = 10;

    private static final ObjectMapper JSON = new ObjectMapper();

    public static void main(String[] args) throws Exception {
        int rate = intArg(args, "rate", 500);
        int seconds = intArg(args, "seconds", 20);
        int connections = intArg(args, "connections", 4);
        int warmup = intArg(args, "warmup-seconds", 5);
        Report report = run(rate, seconds, connections, warmup, System.out);
        System.exit(report.passed() ? 0 : 1);
    }

    public static Report run(int rate, int seconds, int connections, int warmupSeconds, PrintStream out) throws Exception {
        try (EmbeddedCluster cluster = EmbeddedCluster.start(EmbeddedClusterOptions.defaults().withPort(0));
             KubernetesClient client = new KubernetesClientBuilder()
                     .withConfig(Config.fromKubeconfig(Files.readString(cluster.kubeconfig()))).build()) {
            SharedIndexInformer<VirtualMachineInstance> vmis = client.resources(VirtualMachineInstance.class).inAnyNamespace().inform();
            SharedIndexInformer<Pod> pods = client.pods().inAnyNamespace().inform();
            List<Case> cases = List.of(
                    new Case(plainPod(client), Expected.allowedAnswer()),
                    new Case(launcher(client, "bench-none", "None", false, false), Expected.allowedAnswer()),
                    // KubeVirt refuses the eviction of a LiveMigrate VMI that cannot migrate with 429 Too Many Requests.
                    new Case(launcher(client, "bench-blocked", "LiveMigrate", false, false),
                            Expected.denied(429, KubeVirtMessages.notLiveMigratable("bench-blocked"))),
                    new Case(launcher(client, "bench-marked", "External", true, true), Expected.allowedAnswer()));
            waitUntil(() -> pods.getStore().list().stream().filter(p -> p.getSpec().getNodeName() != null).count() == 4
                    && vmis.getStore().list().stream().allMatch(v -> v.getStatus() != null && v.getStatus().getNodeName() != null)
                    && vmis.getStore().list().size() == 3);
            try (EvictionWebhookServer webhook = EvictionWebhookServer.builder(client).vmiCache(vmis).podCache(pods).build()) {
                webhook.startServing();
                out.printf(Locale.ROOT, "webhook at %s; %d processors; %d requests/s for %d s over %d connections (warm-up %d s)%n",
                        webhook.url(), Runtime.getRuntime().availableProcessors(), rate, seconds, connections, warmupSeconds);
                URI url = URI.create(webhook.url());
                SSLSocketFactory sockets = TrustedClients.trusting(webhook.caPem()).getSocketFactory();
                Connector connector = () -> {
                    HttpConnection connection = HttpConnection.open(sockets, url.getHost(), url.getPort(), "none");
                    return new Exchanger() {
                        @Override
                        public HttpConnection.Response post(String review) throws IOException {
                            return connection.exchange("POST", url.getPath(), "application/json", review);
                        }

                        @Override
                        public void close() {
                            connection.close();
                        }
                    };
                };
                Result warmup = warmupSeconds > 0 ? drive(connector, cases, rate, warmupSeconds, connections) : null;
                long cpuStart = processCpuNanos();
                Result result = drive(connector, cases, rate, seconds, connections);
                Report report = report(result, warmup, processCpuNanos() - cpuStart);
                print(report, out);
                vmis.close();
                pods.close();
                return report;
            }
        }
    }

    static Report report(Result result, Result warmup, long cpuNanos) {
        long answered = result.fromDue.count();
        List<String> problems = new ArrayList<>();
        if (warmup != null) {
            warmup.problems.stream().map(p -> "warm-up: " + p).forEach(problems::add);
        }
        problems.addAll(result.problems);
        Map<String, Long> right = new TreeMap<>();
        result.rightAnswers.forEach((kind, count) -> right.put(kind, count.sum()));
        return new Report(result.requests, answered, result.wrongAnswers.sum(), result.failedRequests.sum(), right,
                warmup == null ? 0 : warmup.wrongAnswers.sum() + warmup.failedRequests.sum() + (warmup.requests - warmup.answeredOrFailed()),
                List.copyOf(problems.subList(0, Math.min(problems.size(), PROBLEMS_SHOWN))),
                answered / result.elapsedSeconds,
                result.fromDue.percentileMillis(50), result.fromDue.percentileMillis(90),
                result.fromDue.percentileMillis(99), result.fromDue.percentileMillis(100),
                result.roundTrip.percentileMillis(50), result.roundTrip.percentileMillis(99),
                cpuNanos / 1e3 / Math.max(1, answered));
    }

    static void print(Report r, PrintStream out) {
        out.printf(Locale.ROOT, "requests: %d, answered %d at %.1f/s; right answers %s; wrong answers: %d, failed requests: %d%n",
                r.requests(), r.answered(), r.achievedRate(), r.rightAnswers(), r.wrongAnswers(), r.failedRequests());
        out.printf(Locale.ROOT, "latency from due time: p50 %.2f ms, p90 %.2f ms, p99 %.2f ms, max %.2f ms (goal p99 <= 5 ms)%n",
                r.p50Millis(), r.p90Millis(), r.p99Millis(), r.maxMillis());
        out.printf(Locale.ROOT, "round trip once sent: p50 %.2f ms, p99 %.2f ms; CPU per request (server + client) %.0f us%n",
                r.roundTripP50Millis(), r.roundTripP99Millis(), r.cpuMicrosPerRequest());
        if (!r.passed()) {
            out.printf(Locale.ROOT, "FAILED: %d wrong answers, %d failed requests, %d unanswered, %d problems in the warm-up%n",
                    r.wrongAnswers(), r.failedRequests(), r.requests() - r.answered() - r.failedRequests(), r.warmupProblems());
            r.problems().forEach(p -> out.println("  " + p));
        }
    }

    /**
     * One run's tally. Every request ends answered (then its latencies are recorded and its answer is checked) or
     * failed (no answer: counted, the connection reopened, the next request sent as due).
     */
    static final class Result {
        final long requests;
        final Latencies fromDue;
        final Latencies roundTrip;
        final LongAdder wrongAnswers = new LongAdder();
        final LongAdder failedRequests = new LongAdder();
        final Map<String, LongAdder> rightAnswers = new ConcurrentHashMap<>();
        final Queue<String> problems = new ConcurrentLinkedQueue<>();
        final AtomicInteger problemsKept = new AtomicInteger();
        double elapsedSeconds;

        Result(long requests) {
            this.requests = requests;
            this.fromDue = new Latencies((int) requests);
            this.roundTrip = new Latencies((int) requests);
        }

        long answeredOrFailed() {
            return fromDue.count() + failedRequests.sum();
        }

        void problem(String description) {
            if (problemsKept.getAndIncrement() < PROBLEMS_SHOWN) {
                problems.add(description);
            }
        }
    }

    static Result drive(Connector connector, List<Case> cases, int rate, int seconds, int connections) throws InterruptedException {
        long total = (long) rate * seconds;
        Result result = new Result(total);
        long periodNanos = TimeUnit.SECONDS.toNanos(1) / rate;
        long start = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(50);
        List<Thread> threads = new ArrayList<>();
        for (int c = 0; c < connections; c++) {
            int first = c;
            threads.add(Thread.ofPlatform().name("webhook-bench-" + c).start(() -> {
                Exchanger connection = null;
                try {
                    for (long i = first; i < total; i += connections) {
                        long due = start + i * periodNanos;
                        long wait = due - System.nanoTime();
                        if (wait > 0) {
                            LockSupport.parkNanos(wait);
                        }
                        Case k = cases.get((int) (i % cases.size()));
                        String uid = "uid-" + i;
                        HttpConnection.Response response;
                        long sent;
                        try {
                            if (connection == null) {
                                connection = connector.open();
                            }
                            sent = System.nanoTime();
                            response = connection.post(review(uid, k.pod()));
                        } catch (IOException | RuntimeException e) {
                            result.failedRequests.increment();
                            result.problem("request " + uid + " (" + k.pod() + ") failed: " + e);
                            if (connection != null) {
                                connection.close(); // a connection that failed mid-exchange is not reused
                                connection = null;
                            }
                            continue;
                        }
                        long done = System.nanoTime();
                        result.fromDue.add(done - due);
                        result.roundTrip.add(done - sent);
                        Optional<String> wrong = wrongAnswer(k.expected(), uid, response);
                        if (wrong.isPresent()) {
                            result.wrongAnswers.increment();
                            result.problem("request " + uid + " (" + k.pod() + "): " + wrong.get());
                        } else {
                            result.rightAnswers.computeIfAbsent(k.expected().kind(), x -> new LongAdder()).increment();
                        }
                    }
                } finally {
                    if (connection != null) {
                        connection.close();
                    }
                }
            }));
        }
        for (Thread t : threads) {
            t.join();
        }
        result.elapsedSeconds = (System.nanoTime() - start) / 1e9;
        long lost = total - result.answeredOrFailed();
        if (lost > 0) {
            result.problem(lost + " requests were neither answered nor failed (a connection's thread died)");
        }
        return result;
    }

    /**
     * What is wrong with the webhook's answer to review {@code uid}, if anything: an HTTP status other than 200, no
     * AdmissionReview, another uid, another {@code allowed}, or for a refusal another {@code status.code} or message
     * (the API server hands these to the evicting client). An allowed answer carries no status.
     */
    static Optional<String> wrongAnswer(Expected expected, String uid, HttpConnection.Response answer) {
        if (answer.status() != 200) {
            return Optional.of("HTTP " + answer.status() + ", expected 200");
        }
        JsonNode root;
        try {
            root = JSON.readTree(answer.body());
        } catch (IOException e) {
            return Optional.of("the body is not JSON: " + new String(answer.body(), StandardCharsets.UTF_8));
        }
        if (root == null || !"admission.k8s.io/v1".equals(root.path("apiVersion").asText())
                || !"AdmissionReview".equals(root.path("kind").asText()) || !root.path("response").isObject()) {
            return Optional.of("not an admission.k8s.io/v1 AdmissionReview with a response: " + root);
        }
        JsonNode response = root.get("response");
        if (!uid.equals(response.path("uid").asText(null))) {
            return Optional.of("answers uid " + response.path("uid") + ", expected " + uid);
        }
        JsonNode allowed = response.get("allowed");
        if (allowed == null || !allowed.isBoolean()) {
            return Optional.of("no boolean response.allowed: " + response);
        }
        if (allowed.booleanValue() != expected.allowed()) {
            return Optional.of("allowed " + allowed.booleanValue() + ", expected " + expected.kind() + ": " + response);
        }
        JsonNode status = response.get("status");
        if (expected.allowed()) {
            return status == null ? Optional.empty() : Optional.of("an allowed answer with a status: " + response);
        }
        if (status == null || !status.path("code").isInt() || status.path("code").intValue() != expected.code()) {
            return Optional.of("refused with status " + status + ", expected code " + expected.code());
        }
        if (!expected.message().equals(status.path("message").asText(null))) {
            return Optional.of("refused with message " + status.path("message") + ", expected \"" + expected.message() + "\"");
        }
        return Optional.empty();
    }

    static String review(String uid, String pod) {
        return "{\"apiVersion\":\"admission.k8s.io/v1\",\"kind\":\"AdmissionReview\",\"request\":{\"uid\":\"" + uid + "\","
                + "\"kind\":{\"group\":\"policy\",\"version\":\"v1\",\"kind\":\"Eviction\"},"
                + "\"resource\":{\"group\":\"\",\"version\":\"v1\",\"resource\":\"pods\"},\"subResource\":\"eviction\","
                + "\"name\":\"" + pod + "\",\"namespace\":\"default\",\"operation\":\"CREATE\","
                + "\"userInfo\":{\"username\":\"system:admin\"},"
                + "\"object\":{\"apiVersion\":\"policy/v1\",\"kind\":\"Eviction\",\"metadata\":{\"name\":\"" + pod
                + "\",\"namespace\":\"default\"}},\"oldObject\":null,\"dryRun\":false,"
                + "\"options\":{\"apiVersion\":\"meta.k8s.io/v1\",\"kind\":\"CreateOptions\"}}}";
    }

    private static String plainPod(KubernetesClient client) {
        client.pods().inNamespace("default").resource(new PodBuilder()
                .withNewMetadata().withName("web-0").withNamespace("default").addToLabels("app", "web").endMetadata()
                .withNewSpec().withNodeName("node01").addNewContainer().withName("web").withImage("nginx").endContainer().endSpec()
                .build()).create();
        return "web-0";
    }

    private static String launcher(KubernetesClient client, String name, String strategy, boolean migratable, boolean marked) {
        VirtualMachineInstance vmi = new VirtualMachineInstance();
        vmi.setMetadata(new ObjectMetaBuilder().withNamespace("default").withName(name).build());
        VirtualMachineInstanceSpec spec = new VirtualMachineInstanceSpec();
        spec.setEvictionStrategy(strategy);
        // KubeVirt's schema requires spec.domain.devices; virt-api refuses a VMI that asks for no memory.
        DomainSpec domain = new DomainSpec();
        domain.setDevices(new DomainSpec.Devices());
        DomainSpec.Memory memory = new DomainSpec.Memory();
        memory.setGuest(new io.fabric8.kubernetes.api.model.Quantity("1Gi"));
        domain.setMemory(memory);
        spec.setDomain(domain);
        vmi.setSpec(spec);
        VirtualMachineInstance created = client.resources(VirtualMachineInstance.class).inNamespace("default").resource(vmi).create();
        client.resources(VirtualMachineInstance.class).inNamespace("default").withName(name).patch(PatchContext.of(PatchType.JSON_MERGE),
                "{\"status\":{\"phase\":\"Running\",\"nodeName\":\"node01\"" + (marked ? ",\"evacuationNodeName\":\"node01\"" : "")
                        + ",\"conditions\":[{\"type\":\"LiveMigratable\",\"status\":\"" + (migratable ? "True" : "False") + "\"}]}}");
        String podName = "virt-launcher-" + name + "-abcde";
        client.pods().inNamespace("default").resource(new PodBuilder()
                .withNewMetadata().withName(podName).withNamespace("default")
                    .addToLabels(KubeVirtLabels.APP, KubeVirtLabels.APP_VIRT_LAUNCHER)
                    .addToLabels(KubeVirtLabels.CREATED_BY, created.getMetadata().getUid())
                    .addToAnnotations(KubeVirtAnnotations.DOMAIN, name)
                .endMetadata()
                .withNewSpec().withNodeName("node01").addNewContainer().withName("compute").withImage("virt-launcher").endContainer().endSpec()
                .build()).create();
        return podName;
    }

    private static void waitUntil(java.util.function.BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("the informers did not fill within 30 s");
            }
            Thread.sleep(20);
        }
    }

    private static long processCpuNanos() {
        return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean()).getProcessCpuTime();
    }

    private static int intArg(String[] args, String name, int fallback) {
        for (String a : args) {
            if (a.startsWith("--" + name + "=")) {
                return Integer.parseInt(a.substring(name.length() + 3));
            }
        }
        return fallback;
    }
}
