package dev.drainboard.kubevirt;

/**
 * Every label, annotation, finalizer, condition, event reason and user-visible message that KubeVirt's drain
 * path uses, with KubeVirt's exact text (kubevirt-behaviour.md, "Constants table" and "User-visible strings
 * table"). Operators and tools (the descheduler, alerts, runbooks) match on these strings, so they live in one
 * place and nothing else spells them out.
 *
 * <p>Messages with substitutions are {@link String#format} patterns; the {@code Messages} helpers fill them.
 */
public final class KubeVirtNames {

    private KubeVirtNames() {
    }

    public static final String GROUP = "kubevirt.io";
    public static final String VERSION = "v1";
    public static final String API_VERSION = GROUP + "/" + VERSION;

    /** Labels on pods, VMIs and VMIMs. */
    public static final class Labels {
        private Labels() {
        }

        /** {@code kubevirt.io}: the app label; its value says which component a pod is. */
        public static final String APP = "kubevirt.io";
        /** Value of {@link #APP} on launcher pods (source and migration target). */
        public static final String APP_VIRT_LAUNCHER = "virt-launcher";
        /** Value of {@link #APP} on hotplug attachment pods. */
        public static final String APP_HOTPLUG_DISK = "hotplug-disk";
        /** Launcher pods: the UID of the VMI they run. */
        public static final String CREATED_BY = "kubevirt.io/created-by";
        /** VMIs and launcher pods: the node the VMI runs on. */
        public static final String NODE_NAME = "kubevirt.io/nodeName";
        /** VMIs: the node a migration is moving them to; makes the target handler pick the VMI up. */
        public static final String MIGRATION_TARGET_NODE_NAME = "kubevirt.io/migrationTargetNodeName";
        /** Migration target pods: the UID of their VMIM. */
        public static final String MIGRATION_JOB_UID = "kubevirt.io/migrationJobUID";
        /** Legacy (≤ v1.5) PDBs expanded for a migration: the VMIM name. */
        public static final String MIGRATION_NAME = "kubevirt.io/migrationName";
        /** VMIMs: the VMI they migrate (set by the mutating webhook). */
        public static final String MIGRATION_SELECTOR = "kubevirt.io/vmi-name";
        /** Launcher pods: the VMI name, or a shortened hash of it when longer than 63 characters. */
        public static final String VMI_ID = "vmi.kubevirt.io/id";
        /** Launcher pods, deprecated: the sanitized hostname of the VM. */
        public static final String DEPRECATED_VM_NAME = "vm.kubevirt.io/name";
        /** Launcher pods whose image is older than the installed KubeVirt. */
        public static final String OUTDATED_LAUNCHER_IMAGE = "kubevirt.io/outdatedLauncherImage";
        /** VMIMs created for a volume update. */
        public static final String VOLUME_UPDATE_MIGRATION = "kubevirt.io/volume-update-migration";
        /** CRDs that belong to KubeVirt (value {@code ""}). */
        public static final String CRD_COMPONENT = "kubevirt.io";
        /** The KubeVirt CRD itself belongs to the operator (value {@code ""}). */
        public static final String OPERATOR_COMPONENT = "operator.kubevirt.io";
    }

    /** Annotations on pods, VMIs, VMIMs and Evictions. */
    public static final class Annotations {
        private Annotations() {
        }

