package dev.drainboard.ui.model;

import dev.drainboard.runtime.ControllerFigures;
import dev.drainboard.runtime.LeaderState;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class ControlPlaneStatusTest {

    private static final long SECOND = 1_000_000_000L;

    @ParameterizedTest(name = "{0} -> {1} over {2} ns = {3}/s")
    @CsvSource(nullValues = "null", value = {
            "null, 40, 1000000000, 0",      // first poll: no previous total, no rate yet
            "10,   10, 1000000000, 0",      // idle
            "10,   40, 1000000000, 30",
            "10,   40, 2000000000, 15",     // a late poll spreads the passes over the time that really passed
            "10,   13,  500000000, 6",
            "40,   10, 1000000000, 0",      // a loop restarted with fresh figures: no negative rate
            "10,   40,          0, 0",      // no time elapsed
    })
    void reconcileRateIsTheDifferenceOfTotalsOverElapsedTime(Long previous, long total, long elapsedNanos, double rate) {
        assertThat(ControlPlaneStatus.perSecond(previous, total, elapsedNanos)).isCloseTo(rate, within(1e-9));
    }

    @Test
    void successivePollsPublishRowsWithRatesAndTheLeader() {
        AtomicReference<ControlPlaneStatus.Reading> reading = new AtomicReference<>(reading(100, 5));
        AtomicLong clock = new AtomicLong(7 * SECOND);
        ControlPlaneStatus status = new ControlPlaneStatus(reading::get, Runnable::run, clock::get, Leadership.OBSERVING);

        status.poll();
        assertThat(status.controllers()).extracting(ControllerRow::name)
                .containsExactly("vmi-controller", "node-handler");
        assertThat(status.controllers()).allSatisfy(r -> assertThat(r.reconcilesPerSecond()).isZero());
        assertThat(status.leadership().get()).isEqualTo(new Leadership(Leadership.Role.LEADER, "me", "me", "kubevirt/drainboard"));

        reading.set(reading(160, 5));
        clock.addAndGet(2 * SECOND);
        status.poll();
        ControllerRow vmi = status.controllers().getFirst();
        assertThat(vmi.reconciles()).isEqualTo(160);
        assertThat(vmi.reconcilesPerSecond()).isCloseTo(30, within(1e-9));
        assertThat(vmi.lastError()).isEqualTo("boom");
        assertThat(vmi.leaderElected()).isTrue();
        ControllerRow handler = status.controllers().get(1);
        assertThat(handler.reconcilesPerSecond()).isZero();
        assertThat(handler.leaderElected()).isFalse();
    }

    @Test
    void noLeaderStateMeansObserveAndAnotherHolderMeansStandby() {
        assertThat(Leadership.of(null).role()).isEqualTo(Leadership.Role.OBSERVING);
        Leadership standby = Leadership.of(new LeaderState("me", false, "other-host_1234", "kubevirt/drainboard"));
        assertThat(standby.role()).isEqualTo(Leadership.Role.STANDBY);
        assertThat(standby.leader()).isEqualTo("other-host_1234");
        assertThat(Leadership.of(new LeaderState("me", false, null, "kubevirt/drainboard")).leader()).isEmpty();
    }

    private static ControlPlaneStatus.Reading reading(long vmiReconciles, long handlerReconciles) {
        return new ControlPlaneStatus.Reading(List.of(
                figures("vmi-controller", vmiReconciles, "boom"),
                figures("node-handler", handlerReconciles, null)),
                new LeaderState("me", true, "me", "kubevirt/drainboard"), WebhookStatus.NOT_SERVING);
    }

    private static ControllerFigures figures(String name, long reconciles, String lastError) {
        return new ControllerFigures(name, ControllerFigures.State.RUNNING, 2, 0, 0, 0, reconciles,
                lastError == null ? 0 : 1, 0, Duration.ZERO, Duration.ofMillis(3), null, lastError, null);
    }
}
