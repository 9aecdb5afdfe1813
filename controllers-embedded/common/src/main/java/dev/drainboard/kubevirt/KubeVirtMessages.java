package dev.drainboard.kubevirt;

/**
 * The user-visible messages of KubeVirt's drain path, with KubeVirt's exact text: eviction denials, event messages,
 * condition messages. The descheduler, alerts, runbooks and operators match on these strings, so they live here and
 * nothing else spells them out. Each group names the KubeVirt source that emits them. Drainboard's own messages are in
 * {@link DrainboardEvents}.
 *
 * <p>Messages with substitutions are {@link String#format} patterns; the helpers at the end fill the eviction
 * webhook's.
 */
public final class KubeVirtMessages {

    private KubeVirtMessages() {
    }

    // eviction admitter, 429 denials (pkg/virt-api/webhooks/validating-webhook/admitters/pod-eviction-admitter.go)
    public static final String EVICTION_TRIGGERED_EVACUATION = "Eviction triggered evacuation of VMI \"%s/%s\"";
    /** KubeVirt ≥ v1.5's answer to a repeated eviction of a marked VMI's pod (up to v1.4 it went on to the PDB). */
    public static final String EVACUATION_IN_PROGRESS = "Evacuation in progress: " + EVICTION_TRIGGERED_EVACUATION;
    /** KubeVirt ≥ v1.5's answer to an eviction of a pod not on the VMI's node (a migration target). */
    public static final String EVICTION_OF_TARGET_POD = "Eviction request for target Pod";
    public static final String NOT_LIVE_MIGRATABLE = "VMI %s is configured with an eviction strategy but is not live-migratable";
    public static final String FAILED_GETTING_VMI = "kubevirt failed getting the vmi: %s";
    public static final String FAILED_MARKING_VMI = "kubevirt failed marking the vmi for eviction: %s";
    /** How the Kubernetes API server reports a webhook denial to the evicting client. */
    public static final String WEBHOOK_DENIED = "admission webhook \"%s\" denied the request: %s";

    // evacuation controller, events on the VMI (pkg/virt-controller/watch/drain/evacuation/evacuation.go)
    public static final String CREATED_MIGRATION = "Created Migration %s";
    public static final String ERROR_CREATING_MIGRATION = "Error creating a Migration: %s";
    /** ≤ v1.8 legacy throttling: Normal event, reason FailedCreate. */
    public static final String VMI_NOT_MIGRATEABLE = "VirtualMachineInstance is not migrateable";

    // disruption budget controller, and the migration controller's expansion, up to v1.5
    // (pkg/virt-controller/watch/drain/disruptionbudget/disruptionbudget.go, pkg/virt-controller/watch/migration/migration.go)
    public static final String DELETED_PDB = "Deleted PodDisruptionBudget %s";
    public static final String ERROR_DELETING_PDB = "Error deleting the PodDisruptionBudget %s: %s";
    public static final String CREATED_PDB = "Created PodDisruptionBudget %s";
    public static final String ERROR_CREATING_PDB = "Error creating a PodDisruptionBudget: %s";
    public static final String EXPANDED_PDB = "Expanded PodDisruptionBudget %s";
    public static final String ERROR_EXPANDING_PDB = "Error expanding the PodDisruptionBudget %s: %s";
    public static final String SHRANK_PDB = "shrank PodDisruptionBudget %s";
    /** Drainboard's wording; KubeVirt v1.5 says "Error updating the PodDisruptionBudget %s: %v" here. */
    public static final String ERROR_SHRINKING_PDB = "Error shrinking the PodDisruptionBudget %s: %s";

    // migration controller (pkg/virt-controller/watch/migration/migration.go)
    public static final String CREATED_TARGET_POD = "Created migration target pod %s";
    public static final String ERROR_CREATING_POD = "Error creating pod: %s";
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
    public static final String ANOTHER_MIGRATION_IN_PROGRESS = "VMI is not eligible for migration because another migration job is in progress.";
    public static final String VMI_MIGRATION_FAILED_TARGET_DOWN = "VirtualMachineInstance migration uid %s failed. reason: Target pod is down";
    public static final String MIGRATION_BACKOFF = "backoff migrating vmi %s/%s";
    public static final String TARGET_POD_UNSCHEDULABLE = "Migration target pod for VMI [%s/%s] is currently unschedulable.";
    public static final String UNSCHEDULABLE_POD_TIMEOUT = "unschedulable pod %s/%s timeout period exceeded";
    public static final String PENDING_POD_TIMEOUT = "pending pod %s/%s timeout period exceeded";
    public static final String MIGRATION_CANCELED_POD_DELETED = "migration canceled and pod %s/%s is deleted";
    public static final String READY_TO_ABORT = "Migration is ready to be canceled by virt-handler.";

    // VMI controller (pkg/virt-controller/watch/vmi/lifecycle.go)
    public static final String VMI_MARKED_FOR_EVICTION = "VMI is marked for eviction";
    /** Sync error (logged and retried) while an active migration holds back a new launcher pod. */
    public static final String ACTIVE_MIGRATION_EXISTS = "active migration exists";
    /** Events on the VMI about its launcher pod ({@code SuccessfulCreate}, {@code FailedCreate}, {@code SuccessfulDelete}, {@code FailedDelete}). */
    public static final String CREATED_VIRTUAL_MACHINE_POD = "Created virtual machine pod %s";
    public static final String DELETED_VIRTUAL_MACHINE_POD = "Deleted virtual machine pod %s";
    public static final String FAILED_DELETING_VIRTUAL_MACHINE_POD = "Failed to delete virtual machine pod %s";