        /** Launcher pods: the name of the VMI they run. The eviction webhook reads it. */
        public static final String DOMAIN = "kubevirt.io/domain";
        /** Migration target pods: the name of their VMIM. */
        public static final String MIGRATION_JOB_NAME = "kubevirt.io/migrationJobName";
        /** Evacuation VMIMs: the node being evacuated. */
        public static final String EVACUATION_MIGRATION = "kubevirt.io/evacuationMigration";
        /** Workload-update VMIMs (value {@code ""}). */
        public static final String WORKLOAD_UPDATE_MIGRATION = "kubevirt.io/workloadUpdateMigration";
        /** VMIs: who asked for the eviction; value {@link #EVICTION_SOURCE_DESCHEDULER}. */
        public static final String EVICTION_SOURCE = "kubevirt.io/eviction-source";
        public static final String EVICTION_SOURCE_DESCHEDULER = "descheduler";
        /** VMIMs exempt from the migration back-off (KubeVirt's functional tests). */
        public static final String IGNORE_MIGRATION_BACKOFF = "kubevirt.io/func-test-ignore-migration-backoff";
        /** Migration target pods: when the target domain became ready. */
        public static final String MIGRATION_TARGET_READY_TIMESTAMP = "kubevirt.io/migration-target-ready-timestamp";
        /** VMIMs: override of the 300 s unschedulable-target timeout. */
        public static final String MIGRATION_UNSCHEDULABLE_POD_TIMEOUT_SECONDS = "kubevirt.io/migrationUnschedulablePodTimeoutSeconds";
        /** VMIMs: override of the 900 s pending-target timeout. */
        public static final String MIGRATION_PENDING_POD_TIMEOUT_SECONDS = "kubevirt.io/migrationPendingPodTimeoutSeconds";
        /** Launcher pods: the migration transport is a unix socket (value {@code "true"}). */
        public static final String MIGRATION_TRANSPORT_UNIX = "kubevirt.io/migrationTransportUnix";
        /** Launcher pods: kubectl's default container (value {@link #DEFAULT_CONTAINER_COMPUTE}). */
        public static final String KUBECTL_DEFAULT_CONTAINER = "kubectl.kubernetes.io/default-container";
        public static final String DEFAULT_CONTAINER_COMPUTE = "compute";
        /** Target pods: memory overhead the launcher reported. */
        public static final String MEMORY_OVERHEAD_BYTES = "kubevirt.io/memory-overhead-bytes";
        /** Prefixes of VMI annotations that are not copied onto the launcher pod. */
        public static final String KUBECTL_PREFIX = "kubectl.kubernetes.io";
        public static final String STORAGE_OBSERVED_API_VERSION = "kubevirt.io/storage-observed-api-version";
        public static final String LATEST_OBSERVED_API_VERSION = "kubevirt.io/latest-observed-api-version";

        /** Launcher pods (value {@code ""}): the descheduler should only request evictions, KubeVirt migrates. */
        public static final String DESCHEDULER_REQUEST_EVICT_ONLY = "descheduler.alpha.kubernetes.io/request-evict-only";
        /** Launcher pods of a VMI marked for eviction (value {@code "true"}). */
        public static final String DESCHEDULER_EVICTION_IN_PROGRESS = "descheduler.alpha.kubernetes.io/eviction-in-progress";
        public static final String DESCHEDULER_EVICTION_IN_PROGRESS_VALUE = "true";
        /** On an Eviction object: who sent it; value {@link #REQUESTED_BY_DESCHEDULER}. */
        public static final String REQUESTED_BY = "requested-by";
        public static final String REQUESTED_BY_DESCHEDULER = "sigs.k8s.io/descheduler";
    }

    /** Drainboard's own simulation knobs for the embedded cluster; documented in docs/. */
    public static final class Simulation {
        private Simulation() {
        }

        /** VMIs: {@code "false"} makes the node handler report {@code LiveMigratable=False}, reason NotMigratable. */
        public static final String LIVE_MIGRATABLE = "sim.drainboard.dev/live-migratable";
        /** VMIs: how long the simulated guest takes to boot (Go duration). */
        public static final String BOOT_DELAY = "sim.drainboard.dev/boot-delay";
        /** VMIs: how long the simulated guest takes to power off after an ACPI shutdown; {@code never} ignores ACPI. */
        public static final String GUEST_SHUTDOWN_DELAY = "sim.drainboard.dev/guest-shutdown-delay";
        /** Pods: time from creation until the simulated kubelet runs the pod. */
        public static final String POD_START_DELAY = "sim.drainboard.dev/start-delay";
        /** Pods: time the pod's process takes to exit after SIGTERM. */
        public static final String POD_SHUTDOWN_DELAY = "sim.drainboard.dev/shutdown-delay";
        /** Nodes: bytes per second a live migration out of this node moves (a quantity, e.g. {@code 512Mi}). */
        public static final String LINK_SPEED = "sim.drainboard.dev/link-speed";
        /** VMIs: bytes per second the guest dirties while it migrates (a quantity, e.g. {@code 64Mi}); default 0. */
        public static final String MEMORY_DIRTY_RATE = "sim.drainboard.dev/memory-dirty-rate";

