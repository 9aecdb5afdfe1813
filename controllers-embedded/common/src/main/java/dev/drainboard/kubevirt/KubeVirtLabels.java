package dev.drainboard.kubevirt;

/**
 * The labels KubeVirt puts on pods, VMIs, VMIMs and PDBs, and the label values it matches on, with KubeVirt's exact
 * keys (declared in KubeVirt's {@code staging/src/kubevirt.io/api/core/v1/types.go}). Selectors, the descheduler and
 * operators' tooling match on them, so nothing else spells them out.
 */
public final class KubeVirtLabels {

    private KubeVirtLabels() {
    }

    /** {@code kubevirt.io}: the app label; its value says which component a pod is. */
    public static final String APP = "kubevirt.io";
    /** Value of {@link #APP} on launcher pods (source and migration target). */
    public static final String APP_VIRT_LAUNCHER = "virt-launcher";
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
    /** VMs of a VirtualMachinePool (and their template): the pool revision they were made from, {@code <pool>-<generation>}. */
    public static final String VM_POOL_REVISION_NAME = "kubevirt.io/vm-pool-revision-name";
}
