package dev.drainboard.controller.migration;

import dev.drainboard.kubevirt.KubeVirtDefaults;
import dev.drainboard.kubevirt.config.ClusterConfig;

import java.time.Duration;
import java.util.Objects;

/**
 * The migration controller's clocks (as in KubeVirt's {@code pkg/virt-controller/watch/migration/migration.go}): how
 * long a target pod may stay unschedulable or pending, and the first back-off after a failed evacuation migration
 * (doubling after each further failure). KubeVirt's values by default; tests shorten them. The per-VMIM annotations
 * {@code kubevirt.io/migrationUnschedulablePodTimeoutSeconds} and {@code kubevirt.io/migrationPendingPodTimeoutSeconds}
 * still win over these (divided by the time scale too).
 *
 * @param timeScale how many times faster than real time the cluster runs ({@code ClusterConfig.timeScale()}; 1 on a
 *                  real cluster): {@link #scaledBy} has divided the three durations by it, and {@link #scaled}
 *                  divides a per-VMIM override the same way
 */
public record MigrationTimings(Duration unschedulableTargetTimeout, Duration pendingTargetTimeout, Duration backoff,
                               double timeScale) {

    public MigrationTimings {
        Objects.requireNonNull(unschedulableTargetTimeout);
        Objects.requireNonNull(pendingTargetTimeout);
        Objects.requireNonNull(backoff);
        if (!(timeScale > 0)) {
            throw new IllegalArgumentException("time scale must be positive, got " + timeScale);
        }
    }

    public MigrationTimings(Duration unschedulableTargetTimeout, Duration pendingTargetTimeout, Duration backoff) {
        this(unschedulableTargetTimeout, pendingTargetTimeout, backoff, 1.0);
    }

    /**
     * These timings in a cluster running {@code scale} times faster than real time (from timings at scale 1; the
     * same timings when the scale is already {@code scale}).
     */
    public MigrationTimings scaledBy(double scale) {
        if (scale == timeScale) {
            return this;
        }
        double factor = scale / timeScale;
        return new MigrationTimings(ClusterConfig.scaled(unschedulableTargetTimeout, factor),
                ClusterConfig.scaled(pendingTargetTimeout, factor), ClusterConfig.scaled(backoff, factor), scale);
    }

    /** A real-time duration (a per-VMIM override) at this time scale. */
    public Duration scaled(Duration realTime) {
        return ClusterConfig.scaled(realTime, timeScale);
    }

    public static MigrationTimings defaults() {
        return new MigrationTimings(Duration.ofSeconds(KubeVirtDefaults.UNSCHEDULABLE_TARGET_POD_TIMEOUT_SECONDS),
                Duration.ofSeconds(KubeVirtDefaults.PENDING_TARGET_POD_TIMEOUT_SECONDS),
                Duration.ofSeconds(KubeVirtDefaults.MIGRATION_BACKOFF_SECONDS));
    }
}