        // Node-pressure eviction (docs/embedded-cluster.md): the simulated kubelet's eviction configuration per
        // node, in the kubelet's own flag syntax, and the memory the node's usage is made of.
        /** Nodes: {@code --eviction-soft}, e.g. {@code memory.available<3500Mi} (or a percentage of capacity). */
        public static final String EVICTION_SOFT = "sim.drainboard.dev/eviction-soft";
        /** Nodes: {@code --eviction-soft-grace-period}, e.g. {@code memory.available=5s}. */
        public static final String EVICTION_SOFT_GRACE_PERIOD = "sim.drainboard.dev/eviction-soft-grace-period";
        /** Nodes: {@code --eviction-max-pod-grace-period} in seconds, e.g. {@code 300}. */
        public static final String EVICTION_MAX_POD_GRACE_PERIOD = "sim.drainboard.dev/eviction-max-pod-grace-period";
        /** Nodes: {@code --eviction-hard}, e.g. {@code memory.available<10Mi}. */
        public static final String EVICTION_HARD = "sim.drainboard.dev/eviction-hard";
        /** Nodes: {@code --eviction-pressure-transition-period} (Go duration; the kubelet's default is 5m). */
        public static final String EVICTION_PRESSURE_TRANSITION_PERIOD = "sim.drainboard.dev/eviction-pressure-transition-period";
        /** Nodes: memory used outside pods (system daemons, a leak…), a quantity; raise it to push a node over. */
        public static final String SYSTEM_MEMORY_USAGE = "sim.drainboard.dev/system-memory-usage";
        /** Pods: the memory the pod uses, a quantity; default its memory request (a launcher: its guest + overhead). */
        public static final String POD_MEMORY_USAGE = "sim.drainboard.dev/memory-usage";
    }

    /** Drainboard's own annotations, beyond KubeVirt's (documented in docs/controllers.md). */
    public static final class Drainboard {
        private Drainboard() {
        }

        /** VMIMs: why the migration exists, one of the {@code CAUSE_*} values (or a producer's own words). */
        public static final String MIGRATION_CAUSE = "drainboard.dev/migration-cause";
        /** VMIs: why they were marked for evacuation, set by whoever marks them; copied into the VMIM's cause. */
        public static final String EVACUATION_CAUSE = "drainboard.dev/evacuation-cause";
        /** VMIMs: the live transfer's progress as JSON, written by the source node's handler a few times a second. */
        public static final String MIGRATION_PROGRESS = "drainboard.dev/migration-progress";

        public static final String CAUSE_API_EVICTION = "API eviction";
        public static final String CAUSE_NODE_DRAIN_TAINT = "node drain taint";
        public static final String CAUSE_NODE_PRESSURE = "node-pressure eviction";
        public static final String CAUSE_DESCHEDULER = "descheduler eviction";
        public static final String CAUSE_USER_REQUEST = "user request";

        /**
         * VMIs: when the kubelet is expected to kill the launcher of a VMI that a node-pressure eviction turned into
         * an evacuation (RFC 3339); written by the node handler when it marks the VMI, gone once it has migrated.
         */
        public static final String NODE_PRESSURE_DEADLINE = "drainboard.dev/node-pressure-deadline";
        /**
         * VMIs: the VM was lost to a node-pressure eviction (the kubelet killed its launcher before the migration
         * finished); the value says on which node and when. Set by the node handler; the console shows it.
         */
        public static final String LOST_TO_NODE_PRESSURE = "drainboard.dev/lost-to-node-pressure";
        /**
         * KubeVirt CR: seed 002's phase 1, how a node-pressure migration is helped to finish before the kill, one of
         * {@code None} (default), {@code AutoConverge}, {@code PauseBeforeKill}. Read live.
         */
        public static final String NODE_PRESSURE_MIGRATION_ASSIST = "drainboard.dev/node-pressure-migration-assist";
    }

    public static final class Finalizers {
        private Finalizers() {
        }

        /** VMIMs, added by the mutating webhook, removed when the migration is final. */
        public static final String MIGRATION_JOB = "kubevirt.io/migrationJobFinalize";
        /** VMIs, removed once no launcher pod is left. */
        public static final String FOREGROUND_DELETE_VIRTUAL_MACHINE = "kubevirt.io/foregroundDeleteVirtualMachine";
    }

    /** Condition types and the reasons KubeVirt gives them. */
    public static final class Conditions {
        private Conditions() {
        }

