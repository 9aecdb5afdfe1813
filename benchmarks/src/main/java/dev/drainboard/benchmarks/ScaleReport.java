package dev.drainboard.benchmarks;

import java.io.PrintStream;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The figures of one control plane benchmark run, as printed.
 *
 * @param secondsToAllRunning   from launching the controllers' JVM until the last VMI was seen Running
 * @param secondsFromLeader     from the controllers reporting they lead until the last VMI was seen Running
 * @param controllerHeapUsedMiB heap in use in the controllers' JVM after forced full GCs, all VMIs Running
 * @param clusterHeapUsedMiB    the same in the cluster's JVM (API server, kubelets, hypervisors, node handler)
 * @param controllerThreadCpu   CPU by thread kind in the controllers' JVM (whole life), see {@link ThreadCpu}
 * @param clusterThreadCpu      the same in the cluster's JVM during the run
 * @param requests              API requests made during the run, by {@code "verb resource"}
 */
public record ScaleReport(int nodes, int vmis, int vms, double scenarioLoadSeconds,
                          double secondsToAllRunning, double secondsFromLeader,
                          long controllerHeapUsedMiB, long controllerHeapCommittedMiB, long controllerHeapMaxMiB,
                          long controllerGcCount, long controllerGcMillis, double controllerCpuSeconds,
                          long clusterHeapBeforeMiB, long clusterHeapUsedMiB, double clusterCpuSeconds,
                          double loadAverageStart, double loadAverageEnd, List<String> controllerFigures,
                          Map<String, Long> requests, String controllerThreadCpu, String clusterThreadCpu) {

    public double vmisPerSecond() {
        return (vmis + vms) / secondsToAllRunning;
    }

    /** CPU seconds of both JVMs during the run, per VMI brought to Running. */
    public double cpuMillisPerVmi() {
        return (controllerCpuSeconds + clusterCpuSeconds) * 1000 / (vmis + vms);
    }

    /** API requests during the run (watches and lists included), per VMI brought to Running. */
    public double requestsPerVmi() {
        return requests.values().stream().mapToLong(Long::longValue).sum() / (double) (vmis + vms);
    }

    void print(PrintStream out) {
        out.println();
        out.println("== Control plane at scale ==");
        out.printf(Locale.ROOT, "scenario: %d nodes, %d VMIs (%d created directly, %d by the VM controller from VMs); loaded in %.1f s (not timed)%n",
                nodes, vmis + vms, vmis, vms, scenarioLoadSeconds);
        out.printf(Locale.ROOT, "all-Running: %.1f s from launching the controllers' JVM   (%.1f s from leading; goal <= 60 s)%n",
                secondsToAllRunning, secondsFromLeader);
        out.printf(Locale.ROOT, "throughput: %.0f VMIs/s%n", vmisPerSecond());
        out.printf(Locale.ROOT, "controllers' heap in use after GC: %d MiB   (committed %d MiB, -Xmx %d MiB; goal <= 512 MB)%n",
                controllerHeapUsedMiB, controllerHeapCommittedMiB, controllerHeapMaxMiB);
        out.printf(Locale.ROOT, "controllers' JVM: %.1f s CPU, %d GCs taking %d ms%n", controllerCpuSeconds, controllerGcCount, controllerGcMillis);
        out.printf(Locale.ROOT, "cluster JVM (API server, kubelets, hypervisors, node handler) heap after GC: %d MiB before the controllers, %d MiB at the end; %.1f s CPU during the run%n",
                clusterHeapBeforeMiB, clusterHeapUsedMiB, clusterCpuSeconds);
        int total = vmis + vms;
        out.printf(Locale.ROOT, "CPU per VMI: %.1f ms (controllers' JVM %.1f ms, cluster JVM %.1f ms)%n",
                cpuMillisPerVmi(), controllerCpuSeconds * 1000 / total, clusterCpuSeconds * 1000 / total);
        out.println("controllers' JVM CPU by thread: " + controllerThreadCpu);
        out.println("cluster JVM CPU by thread during the run: " + clusterThreadCpu);
        out.printf(Locale.ROOT, "API requests per VMI: %.2f%n", requestsPerVmi());
        requests.forEach((what, n) -> {
            if (n >= total / 10) {
                out.printf(Locale.ROOT, "  %-48s %8d  (%.2f per VMI)%n", what, n, n / (double) total);
            }
        });
        out.printf(Locale.ROOT, "load average (1 min): %.2f at start, %.2f at the end; %d processors%n",
                loadAverageStart, loadAverageEnd, Runtime.getRuntime().availableProcessors());
        for (String figure : controllerFigures) {
            out.println("controller " + figure);
        }
    }
}
