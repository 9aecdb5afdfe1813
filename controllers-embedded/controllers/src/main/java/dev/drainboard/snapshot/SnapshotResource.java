package dev.drainboard.snapshot;

import java.util.List;

/**
 * One kind a snapshot copies, where it goes, and whether a cluster may lack it.
 *
 * @param file     the scenario file it is written to (the loader orders kinds itself; files only group them)
 * @param optional a kind whose API may not be served (KubeVirt's optional groups): a 404 leaves it out silently
 */
public record SnapshotResource(String group, String version, String plural, String kind, boolean namespaced,
                               String file, boolean optional) {

    public String apiVersion() {
        return group.isEmpty() ? version : group + "/" + version;
    }

    /** As kubectl names it: {@code pods}, {@code virtualmachineinstances.kubevirt.io}. */
    public String displayName() {
        return group.isEmpty() ? plural : plural + "." + group;
    }

    /**
     * What a snapshot reads, in the order it reads it. Left out on purpose: Secrets, RBAC, webhook configurations
     * (they would point at the real cluster's services), CRDs (the embedded cluster serves KubeVirt's own), Events,
     * Leases, migrations (VMIMs: one in flight cannot be resumed on a copy) and Drainboard's history.
     */
    public static final List<SnapshotResource> ALL = List.of(
            new SnapshotResource("", "v1", "namespaces", "Namespace", false, "00-namespaces.yaml", false),
            new SnapshotResource("", "v1", "nodes", "Node", false, "10-nodes.yaml", false),
            new SnapshotResource("storage.k8s.io", "v1", "storageclasses", "StorageClass", false, "20-storage.yaml", false),
            new SnapshotResource("", "v1", "persistentvolumes", "PersistentVolume", false, "20-storage.yaml", false),
            new SnapshotResource("", "v1", "persistentvolumeclaims", "PersistentVolumeClaim", true, "20-storage.yaml", false),
            new SnapshotResource("kubevirt.io", "v1", "kubevirts", "KubeVirt", true, "30-kubevirt.yaml", true),
            new SnapshotResource("migrations.kubevirt.io", "v1alpha1", "migrationpolicies", "MigrationPolicy", false, "30-kubevirt.yaml", true),
            new SnapshotResource("instancetype.kubevirt.io", "v1beta1", "virtualmachineclusterinstancetypes", "VirtualMachineClusterInstancetype", false, "30-kubevirt.yaml", true),
            new SnapshotResource("instancetype.kubevirt.io", "v1beta1", "virtualmachineinstancetypes", "VirtualMachineInstancetype", true, "30-kubevirt.yaml", true),
            new SnapshotResource("instancetype.kubevirt.io", "v1beta1", "virtualmachineclusterpreferences", "VirtualMachineClusterPreference", false, "30-kubevirt.yaml", true),
            new SnapshotResource("instancetype.kubevirt.io", "v1beta1", "virtualmachinepreferences", "VirtualMachinePreference", true, "30-kubevirt.yaml", true),
            new SnapshotResource("", "v1", "configmaps", "ConfigMap", true, "40-configmaps.yaml", false),
            new SnapshotResource("apps", "v1", "daemonsets", "DaemonSet", true, "50-workloads.yaml", false),
            new SnapshotResource("apps", "v1", "deployments", "Deployment", true, "50-workloads.yaml", false),
            new SnapshotResource("apps", "v1", "replicasets", "ReplicaSet", true, "50-workloads.yaml", false),
            new SnapshotResource("apps", "v1", "statefulsets", "StatefulSet", true, "50-workloads.yaml", false),
            new SnapshotResource("policy", "v1", "poddisruptionbudgets", "PodDisruptionBudget", true, "50-workloads.yaml", false),
            new SnapshotResource("kubevirt.io", "v1", "virtualmachines", "VirtualMachine", true, "60-vms.yaml", true),
            new SnapshotResource("kubevirt.io", "v1", "virtualmachineinstancereplicasets", "VirtualMachineInstanceReplicaSet", true, "60-vms.yaml", true),
            new SnapshotResource("pool.kubevirt.io", "v1alpha1", "virtualmachinepools", "VirtualMachinePool", true, "60-vms.yaml", true),
            new SnapshotResource("kubevirt.io", "v1", "virtualmachineinstances", "VirtualMachineInstance", true, "60-vms.yaml", true),
            new SnapshotResource("", "v1", "pods", "Pod", true, "70-pods.yaml", false));
}