        // VMI condition types
        public static final String LIVE_MIGRATABLE = "LiveMigratable";
        public static final String EVICTION_REQUESTED = "EvictionRequested";
        public static final String MIGRATION_REQUIRED = "MigrationRequired";
        public static final String READY = "Ready";
        public static final String PAUSED = "Paused";
        public static final String PROVISIONING = "Provisioning";
        public static final String POD_SCHEDULED = "PodScheduled";
        public static final String HOT_VCPU_CHANGE = "HotVCPUChange";
        public static final String HOT_MEMORY_CHANGE = "HotMemoryChange";
        public static final String STORAGE_LIVE_MIGRATABLE = "StorageLiveMigratable";

        // VMIM condition types
        public static final String MIGRATION_ABORT_REQUESTED = "migrationAbortRequested";
        public static final String MIGRATION_REJECTED_BY_RESOURCE_QUOTA = "migrationRejectedByResourceQuota";
        public static final String MIGRATION_BLOCKED_BY_UTILITY_VOLUMES = "migrationBlockedByUtilityVolumes";
        public static final String MIGRATION_BLOCKED_BY_BACKUP = "migrationBlockedByBackup";
        public static final String DECENTRALIZED_MIGRATION_BLOCKED = "decentralizedMigrationBlocked";

        // VMIRS condition types
        public static final String REPLICA_FAILURE = "ReplicaFailure";
        public static final String REPLICA_PAUSED = "ReplicaPaused";

        public static final String STATUS_TRUE = "True";
        public static final String STATUS_FALSE = "False";
        public static final String STATUS_UNKNOWN = "Unknown";

        // Reasons of LiveMigratable=False, in the order the node handler checks them
        public static final String REASON_INTERFACE_NOT_LIVE_MIGRATABLE = "InterfaceNotLiveMigratable";
        public static final String REASON_CPU_MODE_LIVE_MIGRATABLE = "CPUModeLiveMigratable";
        public static final String REASON_HOST_DEVICE_NOT_LIVE_MIGRATABLE = "HostDeviceNotLiveMigratable";
        public static final String REASON_SEV_NOT_LIVE_MIGRATABLE = "SEVNotLiveMigratable";
        public static final String REASON_TDX_NOT_LIVE_MIGRATABLE = "TDXNotLiveMigratable";
        public static final String REASON_SECURE_EXECUTION_NOT_LIVE_MIGRATABLE = "SecureExecutionNotLiveMigratable";
        public static final String REASON_NO_TSC_FREQUENCY_NOT_LIVE_MIGRATABLE = "NoTSCFrequencyNotLiveMigratable";
        public static final String REASON_HYPERV_PASSTHROUGH_NOT_LIVE_MIGRATABLE = "HypervPassthroughNotLiveMigratable";
        public static final String REASON_DISKS_NOT_LIVE_MIGRATABLE = "DisksNotLiveMigratable";
        public static final String REASON_HOTPLUG_NOT_LIVE_MIGRATABLE = "HotplugNotLiveMigratable";
        public static final String REASON_VIRTIOFS_NOT_LIVE_MIGRATABLE = "VirtIOFSNotLiveMigratable";
        public static final String REASON_NOT_MIGRATABLE = "NotMigratable";
        public static final String REASON_PERSISTENT_RESERVATION_NOT_LIVE_MIGRATABLE = "PersistentReservationNotLiveMigratable";
        public static final String REASON_DECENTRALIZED_NOT_LIVE_MIGRATABLE = "DecentralizedNotLiveMigratable";

        /** Reasons of a VM's {@code Ready=False} when there is nothing to copy from a VMI. */
        public static final String REASON_VMI_NOT_EXISTS = "VMINotExists";
        public static final String REASON_VMI_CONDITION_MISSING = "VMIConditionMissing";
        /** Reason of {@code EvictionRequested=True}. */
        public static final String REASON_EVICTION_REQUESTED = "EvictionRequested";
        /** Reason of {@code Ready=False} while the launcher pod terminates (the VMIRS counts such VMIs as finished). */
        public static final String REASON_POD_TERMINATING = "PodTerminating";
        /** Reason of {@code ReplicaPaused=True}. */
        public static final String REASON_PAUSED = "Paused";
        /**
         * Reasons of {@code ReplicaFailure=True}. KubeVirt writes {@code FailedCreate}/{@code FailedDelete}; the VMIRS
         * design document (seed 004) spells them {@code FailureCreate}/{@code FailureDelete} in its examples only.
         */
        public static final String REASON_FAILED_CREATE = "FailedCreate";
        public static final String REASON_FAILED_DELETE = "FailedDelete";
        /** What Drainboard's VMIRS controller writes: seed 004's spelling, since the seeds win for the default. */
        public static final String REASON_FAILURE_CREATE = "FailureCreate";
        public static final String REASON_FAILURE_DELETE = "FailureDelete";
        public static final String REASON_BACKUP_IN_PROGRESS = "BackupInProgress";
        public static final String REASON_UTILITY_VOLUMES_PRESENT = "UtilityVolumesPresent";
    }

