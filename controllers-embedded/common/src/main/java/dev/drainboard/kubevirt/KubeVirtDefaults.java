package dev.drainboard.kubevirt;

/**
 * Numbers KubeVirt defaults to: the grace periods of {@code pkg/virt-controller/services/template.go}, the
 * controllers' burst and thread counts, and the migration controller's timeouts, garbage collection and back-off
 * ({@code pkg/virt-controller/watch/migration/migration.go}).
 */
public final class KubeVirtDefaults {

    private KubeVirtDefaults() {
    }

    public static final long GRACE_PERIOD_SECONDS = 30;
    /** Added to the VMI grace period for virt-launcher's monitor, and again for the pod. */
    public static final long LAUNCHER_GRACE_PADDING_SECONDS = 15;
    public static final int BURST_REPLICAS = 250;
    public static final int CONTROLLER_THREADS = 3;
    public static final long UNSCHEDULABLE_TARGET_POD_TIMEOUT_SECONDS = 300;
    public static final long PENDING_TARGET_POD_TIMEOUT_SECONDS = 900;
    public static final int FINALIZED_MIGRATIONS_KEPT = 5;
    public static final long MIGRATION_BACKOFF_SECONDS = 20;
}
