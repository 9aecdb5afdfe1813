package dev.drainboard.kubevirt;

/**
 * The reasons of the events KubeVirt's controllers and virt-handler record, as {@code kubectl get events} shows them.
 * The reasons of Drainboard's own events are in {@link DrainboardEvents}.
 */
public final class KubeVirtEventReasons {

    private KubeVirtEventReasons() {
    }

    public static final String SUCCESSFUL_CREATE = "SuccessfulCreate";
    public static final String FAILED_CREATE = "FailedCreate";
    public static final String SUCCESSFUL_DELETE = "SuccessfulDelete";
    public static final String FAILED_DELETE = "FailedDelete";
    public static final String SUCCESSFUL_UPDATE = "SuccessfulUpdate";
    public static final String FAILED_UPDATE = "FailedUpdate";
    public static final String SUCCESSFUL_HAND_OVER = "SuccessfulHandOver";
    public static final String FAILED_HAND_OVER = "FailedHandOver";
    public static final String SUCCESSFUL_MIGRATION = "SuccessfulMigration";
    public static final String FAILED_MIGRATION = "FailedMigration";
    public static final String MIGRATION_BACKOFF = "MigrationBackoff";
    public static final String MIGRATION_TARGET_POD_UNSCHEDULABLE = "migrationTargetPodUnschedulable";
    public static final String SUCCESSFUL_ABORT_MIGRATION = "SuccessfulAbortMigration";
    public static final String FAILED_ABORT_MIGRATION = "FailedAbortMigration";
    public static final String SUCCESSFUL_PAUSED = "SuccessfulPaused";
    public static final String SUCCESSFUL_RESUMED = "SuccessfulResumed";
    /** virt-handler: migrated, or "evictable but not migratable" (Warning). */
    public static final String MIGRATED = "Migrated";
    public static final String SHUTTING_DOWN = "ShuttingDown";
    public static final String DELETED = "Deleted";
    /** virt-handler: domain defined, guest started, guest off (shut down or crashed). */
    public static final String CREATED = "Created";
    public static final String STARTED = "Started";
    public static final String STOPPED = "Stopped";
}