    /** Event reasons, as {@code kubectl get events} shows them. */
    public static final class EventReasons {
        private EventReasons() {
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
        public static final String BACKUP_ABORTED_FOR_MIGRATION = "BackupAbortedForMigration";
        public static final String BACKUP_ABORT_FAILED = "BackupAbortFailed";
        public static final String UTILITY_VOLUME_MIGRATION_PENDING = "UtilityVolumeMigrationPending";
        /** virt-handler: migrated, or "evictable but not migratable" (Warning). */
        public static final String MIGRATED = "Migrated";
        public static final String SHUTTING_DOWN = "ShuttingDown";
        public static final String DELETED = "Deleted";
        /** virt-handler: domain defined, guest started, guest off (shut down or crashed). */
        public static final String CREATED = "Created";
        public static final String STARTED = "Started";
        public static final String STOPPED = "Stopped";
        /** Drainboard's node handler: a node-pressure eviction is turned into a live migration (Normal). */
        public static final String NODE_PRESSURE_EVACUATION = "NodePressureEvacuation";
        /** Drainboard's node handler: the VM was killed by a node-pressure eviction before it could migrate (Warning). */
        public static final String LOST_TO_NODE_PRESSURE = "LostToNodePressure";
    }

    /** Values written into spec and status fields. */
    public static final class Values {
        private Values() {
        }

        /** generateName of the VMIMs the evacuation controller creates. */
        public static final String EVACUATION_MIGRATION_GENERATE_NAME = "kubevirt-evacuation-";
        public static final String WORKLOAD_UPDATE_MIGRATION_GENERATE_NAME = "kubevirt-workload-update-";
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

        /** {@code status.migrationTransport}. */
        public static final String MIGRATION_TRANSPORT_UNIX = "Unix";
        /** {@code status.migrationState.mode}. */
        public static final String MIGRATION_MODE_PRE_COPY = "PreCopy";
        public static final String MIGRATION_MODE_POST_COPY = "PostCopy";
        public static final String MIGRATION_MODE_PAUSED = "Paused";
        /** {@code status.migrationState.abortStatus}. */
        public static final String ABORT_STATUS_ABORTING = "Aborting";
        public static final String ABORT_STATUS_SUCCEEDED = "Succeeded";
        public static final String ABORT_STATUS_FAILED = "Failed";
        /** {@code status.migrationState.failureReason} when the target pod went away. */
        public static final String FAILURE_REASON_TARGET_POD_DOWN = "Target pod is down";
        /** {@code status.migrationMethod}. */
        public static final String MIGRATION_METHOD_BLOCK = "BlockMigration";
        public static final String MIGRATION_METHOD_LIVE = "LiveMigration";

        /** Eviction webhook registration. */
        public static final String WEBHOOK_CONFIGURATION_NAME = "virt-api-validator";
        public static final String LAUNCHER_EVICTION_WEBHOOK = "virt-launcher-eviction-interceptor.kubevirt.io";
        public static final String HOTPLUG_EVICTION_WEBHOOK = "hotplug-pod-eviction-interceptor.kubevirt.io";
        public static final String POD_EVICTION_VALIDATE_PATH = "/pod-eviction-validate";
        public static final String VIRT_API_SERVICE = "virt-api";
        public static final int WEBHOOK_TIMEOUT_SECONDS = 10;
        /** HTTP code of every eviction denial. */
        public static final int DENIAL_CODE = 429;

        /** The feature gate of seed 002 (node-pressure eviction → live migration). */
        public static final String FEATURE_GATE_NODE_PRESSURE_EVICTION_LIVE_MIGRATION = "NodePressureEvictionLiveMigration";
        public static final String FEATURE_GATE_MIGRATION_PRIORITY_QUEUE = "MigrationPriorityQueue";

        /** Install namespace of KubeVirt (where its KubeVirt CR lives). */
        public static final String DEFAULT_INSTALL_NAMESPACE = "kubevirt";
    }

