package dev.drainboard.runtime;

import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.function.Supplier;

/** For tests in any package: what a running controller loop has got through. */
public final class ControllerLoops {

    private ControllerLoops() {
    }

    /**
     * Waits until a running controller loop has nothing to do right now: no key ready and no pass in flight. Keys
     * held back by a delay or a back-off do not count; they are later passes.
     *
     * <p>Idle alone proves nothing: before an informer has even delivered a change, the loop is idle too. Use it after
     * a marker, a change made <em>after</em> the one under test whose effect shows that the loop took the marker's
     * key. The informer hands changes of one type to the loop in the order of the watch, and the {@link WorkQueue}
     * hands keys out first in, first out, so every key queued before the marker's was taken before it; once the loop
     * is idle, those passes are over too. A check that something did not happen, made then, is about a decision the
     * controller took, not about a head start it had not used yet.
     */
    public static void awaitIdle(Supplier<ControllerFigures> figures, Duration atMost) {
        await().atMost(atMost).until(() -> {
            ControllerFigures f = figures.get();
            return f.state() == ControllerFigures.State.RUNNING && f.queueDepth() == 0 && f.inFlight() == 0;
        });
    }
}
