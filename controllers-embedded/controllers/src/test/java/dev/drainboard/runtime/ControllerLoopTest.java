package dev.drainboard.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The loop without informers: keys come from {@link ControllerLoop#enqueue}. */
class ControllerLoopTest {

    private ControllerLoop<String> loop;

    @AfterEach
    void closeLoop() {
        if (loop != null) {
            loop.close();
        }
    }

    @Test
    void reconcilesEveryQueuedKeyAndCountsIt() {
        Set<String> seen = ConcurrentHashMap.newKeySet();
        loop = ControllerLoop.<String>builder("test", key -> {
            seen.add(key);
            return Result.done();
        }).workers(2).build();
        assertThat(loop.figures().state()).isEqualTo(ControllerFigures.State.STOPPED);

        loop.start();
        loop.enqueue("a");
        loop.enqueue("b");
        loop.enqueue("c");

        await().until(() -> loop.figures().reconciles() == 3);
        ControllerFigures f = loop.figures();
        assertThat(seen).containsExactlyInAnyOrder("a", "b", "c");
        assertThat(f.state()).isEqualTo(ControllerFigures.State.RUNNING);
        assertThat(f.name()).isEqualTo("test");
        assertThat(f.workers()).isEqualTo(2);
        assertThat(f.errors()).isZero();
        assertThat(f.queueDepth()).isZero();
        assertThat(f.latency().counts().stream().mapToLong(Long::longValue).sum()).isEqualTo(3);
        assertThat(f.lastReconcileAt()).isNotNull();
    }

    @Test
    void aFailingKeyIsRetriedWithBackOffAndCountedAsErrors() {
        AtomicInteger attempts = new AtomicInteger();
        loop = ControllerLoop.<String>builder("flaky", key -> {
            int n = attempts.incrementAndGet();
            if (n == 1) {
                throw new IllegalStateException("conflict writing " + key);
            }
            return n == 2 ? Result.error(new RuntimeException("still failing")) : Result.done();
        }).build();
        loop.start();
        loop.enqueue("ns/vmi");

        await().until(() -> attempts.get() == 3);
        await().until(() -> loop.figures().reconciles() == 3);
        ControllerFigures f = loop.figures();
        assertThat(f.errors()).isEqualTo(2);
        assertThat(f.lastError()).isEqualTo("ns/vmi: still failing");
        assertThat(f.delayed()).isZero();
    }

    @Test
    void aWriteToAnObjectDeletedMeanwhileIsRetriedWithoutCountingAsAnError() {
        AtomicInteger attempts = new AtomicInteger();
        io.fabric8.kubernetes.client.KubernetesClientException gone = new io.fabric8.kubernetes.client.KubernetesClientException(
                new io.fabric8.kubernetes.api.model.StatusBuilder().withCode(404).withReason("NotFound")
                        .withMessage("virtualmachineinstancemigrations.kubevirt.io \"m1\" not found").build());
        loop = ControllerLoop.<String>builder("migrations", key -> attempts.incrementAndGet() == 1
                ? Result.error(gone) : Result.done()).build();
        loop.start();
        loop.enqueue("ns/m1");

        await().until(() -> loop.figures().reconciles() == 2);
        assertThat(loop.figures().errors()).isZero();
        assertThat(loop.figures().lastError()).isNull();
    }

    @Test
    void anApiErrorIsDescribedInOneLineWithoutTheStatusDump() {
        var status = new io.fabric8.kubernetes.api.model.StatusBuilder().withCode(404).withReason("NotFound")
                .withMessage("virtualmachineinstancemigrations.kubevirt.io \"m1\" not found").build();
        // As fabric8 words a failed request (OperationSupport.requestFailure): the whole Status at the end.
        io.fabric8.kubernetes.client.KubernetesClientException e = new io.fabric8.kubernetes.client.KubernetesClientException(
                "Failure executing: PATCH at: https://127.0.0.1:6443/apis/kubevirt.io/v1/namespaces/ns/"
                        + "virtualmachineinstancemigrations/m1. Message: " + status.getMessage() + ". Received status: "
                        + status + ".", 404, status);
        assertThat(ControllerLoop.describe(e))
                .isEqualTo("HTTP 404 NotFound: virtualmachineinstancemigrations.kubevirt.io \"m1\" not found");
        assertThat(ControllerLoop.describe(new IllegalStateException("plain"))).isEqualTo("plain");
    }

    @Test
    void requeueAndRequeueAfterComeBackWithoutCountingAsErrors() {
        AtomicInteger attempts = new AtomicInteger();
        loop = ControllerLoop.<String>builder("waiting", key -> switch (attempts.incrementAndGet()) {
            case 1 -> Result.requeue();
            case 2 -> Result.requeueAfter(Duration.ofMillis(30));
            default -> Result.done();
        }).build();
        loop.start();
        loop.enqueue("k");

        await().until(() -> loop.figures().reconciles() == 3);
        assertThat(loop.figures().requeues()).isEqualTo(2);
        assertThat(loop.figures().errors()).isZero();
    }

    @Test
    void oneKeyIsNeverReconciledByTwoWorkersAtOnce() {
        AtomicBoolean overlap = new AtomicBoolean();
        Set<String> inFlight = ConcurrentHashMap.newKeySet();
        AtomicInteger passes = new AtomicInteger();
        AtomicInteger events = new AtomicInteger();
        loop = ControllerLoop.<String>builder("busy", key -> {
            if (!inFlight.add(key)) {
                overlap.set(true);
            }
            passes.incrementAndGet();
            // Events for the same key arrive while it is being reconciled.
            for (int i = 0; i < 3 && events.get() < 200; i++) {
                events.incrementAndGet();
                loop.enqueue(key);
            }
            Thread.onSpinWait();
            inFlight.remove(key);
            return Result.done();
        }).workers(4).build();
        loop.start();
        loop.enqueue("same");
        loop.enqueue("other");

        await().until(() -> events.get() >= 200 && loop.figures().queueDepth() == 0 && loop.figures().inFlight() == 0);
        assertThat(overlap).isFalse();
        assertThat(passes.get()).as("re-added keys got further passes").isGreaterThan(2);
    }

    @Test
    void stopWaitsForThePassInFlightAndAStartedLoopCanBeStartedAgain() throws Exception {
        CountDownLatch entered = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        AtomicBoolean finished = new AtomicBoolean();
        Set<String> seen = ConcurrentHashMap.newKeySet();
        loop = ControllerLoop.<String>builder("restartable", key -> {
            seen.add(key);
            if (key.equals("slow")) {
                entered.countDown();
                release.await(10, TimeUnit.SECONDS);
                finished.set(true);
            }
            return Result.done();
        }).build();
        loop.start();
        loop.enqueue("slow");
        assertThat(entered.await(10, TimeUnit.SECONDS)).isTrue();

        Thread stopper = Thread.ofPlatform().start(loop::stop);
        await().until(() -> loop.figures().state() == ControllerFigures.State.STOPPED);
        assertThat(stopper.isAlive()).as("stop waits for the pass in flight").isTrue();
        release.countDown();
        stopper.join(10_000);
        assertThat(finished).isTrue();

        loop.enqueue("while-stopped");
        loop.start();
        loop.enqueue("after-restart");
        await().until(() -> seen.contains("after-restart"));
        assertThat(seen).doesNotContain("while-stopped");
    }
}