    /** Numbers KubeVirt defaults to. */
    public static final class Defaults {
        private Defaults() {
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
        public static final long MAX_DOWNTIME_MS = 900;
    }

    /** User-visible messages: denials, events, condition messages. */
    public static final class Messages {
        private Messages() {
        }

        // eviction admitter (429 denials)
        public static final String EVICTION_TRIGGERED_EVACUATION = "Eviction triggered evacuation of VMI \"%s/%s\"";
        public static final String EVACUATION_IN_PROGRESS = "Evacuation in progress: " + EVICTION_TRIGGERED_EVACUATION;
        public static final String NOT_LIVE_MIGRATABLE = "VMI %s is configured with an eviction strategy but is not live-migratable";
        public static final String EVICTION_OF_TARGET_POD = "Eviction request for target Pod";
        public static final String FAILED_GETTING_VMI = "kubevirt failed getting the vmi: %s";
        public static final String FAILED_MARKING_VMI = "kubevirt failed marking the vmi for eviction: %s";
        public static final String FAILED_PARSING_EVICTION = "failed to parse the eviction object: %s";
        public static final String FAILED_GETTING_HOTPLUG_OWNER = "failed getting owner for hotplug pod: %s";
        public static final String CANNOT_EVICT_HOTPLUG_POD = "cannot evict hotplug pod: %s associated with running vmi: %s in namespace %s";
        /** How the API server reports a webhook denial to the evicting client. */
        public static final String WEBHOOK_DENIED = "admission webhook \"%s\" denied the request: %s";

        // evacuate/cancel
        public static final String NODE_HAS_DRAIN_TAINT = "Node \"%s\" has NodeDrainTaintKey \"%s\"";

        // evacuation controller (events on the VMI)
        public static final String CREATED_MIGRATION = "Created Migration %s";
        public static final String ERROR_CREATING_MIGRATION = "Error creating a Migration: %s";
        /** ≤ v1.8 legacy throttling: Normal event, reason FailedCreate. */
        public static final String VMI_NOT_MIGRATEABLE = "VirtualMachineInstance is not migrateable";

        // disruption budget controller
        public static final String DELETED_PDB = "Deleted PodDisruptionBudget %s";
        public static final String ERROR_DELETING_PDB = "Error deleting the PodDisruptionBudget %s: %s";
        public static final String CREATED_PDB = "Created PodDisruptionBudget %s";
        public static final String ERROR_CREATING_PDB = "Error creating a PodDisruptionBudget: %s";
        public static final String EXPANDED_PDB = "Expanded PodDisruptionBudget %s";
        public static final String ERROR_EXPANDING_PDB = "Error expanding the PodDisruptionBudget %s: %s";
        public static final String SHRANK_PDB = "shrank PodDisruptionBudget %s";
        public static final String ERROR_SHRINKING_PDB = "Error shrinking the PodDisruptionBudget %s: %s";
        public static final String NO_PDB_PROTECTING_VMI = "Found no PDB protecting the vmi %s";

        // migration admission
        public static final String IN_FLIGHT_MIGRATION = "in-flight migration detected. Active migration job (%s) is currently already in progress for VMI %s.";
        public static final String CANNOT_MIGRATE_VMI = "Cannot migrate VMI, Reason: %s, Message: %s";
        public static final String CANNOT_MIGRATE_FINAL_VMI = "Cannot migrate VMI in finalized state.";
        public static final String PRIORITY_ONLY_BY_CONTROLLER = "Migration priority queue, only virt-controller is allowed to set priority field";
        public static final String MIGRATION_SPEC_IMMUTABLE = "update of Migration object's spec is restricted";
        public static final String VMI_NAME_MISSING = "vmiName is missing";
        public static final String VMI_DOES_NOT_EXIST = "the VMI \"%s/%s\" does not exist";

