package dev.drainboard.controller.migration;

import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/** KubeVirt's target-pod timeouts and back-off in a time-scaled cluster. */
class MigrationTimingsScaleTest {

    @Test
    void dividesEveryTimingByTheScaleOnce() {
        MigrationTimings real = MigrationTimings.defaults();
        MigrationTimings scaled = real.scaledBy(10);
        assertThat(scaled.unschedulableTargetTimeout()).isEqualTo(real.unschedulableTargetTimeout().dividedBy(10));
        assertThat(scaled.pendingTargetTimeout()).isEqualTo(real.pendingTargetTimeout().dividedBy(10));
        assertThat(scaled.backoff()).isEqualTo(real.backoff().dividedBy(10));
        assertThat(scaled.scaledBy(10)).as("asking again changes nothing").isSameAs(scaled);
        assertThat(scaled.scaledBy(1)).isEqualTo(real);
        assertThat(real.scaledBy(1)).isSameAs(real);
        // A per-VMIM override (real seconds) is scaled the same way.
        assertThat(scaled.scaled(Duration.ofSeconds(30))).isEqualTo(Duration.ofSeconds(3));
    }
}
