package dev.drainboard.benchmarks;

import dev.drainboard.controlplane.ControlPlane;
import dev.drainboard.controlplane.Kubeconfigs;
import dev.drainboard.runtime.ControllerFigures;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Locale;

/**
 * The controllers alone in their own JVM, as {@code drainboard controllers --kubeconfig F} runs them (same
 * {@link ControlPlane}, with leader election), so that the heap they use can be read apart from the cluster's.
 * {@link ControlPlaneBenchmark} launches it and talks to it over stdin/stdout, one line each way (each line it
 * writes starts with {@value #REPLY}):
 * <ul>
 *   <li>out {@code started}, then {@code leader} once it leads (the controllers then wait for their caches);</li>
 *   <li>in {@code heap} → out {@code heap <used bytes after GC> <committed> <max> <gc count> <gc millis> <cpu nanos>} (GC and CPU
 *       figures taken before the forced collections);</li>
 *   <li>in {@code threads} → out {@code threads <kind>=<seconds>; ...}: CPU by thread kind ({@link ThreadCpu});</li>
 *   <li>in {@code figures} → out one {@code figure ...} line per controller, then {@code end};</li>
 *   <li>in {@code quit} (or end of input) → closes the control plane and exits.</li>
 * </ul>
 */
public final class ControllersProcess {

    /** Starts every line of the protocol: the JVM itself may print other lines (a JFR recording does). */
    static final String REPLY = "bench: ";

    private ControllersProcess() {
    }

    public static void main(String[] args) throws Exception {
        ControlPlane plane = ControlPlane.builder(Kubeconfigs.load(Path.of(args[0]), null)).build();
        plane.onLeadershipChange(leading -> {
            if (leading) {
                reply("leader");
            }
        });
        plane.start();
        reply("started");
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        String line;
        while ((line = in.readLine()) != null && !line.equals("quit")) {
            switch (line) {
                case "heap" -> reply(heap());
                case "threads" -> reply("threads " + ThreadCpu.describe(ThreadCpu.byKind(), 12));
                case "figures" -> {
                    for (ControllerFigures f : plane.figures()) {
                        reply(String.format(Locale.ROOT, "figure %s reconciles=%d errors=%d requeues=%d avgLatencyMs=%.2f queue=%d",
                                f.name(), f.reconciles(), f.errors(), f.requeues(), f.averageLatency().toNanos() / 1e6,
                                f.queueDepth() + f.delayed()));
                    }
                    reply("end");
                }
                default -> reply("unknown " + line);
            }
        }
        plane.close();
        System.exit(0);
    }

    /** GC figures and CPU time so far, then the heap in use after forced full collections. */
    private static String heap() {
        long gcs = 0;
        long gcMillis = 0;
        for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
            gcs += Math.max(0, gc.getCollectionCount());
            gcMillis += Math.max(0, gc.getCollectionTime());
        }
        long cpuNanos = ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean()).getProcessCpuTime();
        for (int i = 0; i < 3; i++) {
            System.gc();
        }
        var usage = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage();
        return "heap " + usage.getUsed() + " " + usage.getCommitted() + " " + usage.getMax() + " " + gcs + " " + gcMillis + " " + cpuNanos;
    }

    private static synchronized void reply(String line) {
        System.out.println(REPLY + line);
        System.out.flush();
    }
}