        // migration controller
        public static final String CREATED_TARGET_POD = "Created migration target pod %s";
        public static final String ERROR_CREATING_POD = "Error creating pod: %s";
        public static final String CREATED_ATTACHMENT_POD = "Created attachment pod %s";
        public static final String HANDED_OVER = "Migration target pod is ready for preparation by virt-handler.";
        /** Typo as in KubeVirt. */
        public static final String FAILED_HAND_OVER = "Failed to set MigrationStat in VMI status. :%s";
        public static final String SOURCE_REPORTED_SUCCESS = "Source node reported migration succeeded";
        public static final String MIGRATION_FAILED_VMI_MISSING = "Migration failed because vmi does not exist.";
        public static final String MIGRATION_FAILED_VMI_SHUTDOWN = "Migration failed vmi shutdown during migration.";
        public static final String MIGRATION_FAILED_CANCELED = "Migration failed due to being canceled";
        public static final String MIGRATION_FAILED_TARGET_POD_SHUTDOWN = "Migration failed because target pod shutdown during migration";
        public static final String MIGRATION_TARGET_POD_REMOVED = "Migration target pod was removed during active migration.";
        public static final String MIGRATION_STATE_CLEARED = "VMI's migration state was cleared during the active migration.";
        public static final String MIGRATION_STATE_TAKEN_OVER = "VMI's migration state was taken over by another migration job during active migration.";
        public static final String SOURCE_REPORTED_FAILURE = "source node reported migration failed";
        public static final String MIGRATION_FAILED_ATTACHMENT_POD_SHUTDOWN = "Migration failed because target attachment pod shutdown during migration";
        public static final String ANOTHER_MIGRATION_IN_PROGRESS = "VMI is not eligible for migration because another migration job is in progress.";
        public static final String VMI_MIGRATION_FAILED_TARGET_DOWN = "VirtualMachineInstance migration uid %s failed. reason: Target pod is down";
        public static final String MIGRATION_BACKOFF = "backoff migrating vmi %s/%s";
        public static final String TARGET_POD_UNSCHEDULABLE = "Migration target pod for VMI [%s/%s] is currently unschedulable.";
        public static final String UNSCHEDULABLE_POD_TIMEOUT = "unschedulable pod %s/%s timeout period exceeded";
        public static final String PENDING_POD_TIMEOUT = "pending pod %s/%s timeout period exceeded";
        public static final String MIGRATION_CANCELED_POD_DELETED = "migration canceled and pod %s/%s is deleted";
        public static final String ERROR_DELETING_CANCELED_TARGET_POD = "Error deleting canceled migration target pod: %s";
        public static final String READY_TO_ABORT = "Migration is ready to be canceled by virt-handler.";
        public static final String ABORTING_BACKUP = "Aborting backup %s for system-critical migration";
        public static final String WAITING_FOR_BACKUP = "Waiting for backup %s to complete";
        /** Sync errors (logged and retried). */
        public static final String VMI_INELIGIBLE_ANOTHER_MIGRATION = "vmi is ineligible for migration because another migration job is running";
        public static final String ACTIVE_MIGRATION_EXISTS = "active migration exists";

        // VMI controller
        public static final String VMI_MARKED_FOR_EVICTION = "VMI is marked for eviction";
        public static final String FAILED_TO_GUARANTEE_POD_RESOURCES = "failed to guarantee pod resources";
        /** Events on the VMI about its launcher pod ({@code SuccessfulCreate}, {@code FailedCreate}, {@code SuccessfulDelete}, {@code FailedDelete}). */
        public static final String CREATED_VIRTUAL_MACHINE_POD = "Created virtual machine pod %s";
        public static final String DELETED_VIRTUAL_MACHINE_POD = "Deleted virtual machine pod %s";
        public static final String FAILED_DELETING_VIRTUAL_MACHINE_POD = "Failed to delete virtual machine pod %s";

        // VM controller (the same texts as the VMIRS controller's, as in KubeVirt)
        public static final String VM_STARTED = "Started the virtual machine by creating the new virtual machine instance %s";
        public static final String VM_ERROR_CREATING_VMI = "Error creating virtual machine instance: %s";
        public static final String VM_STOPPED = "Stopped the virtual machine by deleting the virtual machine instance %s";
        public static final String VM_ERROR_DELETING_VMI = "Error deleting virtual machine instance %s: %s";
        /** VM {@code Ready=False} when it has no VMI (reason {@link Conditions#REASON_VMI_NOT_EXISTS}). */
        public static final String VM_VMI_DOES_NOT_EXIST = "VMI does not exist";
        /** VM {@code Ready=False} when its VMI has no Ready condition yet. */
        public static final String VMI_MISSING_READY_CONDITION = "VMI is missing the Ready condition";

