package dev.drainboard.handler;

import dev.drainboard.hypervisor.MigrationOptions;
import dev.drainboard.kubevirt.config.MigrationConfig;
import dev.drainboard.simulation.SimulationKnobs;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.time.Duration;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A time-scaled cluster's transfers: rates multiplied and KubeVirt's downtime and timeouts divided by the scale, so a
 * pre-copy migration converges (or not) as at real time, in 1/scale of the time.
 */
class MigrationSyncTimeScaleTest {

    @ParameterizedTest(name = "scale {0}")
    @CsvSource({"1", "10", "2.5", "100"})
    void ratesGoUpAndTimeoutsDownByTheScale(double scale) {
        long gib = 1L << 30;
        MigrationOptions real = MigrationSync.options(MigrationConfig.defaults(), Map.of(SimulationKnobs.LINK_SPEED, "512Mi"),
                Map.of(SimulationKnobs.MEMORY_DIRTY_RATE, "64Mi"), 2 * gib);
        MigrationOptions scaled = MigrationSync.options(MigrationConfig.defaults(), Map.of(SimulationKnobs.LINK_SPEED, "512Mi"),
                Map.of(SimulationKnobs.MEMORY_DIRTY_RATE, "64Mi"), 2 * gib, scale);

        assertThat(scaled.bandwidthBytesPerSecond()).isEqualTo(Math.round(512L * 1024 * 1024 * scale));
        assertThat(scaled.dirtyRateBytesPerSecond()).isEqualTo(Math.round(64L * 1024 * 1024 * scale));
        // KubeVirt's defaults: progress 150 s, 150 s per started GB (2 GiB = 3 GB), downtime 900 ms.
        assertThat(scaled.progressTimeout()).isEqualTo(seconds(150 / scale));
        assertThat(scaled.completionTimeout()).isEqualTo(seconds(450 / scale));
        assertThat(scaled.maxDowntime()).isEqualTo(seconds(0.9 / scale));
        // What decides convergence is unchanged: bytes per pass and what fits the downtime.
        assertThat((double) scaled.dirtyRateBytesPerSecond() / scaled.bandwidthBytesPerSecond())
                .isEqualTo((double) real.dirtyRateBytesPerSecond() / real.bandwidthBytesPerSecond());
        assertThat(scaled.bandwidthBytesPerSecond() * scaled.maxDowntime().toNanos() / 1e9)
                .isCloseTo(real.bandwidthBytesPerSecond() * real.maxDowntime().toNanos() / 1e9, org.assertj.core.data.Offset.offset(2.0));
    }

    private static Duration seconds(double s) {
        return Duration.ofNanos(Math.round(s * 1e9));
    }
}
