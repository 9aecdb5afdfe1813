package dev.drainboard.runtime;

import java.time.Duration;
import java.time.Instant;

/**
 * An immutable snapshot of one controller's figures, for the UI and logs.
 *
 * @param name            controller name
 * @param state           what the loop is doing
 * @param workers         worker threads configured
 * @param queueDepth      keys ready and waiting for a worker
 * @param delayed         keys held back by a delay or back-off
 * @param inFlight        keys being reconciled right now
 * @param reconciles      reconcile passes finished since the process started
 * @param errors          passes that failed (exception or {@link Result#error})
 * @param requeues        passes that asked to be retried or looked at later
 * @param lastLatency     duration of the latest pass, zero before the first
 * @param averageLatency  mean pass duration, zero before the first
 * @param latency         pass durations by bucket
 * @param lastError       message of the latest failure, or null
 * @param lastReconcileAt wall-clock end of the latest pass, or null
 */
public record ControllerFigures(
        String name,
        State state,
        int workers,
        int queueDepth,
        int delayed,
        int inFlight,
        long reconciles,
        long errors,
        long requeues,
        Duration lastLatency,
        Duration averageLatency,
        LatencyHistogram.Snapshot latency,
        String lastError,
        Instant lastReconcileAt) {

    public enum State {
        /** Not started, or stopped (e.g. this process is not the leader). */
        STOPPED,
        /** Started; workers wait until every informer has listed its objects. */
        WAITING_FOR_SYNC,
        RUNNING
    }
}