        // virt-handler
        public static final String EVICTABLE_BUT_NOT_MIGRATABLE = "EvictionStrategy is set but vmi is not migratable; %s";
        public static final String MIGRATED_TO_NODE = "The VirtualMachineInstance migrated to node %s.";
        public static final String SIGNALED_GRACEFUL_SHUTDOWN = "Signaled Graceful Shutdown";
        public static final String VMI_STOPPING = "VirtualMachineInstance stopping";
        public static final String VMI_DEFINED = "VirtualMachineInstance defined.";
        public static final String VMI_STARTED = "VirtualMachineInstance started.";
        public static final String VMI_SHUT_DOWN = "The VirtualMachineInstance was shut down.";
        public static final String VMI_CRASHED = "The VirtualMachineInstance crashed.";
        /** Drainboard's own (seed 002): the launcher got SIGTERM without the VMI being deleted. */
        public static final String NODE_PRESSURE_EVACUATION = "The launcher pod was signalled to shut down on node %s without the VirtualMachineInstance being deleted (node-pressure eviction): live-migrating it instead of shutting it down; the kubelet kills the pod at %s";
        /** Drainboard's own: the kill came before the migration finished. */
        public static final String LOST_TO_NODE_PRESSURE = "The VirtualMachineInstance was lost: the kubelet killed its launcher pod on node %s (node-pressure eviction) before the live migration finished";
        /** LiveMigratable=False when the claim behind a PVC or DataVolume volume cannot be found. */
        public static final String PVC_SHARING_UNKNOWN = "cannot migrate VMI: Unable to determine if PVC %s is shared, live migration requires that all PVCs must be shared (using ReadWriteMany access mode)";
        /** Drainboard's own: LiveMigratable=False, reason NotMigratable, from the simulation annotation. */
        public static final String NOT_MIGRATABLE_BY_ANNOTATION = "VMI is marked not live-migratable by the annotation sim.drainboard.dev/live-migratable";
        public static final String PVC_NOT_SHARED = "cannot migrate VMI: PVC %s is not shared, live migration requires that all PVCs must be shared (using ReadWriteMany access mode)";
        public static final String NON_SHARED_HOST_DISK = "cannot migrate VMI with non-shared HostDisk";
        public static final String NON_MIGRATABLE_HOST_DEVICE = "VMI specifies non-migratable generic PCI host device";
        public static final String TOO_MANY_GPUS = "VMI specifies too many GPUs";
        public static final String VMI_USES_SEV = "VMI uses SEV";
        public static final String VMI_USES_TDX = "VMI uses TDX";

        // virt-launcher
        public static final String MIGRATION_ABORTED = "Live migration has been aborted";
        public static final String ABORTING_STUCK = "Aborting migration: stuck for %d seconds";
        public static final String ABORTING_NOT_COMPLETED = "Aborting migration: not completed after %d seconds";

        // VMIRS controller
        public static final String RS_STARTED_VM = "Started the virtual machine by creating the new virtual machine instance %s";
        public static final String RS_ERROR_CREATING_VMI = "Error creating virtual machine instance: %s";
        public static final String RS_STOPPED_VM = "Stopped the virtual machine by deleting the virtual machine instance %s";
        public static final String RS_ERROR_DELETING_VMI = "Error deleting virtual machine instance %s: %s";
        public static final String RS_DELETED_FINISHED_VM = "Deleted finished virtual machine: %s";
        public static final String RS_ERROR_DELETING_FINISHED_VM = "Error deleting finished virtual machine %s: %s";
        public static final String RS_PAUSED = "Paused";
        public static final String RS_RESUMED = "Resumed";
        public static final String RS_CONTROLLER_PAUSED = "Controller got paused";
        public static final String RS_SELECTOR_MISMATCH = "selector does not match labels.";
        public static final String RS_MISSING_TEMPLATE = "missing virtual machine template.";

        // VMI create validation
        public static final String UNRECOGNIZED_EVICTION_STRATEGY = "spec.evictionStrategy is set with an unrecognized option: %s";

        public static String evictionTriggeredEvacuation(String namespace, String name) {
            return EVICTION_TRIGGERED_EVACUATION.formatted(namespace, name);
        }

        public static String evacuationInProgress(String namespace, String name) {
            return EVACUATION_IN_PROGRESS.formatted(namespace, name);
        }

        public static String notLiveMigratable(String vmiName) {
            return NOT_LIVE_MIGRATABLE.formatted(vmiName);
        }

        public static String failedGettingVmi(String error) {
            return FAILED_GETTING_VMI.formatted(error);
        }

        public static String failedMarkingVmi(String error) {
            return FAILED_MARKING_VMI.formatted(error);
        }
    }
}
