package dev.drainboard.cluster.churn;

import dev.drainboard.cluster.EmbeddedCluster;
import dev.drainboard.cluster.EmbeddedClusterOptions;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * An embedded cluster in its own JVM (started with a small {@code -Xmx} by {@link ChurnHeapTest}), and a small
 * admin hook on stdin: {@code heap} answers {@code HEAP <used after a full GC> <peak used since the last heap>}.
 */
public final class ChurnChild {

    private ChurnChild() {
    }

    public static void main(String[] args) throws Exception {
        Path dir = Files.createTempDirectory("drainboard-churn-");
        try (EmbeddedCluster cluster = EmbeddedCluster.start(EmbeddedClusterOptions.defaults()
                .withKubeconfigOut(dir.resolve("kubeconfig")))) {
            Path ca = Files.writeString(dir.resolve("ca.pem"), cluster.caPem());
            System.out.println("READY " + cluster.url() + " " + cluster.token() + " " + ca);
            System.out.flush();
            BufferedReader commands = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
            for (String line; (line = commands.readLine()) != null; ) {
                if (line.equals("heap")) {
                    long peak = peakAndReset();
                    System.gc();
                    long used = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
                    var log = cluster.store().changeLogUse();
                    System.out.println("HEAP " + used + " " + peak + " " + log.changes() + " " + log.bytes());
                    System.out.flush();
                }
            }
        }
    }

    private static long peakAndReset() {
        long peak = 0;
        for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
            if (pool.getType() == MemoryType.HEAP) {
                peak += pool.getPeakUsage().getUsed();
                pool.resetPeakUsage();
            }
        }
        return peak;
    }
}