    // VM controller, the same texts as the VMIRS controller's (pkg/virt-controller/watch/vm/vm.go)
    public static final String VM_STARTED = "Started the virtual machine by creating the new virtual machine instance %s";
    public static final String VM_ERROR_CREATING_VMI = "Error creating virtual machine instance: %s";
    public static final String VM_STOPPED = "Stopped the virtual machine by deleting the virtual machine instance %s";
    public static final String VM_ERROR_DELETING_VMI = "Error deleting virtual machine instance %s: %s";
    /** VM {@code Ready=False} when it has no VMI (reason {@link KubeVirtConditions#REASON_VMI_NOT_EXISTS}). */
    public static final String VM_VMI_DOES_NOT_EXIST = "VMI does not exist";
    /** VM {@code Ready=False} when its VMI has no Ready condition yet. */
    public static final String VMI_MISSING_READY_CONDITION = "VMI is missing the Ready condition";

    // virt-handler (pkg/virt-handler/controller.go, vm.go, migration-target.go)
    public static final String MIGRATED_TO_NODE = "The VirtualMachineInstance migrated to node %s.";
    public static final String SIGNALED_GRACEFUL_SHUTDOWN = "Signaled Graceful Shutdown";
    public static final String VMI_STOPPING = "VirtualMachineInstance stopping";
    public static final String VMI_DEFINED = "VirtualMachineInstance defined.";
    public static final String VMI_STARTED = "VirtualMachineInstance started.";
    public static final String VMI_SHUT_DOWN = "The VirtualMachineInstance was shut down.";
    public static final String VMI_CRASHED = "The VirtualMachineInstance crashed.";
    /** LiveMigratable=False when the claim behind a PVC or DataVolume volume cannot be found. */
    public static final String PVC_SHARING_UNKNOWN = "cannot migrate VMI: Unable to determine if PVC %s is shared, live migration requires that all PVCs must be shared (using ReadWriteMany access mode)";
    public static final String PVC_NOT_SHARED = "cannot migrate VMI: PVC %s is not shared, live migration requires that all PVCs must be shared (using ReadWriteMany access mode)";
    public static final String NON_SHARED_HOST_DISK = "cannot migrate VMI with non-shared HostDisk";
    /** LiveMigratable=False: the pod network's interface is bound by bridge (or SR-IOV…) (pkg/network/vmispec/interface.go). */
    public static final String INTERFACE_NOT_MIGRATABLE = "cannot migrate VMI which does not use masquerade or a migratable plugin to connect to the pod network";
    /** LiveMigratable=False: a pod network that no interface uses. */
    public static final String NO_PRIMARY_INTERFACE = "no primary interface found for network %s";
    public static final String NON_MIGRATABLE_HOST_DEVICE = "VMI specifies non-migratable generic PCI host device";
    public static final String TOO_MANY_GPUS = "VMI specifies too many GPUs";

    // virt-launcher (pkg/virt-launcher/virtwrap/live-migration-source.go)
    public static final String MIGRATION_ABORTED = "Live migration has been aborted";
    public static final String ABORTING_STUCK = "Aborting migration: stuck for %d seconds";
    public static final String ABORTING_NOT_COMPLETED = "Aborting migration: not completed after %d seconds";

    // VMIRS controller (pkg/virt-controller/watch/replicaset/replicaset.go) and webhook
    // (pkg/virt-api/webhooks/validating-webhook/admitters/vmirs-admitter.go)
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

    /** Instance types ({@code pkg/instancetype/conflict}): a VM field that the instance type also sets. */
    public static final String INSTANCETYPE_CONFLICTS = "VM field(s) %s conflicts with selected instance type";
    /** VM controller ({@code pkg/instancetype/controller/vm}): the instance type could not be applied to the new VMI. */
    public static final String VMI_CONFLICTS_WITH_INSTANCETYPE = "VMI conflicts with instancetype spec in fields: [%s]";
    /** VM controller event: creating the VMI failed while applying the instance type. */
    public static final String VM_FAILED_TO_APPLY_INSTANCETYPE = "Error creating virtual machine instance: Failed to apply instancetype: %s";
    /** Pool controller ({@code pkg/virt-controller/watch/pool}) events. */
    public static final String POOL_CREATED_VM = "Created VM %s/%s";
    public static final String POOL_ERROR_CREATING_VM = "Error creating VM: %s";
    public static final String POOL_DELETED_VM = "Deleted VM %s/%s with uid %s from pool";
    public static final String POOL_ERROR_DELETING_VM = "Error deleting virtual machine %s/%s: %s";
    public static final String POOL_PAUSED = "Pool is paused";
    public static final String POOL_UNPAUSED = "Pool is unpaused";
    public static final String POOL_PAUSED_CONDITION = "Pool controller is paused";
}
