package dev.drainboard.cluster.hypervisor;

import dev.drainboard.hypervisor.Domain;
import dev.drainboard.hypervisor.DomainDefinition;
import dev.drainboard.hypervisor.DomainState;
import dev.drainboard.simulation.SimulationKnobs;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A time-scaled hypervisor: the VMIs' boot and shutdown knobs (real time) and its default timing are divided by the
 * scale; the transfer tick too, never below 5 ms; the progress interval stays.
 */
class HypervisorTimeScaleTest {

    private final ScheduledExecutorService timers = Executors.newSingleThreadScheduledExecutor();

    @AfterEach
    void stop() {
        timers.shutdownNow();
    }

    @Test
    void scalesTheTiming() {
        SimulatedHypervisor.Timing timing = new SimulatedHypervisor.Timing(Duration.ofSeconds(10), Duration.ofSeconds(30));
        SimulatedHypervisor.Timing scaled = timing.scaledBy(10);
        assertThat(scaled.bootDelay()).isEqualTo(Duration.ofSeconds(1));
        assertThat(scaled.guestShutdownDelay()).isEqualTo(Duration.ofSeconds(3));
        assertThat(scaled.tick()).isEqualTo(Duration.ofMillis(5));
        assertThat(scaled.progressInterval()).isEqualTo(timing.progressInterval());
        assertThat(timing.scaledBy(100).tick()).as("never finer than 5 ms").isEqualTo(Duration.ofMillis(5));
        assertThat(timing.scaledBy(1)).isSameAs(timing);
    }

    @Test
    void aBootKnobIsRealTimeDividedByTheScale() {
        SimulatedHypervisor h = new SimulatedHypervisor("n", Clock.systemUTC(), timers,
                SimulatedHypervisor.Timing.defaults().scaledBy(10), 10);
        Instant asked = Instant.now();
        h.start(new DomainDefinition("uid", "ns", "vm", 1L << 30, 30, Map.of(SimulationKnobs.BOOT_DELAY, "10s")));
        await().atMost(Duration.ofSeconds(9)).until(() -> h.domain("uid").map(Domain::state).orElse(null) == DomainState.RUNNING);
        Duration boot = Duration.between(asked, h.domain("uid").orElseThrow().startedAt());
        // 10 s of real time is 1 s here (the timer may fire late on a loaded machine, never early).
        assertThat(boot).isBetween(Duration.ofSeconds(1), Duration.ofSeconds(9));
    }

    @Test
    void knobsKeepNeverAndIgnoreMalformedValues() {
        Map<String, String> never = Map.of(SimulationKnobs.GUEST_SHUTDOWN_DELAY, "never");
        assertThat(SimulatedHypervisor.knob(never, SimulationKnobs.GUEST_SHUTDOWN_DELAY, Duration.ofMillis(50), 10)).isNull();
        Map<String, String> bad = Map.of(SimulationKnobs.GUEST_SHUTDOWN_DELAY, "soon");
        assertThat(SimulatedHypervisor.knob(bad, SimulationKnobs.GUEST_SHUTDOWN_DELAY, Duration.ofMillis(50), 10)).isEqualTo(Duration.ofMillis(50));
        Map<String, String> thirty = Map.of(SimulationKnobs.GUEST_SHUTDOWN_DELAY, "30s");
        assertThat(SimulatedHypervisor.knob(thirty, SimulationKnobs.GUEST_SHUTDOWN_DELAY, Duration.ofMillis(50), 10)).isEqualTo(Duration.ofSeconds(3));
        assertThat(SimulatedHypervisor.knob(Map.of(), SimulationKnobs.GUEST_SHUTDOWN_DELAY, Duration.ofMillis(50), 10)).isEqualTo(Duration.ofMillis(50));
    }
}
