package dev.drainboard.cluster.hypervisor;

import static org.assertj.core.api.Assertions.assertThat;

import dev.drainboard.hypervisor.MigrationOptions;
import dev.drainboard.hypervisor.MigrationProgress;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;

/**
 * The simulated pre-copy transfer in simulated time (50 ms ticks, as the hypervisor runs it): memory M sent at
 * bandwidth B while the guest dirties D; a pass ends, the next one re-sends what was dirtied, until the rest fits
 * in the allowed downtime; the completion and progress timeouts abort, or move to post-copy or pause the guest.
 */
@DisplayName("simulated live migration: the pre-copy transfer model")
class TransferModelTest {

    static final long MIB = 1L << 20;
    static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
    static final ScheduledExecutorService TIMERS = Executors.newSingleThreadScheduledExecutor();
    static final SimulatedHypervisor TARGET = new SimulatedHypervisor("node02", Clock.fixed(T0, ZoneOffset.UTC), TIMERS,
            SimulatedHypervisor.Timing.defaults());

    @AfterAll
    static void stop() {
        TIMERS.shutdownNow();
    }

    /** Runs the transfer tick by tick until it ends or {@code limit} passes; returns the last progress. */
    static MigrationProgress run(long memoryMib, long bandwidthMib, long dirtyMib, long completionSeconds,
                                 boolean postCopy, boolean disruption, Duration limit) {
        MigrationOptions options = new MigrationOptions(bandwidthMib * MIB, dirtyMib * MIB, Duration.ofMillis(300),
                Duration.ofSeconds(150), Duration.ofSeconds(completionSeconds), postCopy, disruption);
        SimulatedHypervisor.Transfer t = new SimulatedHypervisor.Transfer("uid", TARGET, options, memoryMib * MIB, T0);
        Instant now = T0;
        while (t.progress().state() == MigrationProgress.State.RUNNING && Duration.between(T0, now).compareTo(limit) < 0) {
            now = now.plus(SimulatedHypervisor.TICK);
            t.step(now);
        }
        return t.progress();
    }

    static double seconds(MigrationProgress p) {
        return Duration.between(p.startedAt(), p.endedAt()).toMillis() / 1000.0;
    }

    @ParameterizedTest(name = "[{index}] {0} MiB at {1} MiB/s dirtying {2} MiB/s, timeout {3} s, post-copy {4}, disruption {5} → {6} {7} after {8}-{9} s, ≥ {10} passes")
    @CsvSource({
            // memory, bandwidth, dirty, completion timeout, post-copy, disruption, end state, mode, min s, max s, passes
            "1024, 512,   0, 150, false, false, COMPLETED, PreCopy,   2.0,   2.1, 1",   // one pass: the default ~2 s
            "1024, 512,  64, 150, false, false, COMPLETED, PreCopy,   2.0,   2.1, 1",   // what was dirtied fits the 300 ms downtime
            "1024, 512, 200, 150, false, false, COMPLETED, PreCopy,   3.0,   3.2, 3",   // 1 GiB, 400 MiB, 156 MiB, then 61 MiB fits
            "4096, 512,   0, 150, false, false, COMPLETED, PreCopy,   8.0,   8.1, 1",   // size scales the time
            "1024, 512, 600,  10, false, false, FAILED,    PreCopy,  10.0,  10.1, 2",   // never fits: aborted at the timeout
            "1024, 512, 600,  10, true,  true,  COMPLETED, PostCopy, 10.0,  12.2, 2",   // post-copy finishes what is left
            "1024, 512, 600,  10, false, true,  COMPLETED, Paused,   10.0,  12.2, 2",   // the paused guest stops dirtying
            "1024, 512, 600,  10, true,  false, FAILED,    PreCopy,  10.0,  10.1, 2",   // post-copy needs disruption allowed
    })
    void transfers(long memory, long bandwidth, long dirty, long timeout, boolean postCopy, boolean disruption,
                   MigrationProgress.State state, String mode, double minSeconds, double maxSeconds, int passes) {
        MigrationProgress p = run(memory, bandwidth, dirty, timeout, postCopy, disruption, Duration.ofSeconds(60));
        assertThat(p.state()).isEqualTo(state);
        assertThat(p.mode()).isEqualTo(mode);
        assertThat(seconds(p)).isBetween(minSeconds, maxSeconds);
        assertThat(p.iteration()).isGreaterThanOrEqualTo(passes);
        if (state == MigrationProgress.State.COMPLETED) {
            assertThat(p.remainingBytes()).isZero();
            assertThat(p.processedBytes()).isGreaterThanOrEqualTo(memory * MIB);
        } else {
            assertThat(p.failureReason()).isEqualTo("Aborting migration: not completed after " + timeout + " seconds");
        }
    }

    @Test
    @DisplayName("no bandwidth: nothing moves, aborted as stuck after the progress timeout")
    void stuck() {
        MigrationProgress p = run(1024, 0, 0, 10_000, false, false, Duration.ofMinutes(5));
        assertThat(p.state()).isEqualTo(MigrationProgress.State.FAILED);
        assertThat(p.failureReason()).isEqualTo("Aborting migration: stuck for 150 seconds");
        assertThat(p.processedBytes()).isZero();
    }

    @Test
    @DisplayName("remaining data grows again while the guest dirties faster than the link sends: progress must not assume it shrinks")
    void remainingCanGrow() {
        MigrationOptions options = new MigrationOptions(512 * MIB, 600 * MIB, Duration.ofMillis(300), Duration.ofSeconds(150),
                Duration.ofSeconds(150), false, false);
        SimulatedHypervisor.Transfer t = new SimulatedHypervisor.Transfer("uid", TARGET, options, 1024 * MIB, T0);
        Instant now = T0;
        long lowest = Long.MAX_VALUE;
        boolean grew = false;
        for (int i = 0; i < 200; i++) {
            now = now.plus(SimulatedHypervisor.TICK);
            t.step(now);
            long remaining = t.progress().remainingBytes();
            grew |= remaining > lowest;
            lowest = Math.min(lowest, remaining);
        }
        assertThat(grew).isTrue();
        assertThat(t.progress().iteration()).isGreaterThan(1);
        assertThat(t.progress().processedBytes()).isGreaterThan(1024 * MIB); // re-sent pages count as processed
    }
}
