package dev.drainboard.kubevirt;

/**
 * The annotations KubeVirt reads and writes on pods, VMIs and VMIMs, and their values, with KubeVirt's exact keys
 * (declared in KubeVirt's {@code staging/src/kubevirt.io/api/core/v1/types.go}; the descheduler's in
 * {@code pkg/virt-controller/watch/descheduler/descheduler.go}). Drainboard's own keys are in
 * {@link DrainboardAnnotations}.
 */
public final class KubeVirtAnnotations {

    private KubeVirtAnnotations() {
    }

    /** VMIs: a bridge binding on the pod network is live-migratable after all (pkg/network/vmispec/interface.go). */
    public static final String ALLOW_POD_BRIDGE_NETWORK_LIVE_MIGRATION = "kubevirt.io/allow-pod-bridge-network-live-migration";
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
    /** On an Eviction object: who sent it; value {@link #REQUESTED_BY_DESCHEDULER}. */
    public static final String REQUESTED_BY = "requested-by";
    public static final String REQUESTED_BY_DESCHEDULER = "sigs.k8s.io/descheduler";
    /** VMIMs exempt from the migration back-off (KubeVirt's functional tests). */
    public static final String IGNORE_MIGRATION_BACKOFF = "kubevirt.io/func-test-ignore-migration-backoff";
    /** VMIMs: override of the 300 s unschedulable-target timeout. */
    public static final String MIGRATION_UNSCHEDULABLE_POD_TIMEOUT_SECONDS = "kubevirt.io/migrationUnschedulablePodTimeoutSeconds";
    /** VMIMs: override of the 900 s pending-target timeout. */
    public static final String MIGRATION_PENDING_POD_TIMEOUT_SECONDS = "kubevirt.io/migrationPendingPodTimeoutSeconds";
    /** Launcher pods: the migration transport is a unix socket (value {@code "true"}). */
    public static final String MIGRATION_TRANSPORT_UNIX = "kubevirt.io/migrationTransportUnix";
    /** Launcher pods: kubectl's default container (value {@link #DEFAULT_CONTAINER_COMPUTE}). */
    public static final String KUBECTL_DEFAULT_CONTAINER = "kubectl.kubernetes.io/default-container";
    public static final String DEFAULT_CONTAINER_COMPUTE = "compute";
    /** Prefixes of VMI annotations that are not copied onto the launcher pod. */
    public static final String KUBECTL_PREFIX = "kubectl.kubernetes.io";
    public static final String STORAGE_OBSERVED_API_VERSION = "kubevirt.io/storage-observed-api-version";
    public static final String LATEST_OBSERVED_API_VERSION = "kubevirt.io/latest-observed-api-version";

    /** Launcher pods (value {@code ""}): the descheduler should only request evictions, KubeVirt migrates. */
    public static final String DESCHEDULER_REQUEST_EVICT_ONLY = "descheduler.alpha.kubernetes.io/request-evict-only";
    /** Launcher pods of a VMI marked for eviction (value {@code "true"}). */
    public static final String DESCHEDULER_EVICTION_IN_PROGRESS = "descheduler.alpha.kubernetes.io/eviction-in-progress";
    public static final String DESCHEDULER_EVICTION_IN_PROGRESS_VALUE = "true";

    /** VMIs of a VM with a namespaced instance type ({@code spec.instancetype.kind: VirtualMachineInstancetype}): its name. */
    public static final String INSTANCETYPE_NAME = "kubevirt.io/instancetype-name";
    /** VMIs of a VM with a cluster-wide instance type: its name. */
    public static final String CLUSTER_INSTANCETYPE_NAME = "kubevirt.io/cluster-instancetype-name";
    /** VMIs of a VM with a namespaced preference: its name. */
    public static final String PREFERENCE_NAME = "kubevirt.io/preference-name";
    /** VMIs of a VM with a cluster-wide preference: its name. */
    public static final String CLUSTER_PREFERENCE_NAME = "kubevirt.io/cluster-preference-name";
}
