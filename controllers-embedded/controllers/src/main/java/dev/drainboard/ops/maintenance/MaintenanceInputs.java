package dev.drainboard.ops.maintenance;

import dev.drainboard.kubevirt.api.VirtualMachine;
import dev.drainboard.kubevirt.api.VirtualMachineInstance;
import dev.drainboard.kubevirt.api.VirtualMachineInstanceMigration;
import dev.drainboard.kubevirt.config.ClusterConfig;
import dev.drainboard.ops.DrainOptions;
import dev.drainboard.ops.PlacementInputs;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * Everything {@link MaintenancePlanDecision} looks at, as read from the cluster.
 *
 * @param nodes          the nodes to maintain (in the order given when {@code order} is empty, as a tie-break)
 * @param maxUnavailable how many are drained at once (≥ 1)
 * @param afterDrain     how long each node's after-drain step is expected to take (a fixed pause; zero when unknown)
 * @param cluster        every node and pod, MigrationPolicies and namespaces' labels
 * @param vmis           every VMI
 * @param vms            every VM (whether an evicted VMI is started again)
 * @param budgets        every PodDisruptionBudget
 * @param migrations     recent VMIMs (what a migration costs beyond its transfer)
 * @param config         the KubeVirt configuration in force
 * @param options        the drain's options (each node is drained as {@code drainboard drain} would)
 * @param now            the time the decisions are asked at
 * @param maintained     nodes of the plan already maintained (a plan re-planned while running); they are targets
 * @param order          a fixed order of batches (the rest of a running plan), or empty to let the planner choose
 */
public record MaintenanceInputs(List<String> nodes, int maxUnavailable, Duration afterDrain, PlacementInputs cluster,
                                List<VirtualMachineInstance> vmis, List<VirtualMachine> vms,
                                List<PodDisruptionBudget> budgets, List<VirtualMachineInstanceMigration> migrations,
                                ClusterConfig config, DrainOptions options, Instant now, Set<String> maintained,
                                List<List<String>> order) {

    public MaintenanceInputs {
        nodes = List.copyOf(nodes);
        if (maxUnavailable < 1) {
            throw new IllegalArgumentException("maxUnavailable must be at least 1, not " + maxUnavailable);
        }
        afterDrain = afterDrain == null ? Duration.ZERO : afterDrain;
        Objects.requireNonNull(cluster, "cluster");
        vmis = List.copyOf(vmis);
        vms = List.copyOf(vms);
        budgets = List.copyOf(budgets);
        migrations = List.copyOf(migrations);
        Objects.requireNonNull(config, "config");
        Objects.requireNonNull(options, "options");
        Objects.requireNonNull(now, "now");
        maintained = maintained == null ? Set.of() : Set.copyOf(maintained);
        order = order == null ? List.of() : order.stream().map(List::copyOf).toList();
    }

    /** A plan about to start: the planner chooses the order. */
    public MaintenanceInputs(List<String> nodes, int maxUnavailable, Duration afterDrain, PlacementInputs cluster,
                             List<VirtualMachineInstance> vmis, List<VirtualMachine> vms, List<PodDisruptionBudget> budgets,
                             List<VirtualMachineInstanceMigration> migrations, ClusterConfig config, DrainOptions options,
                             Instant now) {
        this(nodes, maxUnavailable, afterDrain, cluster, vmis, vms, budgets, migrations, config, options, now, Set.of(), List.of());
    }

    /** The same cluster, re-planned for the rest of a running plan. */
    public MaintenanceInputs continuing(Set<String> alreadyMaintained, List<List<String>> rest) {
        return new MaintenanceInputs(nodes, maxUnavailable, afterDrain, cluster, vmis, vms, budgets, migrations, config,
                options, now, alreadyMaintained, rest);
    }
}
