package dev.drainboard.controller.migration;

import dev.drainboard.kubevirt.KubeVirtDefaults;

import java.time.Duration;
import java.util.Objects;

/**
 * The migration controller's clocks (as in KubeVirt's {@code pkg/virt-controller/watch/migration/migration.go}): how
 * long a target pod may stay unschedulable or pending, and the first back-off after a failed evacuation migration
 * (doubling after each further failure). KubeVirt's values by default; tests shorten them. The per-VMIM annotations
 * {@code kubevirt.io/migrationUnschedulablePodTimeoutSeconds} and {@code kubevirt.io/migrationPendingPodTimeoutSeconds}
 * still win over these.
 */
public record MigrationTimings(Duration unschedulableTargetTimeout, Duration pendingTargetTimeout, Duration backoff) {

    public MigrationTimings {
        Objects.requireNonNull(unschedulableTargetTimeout);
        Objects.requireNonNull(pendingTargetTimeout);
        Objects.requireNonNull(backoff);
    }

    public static MigrationTimings defaults() {
        return new MigrationTimings(Duration.ofSeconds(KubeVirtDefaults.UNSCHEDULABLE_TARGET_POD_TIMEOUT_SECONDS),
                Duration.ofSeconds(KubeVirtDefaults.PENDING_TARGET_POD_TIMEOUT_SECONDS),
                Duration.ofSeconds(KubeVirtDefaults.MIGRATION_BACKOFF_SECONDS));
    }
}
