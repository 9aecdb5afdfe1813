package dev.drainboard.benchmarks;

import dev.drainboard.cluster.EmbeddedCluster;
import dev.drainboard.cluster.EmbeddedClusterOptions;
import dev.drainboard.controlplane.Kubeconfigs;
import dev.drainboard.controlplane.LocalControlPlane;
import dev.drainboard.handler.NodeHandler;
import io.fabric8.kubernetes.client.Config;

import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

/**
 * The control plane benchmark of issue 3: an embedded cluster loaded with a scenario of many nodes, VMIs and VMs,
 * then the controllers started and timed until every VMI's {@code status.phase} is Running.
 *
 * <p>Two JVMs, so the controllers' heap is theirs alone: this one runs the embedded cluster (API server, scheduler,
 * kubelets, hypervisors) and the node handler, which must live beside the hypervisors it drives, as
 * {@code drainboard serve} runs it; a second one ({@link ControllersProcess}) runs the VMI and VM controllers as
 * {@code drainboard controllers --kubeconfig F} does, with leader election. Every object of the scenario exists
 * before the clock starts (loading it is the API server benchmark's business); the clock starts when the
 * controllers' JVM is launched, so its start, the informers' lists and the leader election are counted.
 *
 * <p>Run it as docs/benchmarks.md says; {@code --smoke} runs tiny sizes, {@code --name=value} changes one size
 * (see {@link ScaleSizes}); {@code -Dbench.controllersJvmArgs="..."} passes options to the controllers' JVM.
 */
public final class ControlPlaneBenchmark {

    private ControlPlaneBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        ScaleSizes sizes = ScaleSizes.fromArgs(args);
        ScaleReport report = run(sizes, System.out);
        report.print(System.out);
        System.exit(0);
    }

    public static ScaleReport run(ScaleSizes sizes, PrintStream out) throws Exception {
        double loadStart = loadAverage();
        Path dir = Files.createTempDirectory("drainboard-scale-");
        Path scenario = ScaleScenario.write(sizes, dir);
        out.println(Runtime.getRuntime().availableProcessors() + " processors; load average " + loadStart + "; " + sizes
                + "; files in " + dir);

        long t = System.nanoTime();
        EmbeddedClusterOptions options = EmbeddedClusterOptions.defaults().withPort(0)
                .withScenario(scenario.toString()).withKubeconfigOut(dir.resolve("kubeconfig"));
        try (EmbeddedCluster cluster = EmbeddedCluster.start(options)) {
            double loadSeconds = seconds(System.nanoTime() - t);
            out.printf(Locale.ROOT, "cluster at %s with the scenario loaded in %.1f s%n", cluster.url(), loadSeconds);
            Config config = Kubeconfigs.load(cluster.kubeconfig(), null);
            try (LocalControlPlane local = LocalControlPlane.start(config, cluster.hypervisors(), false);
                 RunningVmis running = RunningVmis.start(cluster, sizes.totalVmis())) {
                NodeHandler handler = local.nodeHandler().orElseThrow();
                while (!handler.hasSynced()) {
                    Thread.sleep(20);
                }
                long clusterHeapBefore = usedHeapMiB();
                long clusterCpuStart = processCpuNanos();
                Map<String, Long> threadsBefore = ThreadCpu.byKind();
                Map<String, Long> requestsBefore = cluster.api().requestCounts().snapshot();

                ControllersChild controllers = ControllersChild.launch(cluster.kubeconfig(), sizes.controllerHeapMiB(),
                        dir.resolve("controllers.log"));
                try (controllers) {
                    out.println("controllers' JVM launched, pid " + controllers.pid() + ", log in " + dir.resolve("controllers.log"));
                    long doneAt = awaitAllRunning(sizes, running, controllers, out);
                    double clusterCpu = seconds(processCpuNanos() - clusterCpuStart);
                    String clusterThreads = ThreadCpu.describe(ThreadCpu.since(threadsBefore, ThreadCpu.byKind()), 12);
                    String controllerThreads = controllers.threadCpu();
                    Map<String, Long> requests = difference(cluster.api().requestCounts().snapshot(), requestsBefore);
                    double loadEnd = loadAverage();
                    ControllersChild.Heap heap = controllers.heap();
                    var figures = controllers.figures();
                    long clusterHeapAfter = usedHeapMiB();
                    return new ScaleReport(sizes.nodes(), sizes.vmis(), sizes.vms(), loadSeconds,
                            seconds(doneAt - controllers.launchedAt()), seconds(doneAt - controllers.leaderAt()),
                            heap.usedBytes() >> 20, heap.committedBytes() >> 20, heap.maxBytes() >> 20,
                            heap.gcCount(), heap.gcMillis(), seconds(heap.cpuNanos()),
                            clusterHeapBefore, clusterHeapAfter, clusterCpu, loadStart, loadEnd, figures, requests,
                            controllerThreads, clusterThreads);
                }
            }
        }
    }

    /** Prints progress every 5 s (VMIs by phase, from the store) until the last VMI runs; returns when it did. */
    private static long awaitAllRunning(ScaleSizes sizes, RunningVmis running, ControllersChild controllers, PrintStream out)
            throws InterruptedException {
        long deadline = controllers.launchedAt() + TimeUnit.SECONDS.toNanos(sizes.timeoutSeconds());
        controllers.awaitLeader(sizes.timeoutSeconds(), TimeUnit.SECONDS);
        out.printf(Locale.ROOT, "%6.1f s: leading%n", seconds(controllers.leaderAt() - controllers.launchedAt()));
        while (true) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                return running.awaitAll(0, TimeUnit.NANOSECONDS);
            }
            try {
                return running.awaitAll(Math.min(left, TimeUnit.SECONDS.toNanos(5)), TimeUnit.NANOSECONDS);
            } catch (IllegalStateException notYet) {
                out.printf(Locale.ROOT, "%6.1f s: %s%n",
                        seconds(System.nanoTime() - controllers.launchedAt()), running.phases());
            }
        }
    }

    /** Requests made during the run, by verb and resource (watches and lists too). */
    private static Map<String, Long> difference(Map<String, Long> after, Map<String, Long> before) {
        Map<String, Long> made = new TreeMap<>();
        after.forEach((k, v) -> {
            long n = v - before.getOrDefault(k, 0L);
            if (n > 0) {
                made.put(k, n);
            }
        });
        return made;
    }

    private static double seconds(long nanos) {
        return nanos / 1e9;
    }

    private static double loadAverage() {
        return ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
    }

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
