package dev.drainboard.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.Test;

class WorkQueueTest {

    private final FakeTicker ticker = new FakeTicker();
    private final WorkQueue<String> queue = new WorkQueue<>(RateLimiters.controllerDefault(ticker), ticker);

    private List<String> drain() {
        List<String> out = new ArrayList<>();
        for (Optional<String> k = queue.poll(); k.isPresent(); k = queue.poll()) {
            out.add(k.get());
        }
        return out;
    }

    @Test
    void aKeyAddedTwiceWhileWaitingIsHandedOutOnce() {
        queue.add("a");
        queue.add("b");
        queue.add("a");

        assertThat(queue.len()).isEqualTo(2);
        assertThat(drain()).containsExactly("a", "b");
    }

    @Test
    void aKeyBeingProcessedIsNotHandedOutAgainUntilDone() {
        queue.add("a");
        assertThat(queue.poll()).contains("a");

        queue.add("a");
        queue.add("a");
        assertThat(queue.poll()).as("a is still being processed").isEmpty();
        assertThat(queue.processing()).isEqualTo(1);

        queue.done("a");
        assertThat(queue.poll()).as("the change seen meanwhile gets one more pass").contains("a");
        queue.done("a");
        assertThat(queue.poll()).isEmpty();
    }

    @Test
    void doneWithoutReAddDoesNotRequeue() {
        queue.add("a");
        queue.poll();
        queue.done("a");

        assertThat(queue.poll()).isEmpty();
        assertThat(queue.processing()).isZero();
    }

    @Test
    void addAfterHoldsTheKeyUntilItsTime() {
        queue.addAfter("a", Duration.ofSeconds(5));

        assertThat(queue.poll()).isEmpty();
        assertThat(queue.delayed()).isEqualTo(1);
        ticker.advance(Duration.ofMillis(4999));
        assertThat(queue.poll()).isEmpty();
        ticker.advance(Duration.ofMillis(1));
        assertThat(queue.poll()).contains("a");
        assertThat(queue.delayed()).isZero();
    }

    @Test
    void addAfterTwiceKeepsTheEarlierTime() {
        queue.addAfter("late-then-early", Duration.ofSeconds(10));
        queue.addAfter("late-then-early", Duration.ofSeconds(1));
        queue.addAfter("early-then-late", Duration.ofSeconds(1));
        queue.addAfter("early-then-late", Duration.ofSeconds(10));

        assertThat(queue.delayed()).isEqualTo(2);
        ticker.advance(Duration.ofSeconds(1));
        assertThat(drain()).containsExactlyInAnyOrder("late-then-early", "early-then-late");
        ticker.advance(Duration.ofSeconds(10));
        assertThat(drain()).as("nothing left over from the later times").isEmpty();
    }

    @Test
    void aDelayedKeyThatIsAlsoAddedNowIsHandedOutOnce() {
        queue.addAfter("a", Duration.ofSeconds(1));
        queue.add("a");
        assertThat(queue.poll()).contains("a");

        ticker.advance(Duration.ofSeconds(1));
        assertThat(queue.poll()).as("still processing: the delayed add waits for done").isEmpty();
        queue.done("a");
        assertThat(queue.poll()).contains("a");
    }

    @Test
    void zeroDelayAddsAtOnce() {
        queue.addAfter("a", Duration.ZERO);
        assertThat(queue.poll()).contains("a");
    }

    @Test
    void rateLimitedRetriesBackOffExponentiallyUntilForgotten() {
        List<Duration> expected = List.of(Duration.ofMillis(5), Duration.ofMillis(10), Duration.ofMillis(20), Duration.ofMillis(40));
        for (Duration delay : expected) {
            queue.addRateLimited("a");
            ticker.advance(delay.minusNanos(1));
            assertThat(queue.poll()).as("held back for %s", delay).isEmpty();
            ticker.advance(Duration.ofNanos(1));
            assertThat(queue.poll()).contains("a");
            queue.done("a");
        }
        assertThat(queue.numRequeues("a")).isEqualTo(4);

        queue.forget("a");
        assertThat(queue.numRequeues("a")).isZero();
        queue.addRateLimited("a");
        ticker.advance(Duration.ofMillis(5));
        assertThat(queue.poll()).as("back to the base delay").contains("a");
    }

    @Test
    void afterShutDownNothingIsHandedOutAndAddsAreIgnored() {
        queue.add("a");
        queue.shutDown();
        queue.add("b");
        queue.addAfter("c", Duration.ofSeconds(1));

        assertThat(queue.isShuttingDown()).isTrue();
        assertThat(queue.poll()).isEmpty();
        assertThat(queue.delayed()).isZero();
    }

    @Test
    void aBlockedTakeWakesForAnAddAndForShutDown() throws Exception {
        WorkQueue<String> real = WorkQueue.withDefaults();
        AtomicReference<Optional<String>> taken = new AtomicReference<>();
        Thread worker = Thread.ofPlatform().start(() -> {
            try {
                taken.set(real.take());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        await().until(() -> worker.getState() == Thread.State.TIMED_WAITING || worker.getState() == Thread.State.WAITING);
        real.add("a");
        worker.join(5000);
        assertThat(taken.get()).contains("a");

        AtomicBoolean returned = new AtomicBoolean();
        Thread waiter = Thread.ofPlatform().start(() -> {
            try {
                returned.set(real.take().isEmpty());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        await().until(() -> waiter.getState() == Thread.State.TIMED_WAITING || waiter.getState() == Thread.State.WAITING);
        real.shutDown();
        waiter.join(5000);
        assertThat(returned).isTrue();
    }

    @Test
    void aBlockedTakeWakesWhenADelayedKeyFallsDue() throws Exception {
        WorkQueue<String> real = WorkQueue.withDefaults();
        real.addAfter("a", Duration.ofMillis(50));
        assertThat(real.take()).contains("a");
    }

    /** Many workers, many adds of few keys: no key is ever in two workers, and the last add is always seen. */
    @Test
    void concurrentWorkersNeverShareAKeyAndMissNoChange() throws Exception {
        WorkQueue<String> real = WorkQueue.withDefaults();
        Set<String> inFlight = ConcurrentHashMap.newKeySet();
        AtomicBoolean overlap = new AtomicBoolean();
        ConcurrentHashMap<String, Integer> lastSeenVersion = new ConcurrentHashMap<>();
        ConcurrentHashMap<String, Integer> version = new ConcurrentHashMap<>();
        List<Thread> workers = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            workers.add(Thread.ofPlatform().start(() -> {
                try {
                    for (Optional<String> k = real.take(); k.isPresent(); k = real.take()) {
                        String key = k.get();
                        if (!inFlight.add(key)) {
                            overlap.set(true);
                        }
                        lastSeenVersion.put(key, version.getOrDefault(key, 0)); // what this pass reads
                        Thread.onSpinWait();
                        inFlight.remove(key);
                        real.done(key);
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }));
        }
        List<String> keys = List.of("a", "b", "c", "d");
        for (int i = 1; i <= 20_000; i++) {
            String key = keys.get(i % keys.size());
            version.merge(key, 1, Integer::sum); // the change, then the event
            real.add(key);
        }
        await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> {
            for (String key : keys) {
                assertThat(lastSeenVersion.get(key)).as(key).isEqualTo(version.get(key));
            }
        });
        real.shutDown();
        for (Thread w : workers) {
            w.join(5000);
        }
        assertThat(overlap).as("a key was processed by two workers at once").isFalse();
    }
}
