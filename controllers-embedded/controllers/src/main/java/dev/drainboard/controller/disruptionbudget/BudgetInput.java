package dev.drainboard.controller.disruptionbudget;

import dev.drainboard.kubevirt.api.VirtualMachineInstance;
import dev.drainboard.kubevirt.config.ClusterConfig;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;

import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * Everything the decision for one VMI looks at, read from the caches.
 *
 * @param vmi                  the VMI, null when it is gone
 * @param budgets              PDBs whose controller owner reference names the VMI (kind and name; any uid)
 * @param config               the cluster configuration (default eviction strategy)
 * @param activeLauncherPods   pods of the VMI (label {@code kubevirt.io/created-by=<uid>}) neither terminating nor finished
 * @param unfinishedMigrations names of the VMI's VMIMs that exist and are not final
 */
public record BudgetInput(VirtualMachineInstance vmi,
                          List<PodDisruptionBudget> budgets,
                          ClusterConfig config,
                          int activeLauncherPods,
                          Set<String> unfinishedMigrations) {

    public BudgetInput {
        budgets = List.copyOf(budgets);
        Objects.requireNonNull(config, "config");
        unfinishedMigrations = Set.copyOf(unfinishedMigrations);
    }
}
