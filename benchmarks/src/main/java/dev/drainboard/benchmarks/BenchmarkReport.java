package dev.drainboard.benchmarks;

import java.io.PrintStream;
import java.util.Locale;

/** The figures of one benchmark run, as printed. */
public record BenchmarkReport(int objectsCreated, double createsPerSecond, double createCpuMicros,
                              double getP50Millis, double getP99Millis, double getCpuMicros, double singleThreadGetP50Millis,
                              int listedPods, double listMedianMillis, double listMaxMillis,
                              double watchP50Millis, double watchP99Millis, int watchers,
                              long heapBeforeLoadMiB, long heapAfterLoadMiB, int churnUpdates, long heapAfterChurnMiB) {

    void print(PrintStream out, BenchmarkSizes sizes) {
        out.println();
        out.println("== Embedded API server benchmark ==");
        out.printf(Locale.ROOT, "creates/s: %.0f   (%d objects: %d nodes, %d pods, %d widgets; %d threads; goal >= 2000)%n",
                createsPerSecond, objectsCreated, sizes.nodes(), sizes.pods(), sizes.customObjects(), sizes.threads());
        out.printf(Locale.ROOT, "GET p50: %.3f ms   p99: %.3f ms   (%d GETs, %d threads; goal p50 <= 1 ms)%n",
                getP50Millis, getP99Millis, sizes.gets(), sizes.threads());
        out.printf(Locale.ROOT, "GET p50, 1 thread: %.3f ms%n", singleThreadGetP50Millis);
        out.printf(Locale.ROOT, "CPU per request (server + client, all cores): create %.0f us, GET %.0f us%n",
                createCpuMicros, getCpuMicros);
        out.printf(Locale.ROOT, "list %d pods in one namespace: median %.1f ms   max %.1f ms   (%d runs; goal <= 20 ms)%n",
                listedPods, listMedianMillis, listMaxMillis, sizes.listRuns());
        out.printf(Locale.ROOT, "write to %d watchers: p50 %.2f ms   p99 %.2f ms   (%d writes; goal p99 <= 10 ms)%n",
                watchers, watchP50Millis, watchP99Millis, sizes.watchWrites());
        out.printf(Locale.ROOT, "heap used after GC: %d MiB after start, %d MiB with everything stored%n",
                heapBeforeLoadMiB, heapAfterLoadMiB);
        out.printf(Locale.ROOT, "heap used after GC after %d more pod updates (old versions kept in the watch log): %d MiB%n",
                churnUpdates, heapAfterChurnMiB);
    }
}
