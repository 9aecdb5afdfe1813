package dev.drainboard.cluster.hypervisor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.drainboard.hypervisor.DomainDefinition;
import dev.drainboard.hypervisor.DomainState;
import dev.drainboard.hypervisor.MigrationOptions;
import dev.drainboard.hypervisor.MigrationProgress;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * The hypervisor's timing: boot, shutdown, the transfer's tick and the progress interval, each configurable and all
 * divided together by a benchmark that runs the simulated world faster.
 */
class HypervisorTimingTest {

    /** Records the delay of every task scheduled by the hypervisor: a transfer schedules each tick this way. */
    private final List<Long> delaysNanos = new CopyOnWriteArrayList<>();
    private final ScheduledThreadPoolExecutor timers = new ScheduledThreadPoolExecutor(1) {
        @Override
        public ScheduledFuture<?> schedule(Runnable command, long delay, TimeUnit unit) {
            delaysNanos.add(unit.toNanos(delay));
            return super.schedule(command, delay, unit);
        }
    };

    @AfterEach
    void stop() {
        timers.shutdownNow();
    }

    @Test
    void theDefaultsAreTheTickAndProgressIntervalTheModelWasWrittenFor() {
        SimulatedHypervisor.Timing defaults = SimulatedHypervisor.Timing.defaults();

        assertThat(defaults.bootDelay()).isEqualTo(Duration.ofMillis(100));
        assertThat(defaults.guestShutdownDelay()).isEqualTo(Duration.ofMillis(500));
        assertThat(defaults.tick()).isEqualTo(SimulatedHypervisor.TICK).isEqualTo(Duration.ofMillis(50));
        assertThat(defaults.progressInterval()).isEqualTo(SimulatedHypervisor.PROGRESS_INTERVAL).isEqualTo(Duration.ofMillis(250));
    }

    @Test
    void dividingTheTimingDividesEveryDuration() {
        SimulatedHypervisor.Timing scaled = SimulatedHypervisor.Timing.defaults().dividedBy(10);

        assertThat(scaled).isEqualTo(new SimulatedHypervisor.Timing(Duration.ofMillis(10), Duration.ofMillis(50),
                Duration.ofMillis(5), Duration.ofMillis(25)));
        assertThat(SimulatedHypervisor.Timing.defaults().dividedBy(1)).isEqualTo(SimulatedHypervisor.Timing.defaults());
    }

    @Test
    void aTickMustBePositiveAndAFactorAtLeastOne() {
        assertThatThrownBy(() -> new SimulatedHypervisor.Timing(Duration.ZERO, Duration.ZERO, Duration.ZERO, Duration.ZERO))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> SimulatedHypervisor.Timing.defaults().dividedBy(0)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aTransferAdvancesAtTheConfiguredTick() {
        SimulatedHypervisor.Timing timing = new SimulatedHypervisor.Timing(Duration.ZERO, Duration.ZERO,
                Duration.ofNanos(2_500_000), Duration.ofMillis(25));
        SimulatedHypervisor source = new SimulatedHypervisor("a", Clock.systemUTC(), timers, timing);
        SimulatedHypervisor target = new SimulatedHypervisor("b", Clock.systemUTC(), timers, timing);
        DomainDefinition d = new DomainDefinition("uid", "ns", "vm", 1L << 30, 30, Map.of());
        source.start(d); // a zero boot delay runs the guest at once
        assertThat(source.domain("uid").orElseThrow().state()).isEqualTo(DomainState.RUNNING);
        target.prepareIncoming(d);

        source.migrate("uid", target, new MigrationOptions(1L << 20, 0, Duration.ofMillis(300), Duration.ofSeconds(150),
                Duration.ofSeconds(150), false, false));

        // 1 GiB at 1 MiB/s: many ticks, each one tick after the last.
        Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> delaysNanos.size() >= 3);
        assertThat(delaysNanos).allMatch(delay -> delay == 2_500_000L);
    }

    @Test
    void aTransferEndsWhenItsLastByteIsSentNotAtTheNextTick() {
        SimulatedHypervisor.Timing timing = new SimulatedHypervisor.Timing(Duration.ZERO, Duration.ZERO,
                Duration.ofMillis(200), Duration.ofMillis(250));
        SimulatedHypervisor source = new SimulatedHypervisor("a", Clock.systemUTC(), timers, timing);
        SimulatedHypervisor target = new SimulatedHypervisor("b", Clock.systemUTC(), timers, timing);
        // 3 MiB at 10 MiB/s: 300 ms of transfer, one and a half ticks.
        DomainDefinition d = new DomainDefinition("uid", "ns", "vm", 3L << 20, 30, Map.of());
        source.start(d);
        target.prepareIncoming(d);

        source.migrate("uid", target, new MigrationOptions(10L << 20, 0, Duration.ofMillis(300), Duration.ofSeconds(150),
                Duration.ofSeconds(150), false, false));

        Awaitility.await().atMost(Duration.ofSeconds(30))
                .until(() -> source.migration("uid").orElseThrow().state() == MigrationProgress.State.COMPLETED);
        // The first tick comes one tick on; the second where the pass ends, sooner than a whole tick.
        assertThat(delaysNanos.getFirst()).isEqualTo(Duration.ofMillis(200).toNanos());
        assertThat(delaysNanos.get(1)).isPositive().isLessThan(Duration.ofMillis(200).toNanos());
        assertThat(delaysNanos).hasSize(2);
    }
}
