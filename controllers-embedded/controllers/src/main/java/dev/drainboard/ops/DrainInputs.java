package dev.drainboard.ops;

import dev.drainboard.kubevirt.api.VirtualMachine;
import dev.drainboard.kubevirt.api.VirtualMachineInstance;
import dev.drainboard.kubevirt.api.VirtualMachineInstanceMigration;
import dev.drainboard.kubevirt.config.ClusterConfig;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;

import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * Everything a {@link DrainPreview} looks at, as read from the cluster.
 *
 * @param node    the node to drain
 * @param pods    the pods bound to it (already narrowed by the pod selector)
 * @param vmis    VMIs in the pods' namespaces (others are ignored)
 * @param vms     VMs in the pods' namespaces
 * @param budgets PodDisruptionBudgets in the pods' namespaces, with their status
 * @param config  the KubeVirt configuration in force (its default eviction strategy)
 * @param now     the time the VM controller's decision is asked at
 * @param migrations VMIMs in the pods' namespaces (what recent migrations cost: {@link MigrationOverhead})
 */
public record DrainInputs(String node,
                          List<Pod> pods,
                          List<VirtualMachineInstance> vmis,
                          List<VirtualMachine> vms,
                          List<PodDisruptionBudget> budgets,
                          ClusterConfig config,
                          DrainOptions options,
                          Instant now,
                          List<VirtualMachineInstanceMigration> migrations) {

    public DrainInputs(String node, List<Pod> pods, List<VirtualMachineInstance> vmis, List<VirtualMachine> vms,
                       List<PodDisruptionBudget> budgets, ClusterConfig config, DrainOptions options, Instant now) {
        this(node, pods, vmis, vms, budgets, config, options, now, List.of());
    }

    public DrainInputs {
        Objects.requireNonNull(node, "node");
        pods = List.copyOf(pods);
        vmis = List.copyOf(vmis);
        vms = List.copyOf(vms);
        budgets = List.copyOf(budgets);
        Objects.requireNonNull(config, "config");
        Objects.requireNonNull(options, "options");
        Objects.requireNonNull(now, "now");
        migrations = List.copyOf(migrations);
    }
}
