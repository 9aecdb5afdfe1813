package dev.drainboard.cluster.hypervisor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.drainboard.hypervisor.DomainDefinition;
import dev.drainboard.hypervisor.DomainState;
import dev.drainboard.hypervisor.MigrationOptions;
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

    /** Records the period of every fixed-rate task: the transfer's tick. */
    private final List<Long> periodsNanos = new CopyOnWriteArrayList<>();
    private final ScheduledThreadPoolExecutor timers = new ScheduledThreadPoolExecutor(1) {
        @Override
        public ScheduledFuture<?> scheduleAtFixedRate(Runnable command, long initialDelay, long period, TimeUnit unit) {
            periodsNanos.add(unit.toNanos(period));
            return super.scheduleAtFixedRate(command, initialDelay, period, unit);
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

        assertThat(periodsNanos).containsExactly(2_500_000L);
    }
}
