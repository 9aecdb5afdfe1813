package dev.drainboard.ui.model;

import java.time.Duration;
import java.time.Instant;

/**
 * One control loop as the Controllers screen shows it: immutable, replaced every poll.
 *
 * @param name                 the loop's name ({@code vmi-controller}, {@code node-handler}, …)
 * @param state                {@code RUNNING}, {@code WAITING_FOR_SYNC} or {@code STOPPED}
 * @param workers              worker threads configured
 * @param queueDepth           keys ready and waiting for a worker
 * @param delayed              keys held back by a delay or back-off
 * @param inFlight             keys being reconciled right now
 * @param reconciles           passes finished since the process started
 * @param reconcilesPerSecond  passes finished per second over the latest poll interval
 * @param errors               passes that failed
 * @param lastError            message of the latest failure, or empty
 * @param averageLatency       mean pass duration, zero before the first
 * @param lastReconcileAt      end of the latest pass, or null
 * @param leaderElected        false for the node handler, which runs wherever its simulated nodes live
 */
public record ControllerRow(String name, String state, int workers, int queueDepth, int delayed, int inFlight,
                            long reconciles, double reconcilesPerSecond, long errors, String lastError,
                            Duration averageLatency, Instant lastReconcileAt, boolean leaderElected) {

    public boolean running() {
        return state.equals("RUNNING");
    }
}
