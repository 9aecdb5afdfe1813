package dev.drainboard.ui.model;

import dev.drainboard.admission.EvictionWebhookServer;
import dev.drainboard.controlplane.ControlPlane;
import dev.drainboard.controlplane.LocalControlPlane;
import dev.drainboard.runtime.ControllerFigures;
import dev.drainboard.runtime.LeaderState;
import javafx.application.Platform;
import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Executor;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * The controllers this process runs for a connection, live: polls their figures, the leader state and the eviction
 * webhook once a second on its own thread and publishes immutable rows on the FX thread. Reconcile rates come from
 * the difference between successive totals, so the screen shows what the loops do now, not since start.
 */
public final class ControlPlaneStatus implements AutoCloseable {

    /** One poll's raw readings. {@code leader} is null when this process runs no controllers (Observe mode). */
    public record Reading(List<ControllerFigures> figures, LeaderState leader, WebhookStatus webhook) {
    }

    /** Reads the control plane; called on the polling thread. */
    @FunctionalInterface
    public interface Probe {
        Reading read();
    }

    private static final Duration PERIOD = Duration.ofSeconds(1);

    private final Probe probe;
    private final Executor fx;
    private final LongSupplier nanoTime;
    private final ObservableList<ControllerRow> controllers = FXCollections.observableArrayList();
    private final ReadOnlyObjectWrapper<Leadership> leadership;
    private final ReadOnlyObjectWrapper<WebhookStatus> webhook = new ReadOnlyObjectWrapper<>(WebhookStatus.NOT_SERVING);
    private final ObservableList<ControllerRow> readOnlyControllers = FXCollections.unmodifiableObservableList(controllers);
    private volatile ScheduledExecutorService poller;
    private volatile AutoCloseable leadershipListener;
    private Map<String, Long> previousTotals = Map.of();
    private long previousNanos;
    private volatile boolean closed;

    /** Polls this connection's control plane; with none, publishes Observe and no rows, and polls nothing. */
    public static ControlPlaneStatus start(Optional<LocalControlPlane> plane) {
        if (plane.isEmpty()) {
            return new ControlPlaneStatus(() -> new Reading(List.of(), null, WebhookStatus.NOT_SERVING),
                    Platform::runLater, System::nanoTime, Leadership.OBSERVING);
        }
        LocalControlPlane local = plane.get();
        // Until the first poll lands: standing for leader, nobody known yet (not "Observe").
        Leadership initial = local.controllers().isPresent()
                ? new Leadership(Leadership.Role.STANDBY, "", "", "") : Leadership.OBSERVING;
        ControlPlaneStatus status = new ControlPlaneStatus(() -> read(local), Platform::runLater, System::nanoTime, initial);
        status.poller = Executors.newSingleThreadScheduledExecutor(
                Thread.ofPlatform().daemon().name("control-plane-status").factory());
        status.poller.scheduleWithFixedDelay(status::pollQuietly, 0, PERIOD.toMillis(), TimeUnit.MILLISECONDS);
        local.controllers().ifPresent(status::followLeadership);
        return status;
    }

    /**
     * A status that polls only when {@link #poll()} is called (tests).
     *
     * @param fx       where the rows are published (the FX thread, or the caller's thread in tests)
     * @param nanoTime monotonic clock the rates are measured with
     */
    ControlPlaneStatus(Probe probe, Executor fx, LongSupplier nanoTime, Leadership initial) {
        this.probe = probe;
        this.fx = fx;
        this.nanoTime = nanoTime;
        this.leadership = new ReadOnlyObjectWrapper<>(initial);
    }

    /** A change of leader shows at once rather than at the next poll. */
    private void followLeadership(ControlPlane plane) {
        leadershipListener = plane.onLeadershipChange(leader -> {
            try {
                poller.execute(this::pollQuietly);
            } catch (RejectedExecutionException closedMeanwhile) {
                // nothing left to show it on
            }
        });
    }

