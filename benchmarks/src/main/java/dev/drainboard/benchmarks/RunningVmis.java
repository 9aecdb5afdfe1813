package dev.drainboard.benchmarks;

import dev.drainboard.kubevirt.api.VirtualMachineInstance;
import dev.drainboard.kubevirt.api.VmiPhase;
import dev.drainboard.runtime.Keys;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/** Counts the VMIs whose {@code status.phase} is Running, from an informer, and notes when all of them are. */
final class RunningVmis implements AutoCloseable {

    private final int expected;
    private final Set<String> running = ConcurrentHashMap.newKeySet();
    private final CountDownLatch allRunning = new CountDownLatch(1);
    private final SharedIndexInformer<VirtualMachineInstance> informer;
    private volatile long allRunningAt;

    private RunningVmis(KubernetesClient client, int expected) {
        this.expected = expected;
        this.informer = client.resources(VirtualMachineInstance.class).inAnyNamespace().inform(new ResourceEventHandler<>() {
            @Override
            public void onAdd(VirtualMachineInstance vmi) {
                seen(vmi);
            }

            @Override
            public void onUpdate(VirtualMachineInstance before, VirtualMachineInstance after) {
                seen(after);
            }

            @Override
            public void onDelete(VirtualMachineInstance vmi, boolean finalStateUnknown) {
                running.remove(Keys.of(vmi));
            }
        }, 0);
    }

    /** Starts the informer and returns once it has listed the VMIs. */
    static RunningVmis start(KubernetesClient client, int expected) {
        return new RunningVmis(client, expected);
    }

    private void seen(VirtualMachineInstance vmi) {
        String key = Keys.of(vmi);
        if (vmi.phase().orElse(null) == VmiPhase.RUNNING) {
            running.add(key);
            if (running.size() >= expected && allRunning.getCount() > 0) {
                allRunningAt = System.nanoTime();
                allRunning.countDown();
            }
        } else {
            running.remove(key);
        }
    }

    int running() {
        return running.size();
    }

    /** How many VMIs exist (in the informer's cache), by phase: for progress lines. */
    String phases() {
        java.util.Map<String, Integer> byPhase = new java.util.TreeMap<>();
        for (VirtualMachineInstance vmi : informer.getStore().list()) {
            byPhase.merge(vmi.phase().map(VmiPhase::value).orElse("(none)"), 1, Integer::sum);
        }
        return informer.getStore().list().size() + " VMIs exist " + byPhase;
    }

    /** Waits until all are Running; returns the {@link System#nanoTime} at which the last one was seen Running. */
    long awaitAll(long timeout, TimeUnit unit) throws InterruptedException {
        if (!allRunning.await(timeout, unit)) {
            throw new IllegalStateException(running.size() + " of " + expected + " VMIs Running after " + timeout + " " + unit);
        }
        return allRunningAt;
    }

    @Override
    public void close() {
        informer.close();
    }
}
