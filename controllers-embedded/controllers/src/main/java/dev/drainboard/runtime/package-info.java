/**
 * The controller runtime every Drainboard controller is built on.
 *
 * <ul>
 *   <li>{@link dev.drainboard.runtime.WorkQueue}: de-duplicating queue; one key never in two workers;
 *       delays and rate-limited retries ({@link dev.drainboard.runtime.RateLimiters#controllerDefault}).</li>
 *   <li>{@link dev.drainboard.runtime.Expectations}: creations/deletions still to be seen in the caches.</li>
 *   <li>{@link dev.drainboard.runtime.ControllerLoop}: informer events → keys → workers →
 *       {@link dev.drainboard.runtime.Reconciler} → {@link dev.drainboard.runtime.Result}; workers start after
 *       the caches sync; {@link dev.drainboard.runtime.ControllerFigures} for the UI.</li>
 *   <li>{@link dev.drainboard.runtime.EventRecorder}: asynchronous core/v1 Events, repeats aggregated into count, bursts of similar events combined.</li>
 *   <li>{@link dev.drainboard.runtime.LeanWrites}: creates and patches whose answers are not decoded.</li>
 *   <li>{@link dev.drainboard.runtime.LeaderElection}: one leader per cluster on a Lease.</li>
 *   <li>{@link dev.drainboard.runtime.ControllerManager}: client, informers, recorders, election and controllers together.</li>
 * </ul>
 *
 * A controller package (e.g. {@code dev.drainboard.controller.vmi}) builds informers from
 * {@code manager.informers()}, a recorder from {@code manager.eventRecorder(EventComponents.VMI)},
 * and registers a {@code ControllerLoop} whose reconciler reads the caches, calls a pure decision
 * and applies its actions with patches.
 */
package dev.drainboard.runtime;