    private static Reading read(LocalControlPlane local) {
        List<ControllerFigures> figures = new ArrayList<>();
        LeaderState leader = null;
        WebhookStatus webhook = WebhookStatus.NOT_SERVING;
        Optional<ControlPlane> controllers = local.controllers();
        if (controllers.isPresent()) {
            figures.addAll(controllers.get().figures());
            leader = controllers.get().leaderState();
            webhook = controllers.get().evictionWebhook().map(ControlPlaneStatus::webhook).orElse(WebhookStatus.NOT_SERVING);
        }
        local.nodeHandler().ifPresent(h -> figures.add(h.figures()));
        return new Reading(figures, leader, webhook);
    }

    private static WebhookStatus webhook(EvictionWebhookServer server) {
        try {
            return new WebhookStatus(true, server.url(), server.answered(), server.malformed(),
                    server.callers().authenticated(), server.callers().describe(server.bindAddress()));
        } catch (IllegalStateException stoppedMeanwhile) {
            return WebhookStatus.NOT_SERVING;
        }
    }

    private void pollQuietly() {
        try {
            poll();
        } catch (RuntimeException e) {
            // A control plane closing under us: the next poll (or close) settles it; the screen keeps the last rows.
        }
    }

    /** One poll: read, compute rates against the previous poll, publish. */
    void poll() {
        if (closed) {
            return;
        }
        Reading reading = probe.read();
        long now = nanoTime.getAsLong();
        long elapsed = previousTotals.isEmpty() ? 0 : now - previousNanos;
        List<ControllerRow> rows = rows(reading.figures(), previousTotals, elapsed);
        Map<String, Long> totals = new HashMap<>();
        reading.figures().forEach(f -> totals.put(f.name(), f.reconciles()));
        previousTotals = totals;
        previousNanos = now;
        Leadership leader = Leadership.of(reading.leader());
        WebhookStatus hook = reading.webhook();
        fx.execute(() -> {
            if (closed) {
                return;
            }
            controllers.setAll(rows);
            leadership.set(leader);
            webhook.set(hook);
        });
    }

    /** Rows for this poll's figures; a loop not seen in the previous poll shows no rate yet. */
    static List<ControllerRow> rows(List<ControllerFigures> figures, Map<String, Long> previousTotals, long elapsedNanos) {
        return figures.stream().map(f -> new ControllerRow(f.name(), f.state().name(), f.workers(), f.queueDepth(),
                f.delayed(), f.inFlight(), f.reconciles(),
                perSecond(previousTotals.get(f.name()), f.reconciles(), elapsedNanos), f.errors(),
                f.lastError() == null ? "" : f.lastError(), f.averageLatency(), f.lastReconcileAt(),
                !f.name().equals("node-handler"))).toList();
    }

    /**
     * Passes per second between two totals taken {@code elapsedNanos} apart; 0 with no previous total, no time
     * elapsed, or a total that went down (a loop restarted with fresh figures).
     */
    static double perSecond(Long previousTotal, long total, long elapsedNanos) {
        if (previousTotal == null || elapsedNanos <= 0 || total < previousTotal) {
            return 0;
        }
        return (total - previousTotal) * 1e9 / elapsedNanos;
    }

    /** The loops, in the order the control plane lists them (node handler last). FX thread only. */
    public ObservableList<ControllerRow> controllers() {
        return readOnlyControllers;
    }

    public ReadOnlyObjectProperty<Leadership> leadership() {
        return leadership.getReadOnlyProperty();
    }

    public ReadOnlyObjectProperty<WebhookStatus> webhook() {
        return webhook.getReadOnlyProperty();
    }

    @Override
    public void close() {
        closed = true;
        if (leadershipListener != null) {
            try {
                leadershipListener.close();
            } catch (Exception ignored) {
                // the control plane is closing too
            }
        }
        if (poller != null) {
            poller.shutdownNow();
        }
    }
}
