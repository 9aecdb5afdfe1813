package dev.drainboard.cluster.hypervisor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.drainboard.hypervisor.DomainDefinition;
import dev.drainboard.hypervisor.DomainState;
import dev.drainboard.hypervisor.MigrationOptions;
import dev.drainboard.hypervisor.MigrationProgress;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;

/**
 * Phase 1 of node-pressure eviction (docs/behaviour.md) in the simulated transfer: a guest that dirties memory faster
 * than the link sends it never converges by itself; auto-converge throttles it until it does; PauseBeforeKill pauses it
 * so the transfer ends before the instant it is given.
 */
class MigrationAssistTest {

    static final long MI = 1L << 20;
    /** Only guards against a hang: the transfers below move on the wall clock and end in seconds. */
    private static final Duration HANG_GUARD = Duration.ofSeconds(60);
    private final ScheduledExecutorService timers = Executors.newSingleThreadScheduledExecutor();
    private final SimulatedHypervisor source = new SimulatedHypervisor("a", Clock.systemUTC(), timers,
            new SimulatedHypervisor.Timing(Duration.ZERO, Duration.ofMillis(100)));
    private final SimulatedHypervisor target = new SimulatedHypervisor("b", Clock.systemUTC(), timers,
            new SimulatedHypervisor.Timing(Duration.ZERO, Duration.ofMillis(100)));

    @AfterEach
    void stop() {
        timers.shutdownNow();
    }

    /** 64 MiB over 64 MiB/s while the guest dirties 80 MiB/s; 10 ms of downtime allowed. */
    private MigrationOptions hotGuest(boolean autoConverge, Instant pauseBy) {
        return new MigrationOptions(64 * MI, 80 * MI, Duration.ofMillis(10), Duration.ofSeconds(100), Duration.ofSeconds(100),
                false, false, autoConverge, pauseBy);
    }

    private MigrationProgress migrate(MigrationOptions options) {
        DomainDefinition d = new DomainDefinition("uid", "ns", "vm", 64 * MI, 30, Map.of());
        source.start(d);
        await().atMost(HANG_GUARD).until(() -> source.domain("uid").orElseThrow().state() == DomainState.RUNNING);
        target.prepareIncoming(d);
        source.migrate("uid", target, options);
        return source.migration("uid").orElseThrow();
    }

    @Test
    void withoutAnAssistAHotGuestNeverConverges() {
        migrate(hotGuest(false, null));
        await().atMost(HANG_GUARD).until(() -> source.migration("uid").orElseThrow().iteration() >= 4);
        MigrationProgress p = source.migration("uid").orElseThrow();
        assertThat(p.state()).isEqualTo(MigrationProgress.State.RUNNING);
        assertThat(p.mode()).isEqualTo("PreCopy");
    }

    @Test
    void autoConvergeThrottlesTheGuestUntilItConverges() {
        migrate(hotGuest(true, null));
        await().atMost(HANG_GUARD).until(() -> source.migration("uid").orElseThrow().isFinished());
        MigrationProgress p = source.migration("uid").orElseThrow();
        assertThat(p.state()).isEqualTo(MigrationProgress.State.COMPLETED);
        assertThat(p.mode()).isEqualTo("PreCopy");
        assertThat(source.domain("uid").orElseThrow().state()).isEqualTo(DomainState.SHUTOFF);
    }

    @Test
    void pauseBeforeKillPausesTheGuestSoTheTransferEndsInTime() {
        // On simulated time, tick by tick as the hypervisor runs it: on the wall clock a tick delayed by a loaded
        // machine moved the end, so the deadline could only be checked with a guessed allowance.
        Instant start = Instant.parse("2026-01-01T00:00:00Z");
        Instant pauseBy = start.plusMillis(2500);
        SimulatedHypervisor.Transfer t = new SimulatedHypervisor.Transfer("uid", target, hotGuest(false, pauseBy), 64 * MI, start);
        Instant now = start;
        while (t.progress().state() == MigrationProgress.State.RUNNING && now.isBefore(start.plusSeconds(60))) {
            now = now.plus(SimulatedHypervisor.TICK);
            t.step(now);
        }
        MigrationProgress p = t.progress();
        assertThat(p.state()).isEqualTo(MigrationProgress.State.COMPLETED);
        assertThat(p.mode()).isEqualTo("Paused");
        assertThat(p.iteration()).as("it kept the guest running for some passes first").isGreaterThan(1);
        // The pause is decided, and the end seen, on a tick: the transfer ends within one tick of the instant.
        assertThat(p.endedAt()).isBeforeOrEqualTo(pauseBy.plus(SimulatedHypervisor.TICK));
    }
}
