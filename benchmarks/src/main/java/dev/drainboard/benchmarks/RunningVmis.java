package dev.drainboard.benchmarks;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.drainboard.cluster.EmbeddedCluster;
import dev.drainboard.cluster.apiserver.Json;
import dev.drainboard.cluster.apiserver.ResourceType;
import dev.drainboard.cluster.apiserver.store.ObjectStore;
import dev.drainboard.cluster.apiserver.store.WatchEvent;

import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Counts the VMIs whose {@code status.phase} is Running and notes when all of them are. It watches the embedded API
 * server's store in process, so it sees each change as it is committed and costs the measured run next to nothing
 * (an informer over HTTP would decode every VMI change once more in the cluster's JVM).
 */
final class RunningVmis implements AutoCloseable {

    private final int expected;
    /** Phase by {@code namespace/name} ("" when unset). */
    private final Map<String, String> phases = new ConcurrentHashMap<>();
    private final CountDownLatch allRunning = new CountDownLatch(1);
    private final ObjectStore.Subscription subscription;
    private int running; // guarded by the store's write lock: the sink is only called under it
    private volatile long allRunningAt;

    private RunningVmis(EmbeddedCluster cluster, int expected) {
        this.expected = expected;
        ResourceType vmis = cluster.api().registry().findByKind("kubevirt.io", "VirtualMachineInstance")
                .orElseThrow(() -> new IllegalStateException("the VirtualMachineInstance CRD is not served"));
        this.subscription = cluster.store().watch(vmis, "", o -> true, null, this::onEvent);
    }

    /** Starts watching; every VMI that exists is counted at once. */
    static RunningVmis start(EmbeddedCluster cluster, int expected) {
        return new RunningVmis(cluster, expected);
    }

    private void onEvent(WatchEvent event) {
        ObjectNode vmi = event.object();
        String key = Json.namespace(vmi) + "/" + Json.name(vmi);
        String phase = event.type() == WatchEvent.Type.DELETED ? null : vmi.path("status").path("phase").asText("");
        String before = phase == null ? phases.remove(key) : phases.put(key, phase);
        if ("Running".equals(before)) {
            running--;
        }
        if ("Running".equals(phase)) {
            running++;
            if (running >= expected && allRunning.getCount() > 0) {
                allRunningAt = System.nanoTime();
                allRunning.countDown();
            }
        }
    }

    /** How many VMIs exist, by phase: for progress lines. */
    String phases() {
        Map<String, Integer> byPhase = new TreeMap<>();
        phases.values().forEach(p -> byPhase.merge(p.isEmpty() ? "(none)" : p, 1, Integer::sum));
        return phases.size() + " VMIs exist " + byPhase;
    }

    /** Waits until all are Running; returns the {@link System#nanoTime} at which the last one became Running. */
    long awaitAll(long timeout, TimeUnit unit) throws InterruptedException {
        if (!allRunning.await(timeout, unit)) {
            throw new IllegalStateException(phases() + "; not all " + expected + " Running after " + timeout + " " + unit);
        }
        return allRunningAt;
    }

    @Override
    public void close() {
        subscription.close();
    }
}
