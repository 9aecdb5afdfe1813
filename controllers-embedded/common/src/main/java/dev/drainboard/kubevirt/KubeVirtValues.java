package dev.drainboard.kubevirt;

/**
 * Values KubeVirt writes into spec and status fields and names it gives objects: generateNames, printable statuses,
 * migration priorities and modes, the eviction webhook's registration.
 */
public final class KubeVirtValues {

    private KubeVirtValues() {
    }

    /** generateName of the VMIMs the evacuation controller creates. */
    public static final String EVACUATION_MIGRATION_GENERATE_NAME = "kubevirt-evacuation-";
    /** generateName of the VMIMs {@code virtctl migrate} creates. */
    public static final String VIRTCTL_MIGRATE_GENERATE_NAME = "kubevirt-migrate-vm-";
    /** Legacy (≤ v1.5) PDB generateNames. */
    public static final String DISRUPTION_BUDGET_GENERATE_NAME = "kubevirt-disruption-budget-";
    public static final String LEGACY_MIGRATION_PDB_GENERATE_NAME = "kubevirt-migration-pdb-";
    /** Launcher pods: {@code virt-launcher-<vmi>-}. */
    public static final String LAUNCHER_POD_PREFIX = "virt-launcher-";
    public static final String LAUNCHER_COMPUTE_CONTAINER = "compute";
    /** Readiness gate on launcher pods. */
    public static final String READINESS_GATE_UNPAUSED = "kubevirt.io/virtual-machine-unpaused";
    /** Image of the compute container (never pulled by the simulated kubelets). */
    public static final String LAUNCHER_IMAGE = "quay.io/kubevirt/virt-launcher:v1.5.0";

    /** {@code vm.status.printableStatus}, the STATUS column of {@code kubectl get vm}. */
    public static final String VM_STATUS_STOPPED = "Stopped";
    public static final String VM_STATUS_STARTING = "Starting";
    public static final String VM_STATUS_RUNNING = "Running";
    public static final String VM_STATUS_PAUSED = "Paused";
    public static final String VM_STATUS_MIGRATING = "Migrating";
    public static final String VM_STATUS_STOPPING = "Stopping";
    public static final String VM_STATUS_TERMINATING = "Terminating";
    public static final String VM_STATUS_UNSCHEDULABLE = "ErrorUnschedulable";
    public static final String VM_STATUS_UNKNOWN = "Unknown";

    /** VMIM {@code spec.priority}. */
    public static final String PRIORITY_SYSTEM_CRITICAL = "system-critical";
    public static final String PRIORITY_USER_TRIGGERED = "user-triggered";
    public static final String PRIORITY_SYSTEM_MAINTENANCE = "system-maintenance";

    /**
     * Where the migration controller's queue puts a VMIM of each {@code spec.priority} (KubeVirt's
     * {@code QueuePrioritySystemCritical} … {@code QueuePriorityDefault} in pkg/util/migrations/migrations.go): 100,
     * 50, 20; no priority or an unknown one 0.
     */
    public static int queuePriority(String priority) {
        if (priority == null) {
            return 0;
        }
        return switch (priority) {
            case PRIORITY_SYSTEM_CRITICAL -> 100;
            case PRIORITY_USER_TRIGGERED -> 50;
            case PRIORITY_SYSTEM_MAINTENANCE -> 20;
            default -> 0;
        };
    }

    /**
     * The feature gate of the migration priority queue in KubeVirt v1.7–v1.8 (beta in 1.8, off unless listed);
     * GA and always on from v1.9 (pkg/virt-config/featuregate/active.go).
     */
    public static final String MIGRATION_PRIORITY_QUEUE_GATE = "MigrationPriorityQueue";

    /** The service account virt-controller runs as, in KubeVirt's install namespace (components/serviceaccountnames.go). */
    public static final String CONTROLLER_SERVICE_ACCOUNT = "kubevirt-controller";

    /** {@code status.migrationState.mode}. */
    public static final String MIGRATION_MODE_PRE_COPY = "PreCopy";
    public static final String MIGRATION_MODE_POST_COPY = "PostCopy";
    public static final String MIGRATION_MODE_PAUSED = "Paused";
    /** {@code status.migrationState.abortStatus}. */
    public static final String ABORT_STATUS_ABORTING = "Aborting";
    public static final String ABORT_STATUS_SUCCEEDED = "Succeeded";
    /** {@code status.migrationState.failureReason} when the target pod went away. */
    public static final String FAILURE_REASON_TARGET_POD_DOWN = "Target pod is down";

    /** Eviction webhook registration. */
    public static final String WEBHOOK_CONFIGURATION_NAME = "virt-api-validator";
    public static final String LAUNCHER_EVICTION_WEBHOOK = "virt-launcher-eviction-interceptor.kubevirt.io";
    public static final int WEBHOOK_TIMEOUT_SECONDS = 10;
    /** HTTP code of every eviction denial. */
    public static final int DENIAL_CODE = 429;

    /** Install namespace of KubeVirt (where its KubeVirt CR lives). */
    public static final String DEFAULT_INSTALL_NAMESPACE = "kubevirt";
}
