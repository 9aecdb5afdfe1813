package dev.drainboard.benchmarks;

import dev.drainboard.admission.EvictionWebhookServer;
import dev.drainboard.cluster.EmbeddedCluster;
import dev.drainboard.cluster.EmbeddedClusterOptions;
import dev.drainboard.kubevirt.KubeVirtAnnotations;
import dev.drainboard.kubevirt.KubeVirtLabels;
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
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
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
 * <p>Arguments: {@code --rate=500 --seconds=20 --connections=4 --warmup-seconds=5}.
 */
public final class WebhookBenchmark {

    private record Case(String pod, boolean allowed) {
    }

    public record Report(long requests, long errors, double achievedRate, double p50Millis, double p90Millis,
                         double p99Millis, double maxMillis, double roundTripP50Millis, double roundTripP99Millis,
                         double cpuMicrosPerRequest) {
    }

    public static void main(String[] args) throws Exception {
        int rate = intArg(args, "rate", 500);
        int seconds = intArg(args, "seconds", 20);
        int connections = intArg(args, "connections", 4);
        int warmup = intArg(args, "warmup-seconds", 5);
        run(rate, seconds, connections, warmup, System.out);
        System.exit(0);
    }

    public static Report run(int rate, int seconds, int connections, int warmupSeconds, PrintStream out) throws Exception {
        try (EmbeddedCluster cluster = EmbeddedCluster.start(EmbeddedClusterOptions.defaults().withPort(0));
             KubernetesClient client = new KubernetesClientBuilder()
                     .withConfig(Config.fromKubeconfig(Files.readString(cluster.kubeconfig()))).build()) {
            SharedIndexInformer<VirtualMachineInstance> vmis = client.resources(VirtualMachineInstance.class).inAnyNamespace().inform();
            SharedIndexInformer<Pod> pods = client.pods().inAnyNamespace().inform();
            List<Case> cases = List.of(
                    new Case(plainPod(client), true),
                    new Case(launcher(client, "bench-none", "None", false, false), true),
                    new Case(launcher(client, "bench-blocked", "LiveMigrate", false, false), false),
                    new Case(launcher(client, "bench-marked", "External", true, true), true));
            waitUntil(() -> pods.getStore().list().stream().filter(p -> p.getSpec().getNodeName() != null).count() == 4
                    && vmis.getStore().list().stream().allMatch(v -> v.getStatus() != null && v.getStatus().getNodeName() != null)
                    && vmis.getStore().list().size() == 3);
            try (EvictionWebhookServer webhook = EvictionWebhookServer.builder(client).vmiCache(vmis).podCache(pods).build()) {
                webhook.startServing();
                out.printf(Locale.ROOT, "webhook at %s; %d processors; %d requests/s for %d s over %d connections (warm-up %d s)%n",
                        webhook.url(), Runtime.getRuntime().availableProcessors(), rate, seconds, connections, warmupSeconds);
                URI url = URI.create(webhook.url());
                SSLSocketFactory sockets = TrustedClients.trusting(webhook.caPem()).getSocketFactory();
                if (warmupSeconds > 0) {
                    drive(sockets, url, cases, rate, warmupSeconds, connections);
                }
                long cpuStart = processCpuNanos();
                Result result = drive(sockets, url, cases, rate, seconds, connections);
                double cpuMicros = (processCpuNanos() - cpuStart) / 1e3 / Math.max(1, result.fromDue.count());
                Report report = new Report(result.fromDue.count(), result.errors.get(),
                        result.fromDue.count() / result.elapsedSeconds,
                        result.fromDue.percentileMillis(50), result.fromDue.percentileMillis(90),
                        result.fromDue.percentileMillis(99), result.fromDue.percentileMillis(100),
                        result.roundTrip.percentileMillis(50), result.roundTrip.percentileMillis(99), cpuMicros);
                print(report, out);
                vmis.close();
                pods.close();
                return report;
            }
        }
    }

    private static void print(Report r, PrintStream out) {
        out.printf(Locale.ROOT, "requests: %d at %.1f/s, errors: %d%n", r.requests(), r.achievedRate(), r.errors());
        out.printf(Locale.ROOT, "latency from due time: p50 %.2f ms, p90 %.2f ms, p99 %.2f ms, max %.2f ms (goal p99 <= 5 ms)%n",
                r.p50Millis(), r.p90Millis(), r.p99Millis(), r.maxMillis());
        out.printf(Locale.ROOT, "round trip once sent: p50 %.2f ms, p99 %.2f ms; CPU per request (server + client) %.0f us%n",
                r.roundTripP50Millis(), r.roundTripP99Millis(), r.cpuMicrosPerRequest());
    }

    private record Result(Latencies fromDue, Latencies roundTrip, AtomicLong errors, double elapsedSeconds) {
    }

    private static Result drive(SSLSocketFactory sockets, URI url, List<Case> cases, int rate, int seconds, int connections)
            throws Exception {
        long total = (long) rate * seconds;
        Latencies fromDue = new Latencies((int) total);
        Latencies roundTrip = new Latencies((int) total);
        AtomicLong errors = new AtomicLong();
        long periodNanos = TimeUnit.SECONDS.toNanos(1) / rate;
        long start = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(50);
        List<Thread> threads = new ArrayList<>();
        for (int c = 0; c < connections; c++) {
            int first = c;
            threads.add(Thread.ofPlatform().name("webhook-bench-" + c).start(() -> {
                try (HttpConnection connection = HttpConnection.open(sockets, url.getHost(), url.getPort(), "none")) {
                    for (long i = first; i < total; i += connections) {
                        long due = start + i * periodNanos;
                        long wait = due - System.nanoTime();
                        if (wait > 0) {
                            LockSupport.parkNanos(wait);
                        }
                        Case k = cases.get((int) (i % cases.size()));
                        long sent = System.nanoTime();
                        HttpConnection.Response response = connection.exchange("POST", url.getPath(), "application/json",
                                review("uid-" + i, k.pod()));
                        long done = System.nanoTime();
                        fromDue.add(done - due);
                        roundTrip.add(done - sent);
                        String body = new String(response.body(), StandardCharsets.UTF_8);
                        if (response.status() != 200 || !body.contains("\"uid\":\"uid-" + i + "\"")
                                || !body.contains("\"allowed\":" + k.allowed())) {
                            errors.incrementAndGet();
                        }
                    }
                } catch (Exception e) {
                    errors.incrementAndGet();
                    e.printStackTrace();
                }
            }));
        }
        for (Thread t : threads) {
            t.join();
        }
        return new Result(fromDue, roundTrip, errors, (System.nanoTime() - start) / 1e9);
    }

    private static String review(String uid, String pod) {
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
