package dev.drainboard.controller.disruptionbudget;

import dev.drainboard.architecture.Pure;
import dev.drainboard.kubevirt.api.EvictionStrategy;
import dev.drainboard.kubevirt.api.VirtualMachineInstance;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Which PDBs a VMI should have, as KubeVirt's disruption budget controller decided it up to v1.5 (from v1.6 it keeps
 * none and deletes leftovers: {@link #leftoversOnly})
 * ({@code pkg/virt-controller/watch/drain/disruptionbudget/disruptionbudget.go} at v1.5.0; docs/behaviour.md, "One
 * PodDisruptionBudget per VMI"). Pure: the caches go in, actions come out.
 *
 * <p>The PDB is what makes the eviction webhook's {@code failurePolicy: Ignore} safe: while the webhook is down,
 * or after it has marked the VMI and lets the next evictions through, the PDB holds the launcher pod until the
 * VMI has migrated away.
 */
@Pure
public final class DisruptionBudgetDecision {

    private DisruptionBudgetDecision() {
    }

    /** LiveMigrate and External always; LiveMigrateIfPossible only while migratable; None never. */
    public static boolean needsBudget(EvictionStrategy strategy, boolean migratable) {
        return switch (strategy) {
            case LIVE_MIGRATE, EXTERNAL -> true;
            case LIVE_MIGRATE_IF_POSSIBLE -> migratable;
            case NONE -> false;
        };
    }

    /** Whether this VMI, as it is now, should be protected by a PDB. */
    public static boolean needsBudget(VirtualMachineInstance vmi, dev.drainboard.kubevirt.config.ClusterConfig config) {
        return vmi != null && vmi.getMetadata().getDeletionTimestamp() == null && !vmi.isFinal()
                && needsBudget(config.evictionStrategyFor(vmi), vmi.isMigratable());
    }

    public static List<BudgetAction> decide(BudgetInput in) {
        if (!in.config().profile().protectsWithPdbs()) {
            return leftoversOnly(in);
        }
        List<BudgetAction> actions = new ArrayList<>();
        List<PodDisruptionBudget> current = new ArrayList<>();
        for (PodDisruptionBudget pdb : in.budgets()) {
            if (pdb.getMetadata().getDeletionTimestamp() != null) {
                continue; // already going
            }
            if (DisruptionBudgets.isLegacyMigrationBudget(pdb)) {
                actions.add(new BudgetAction.Delete(pdb.getMetadata().getName(), BudgetAction.DeleteReason.LEGACY_MIGRATION_PDB));
            } else {
                current.add(pdb);
            }
        }

        Optional<BudgetAction.DeleteReason> unwanted = unwantedBecause(in);
        if (unwanted.isPresent()) {
            current.forEach(pdb -> actions.add(new BudgetAction.Delete(pdb.getMetadata().getName(), unwanted.get())));
            return actions;
        }

        VirtualMachineInstance vmi = in.vmi();
        String uid = vmi.getMetadata().getUid();
        List<PodDisruptionBudget> ours = new ArrayList<>();
        for (PodDisruptionBudget pdb : current) {
            String ownerUid = DisruptionBudgets.controllingVmi(pdb).map(ref -> ref.getUid()).orElse(null);
            if (Objects.equals(uid, ownerUid)) {
                ours.add(pdb);
            } else {
                // Owned by an earlier VMI of the same name: that VMI is gone.
                actions.add(new BudgetAction.Delete(pdb.getMetadata().getName(), BudgetAction.DeleteReason.OWNER_GONE));
            }
        }
        if (ours.isEmpty()) {
            actions.add(new BudgetAction.Create(DisruptionBudgets.budgetFor(vmi)));
            return actions;
        }
        // Two PDBs over one pod make every eviction of it fail; keep the oldest.
        ours.sort(Comparator.comparing((PodDisruptionBudget p) -> Objects.requireNonNullElse(p.getMetadata().getCreationTimestamp(), ""))
                .thenComparing(p -> p.getMetadata().getName()));
        PodDisruptionBudget kept = ours.getFirst();
        ours.subList(1, ours.size()).forEach(pdb ->
                actions.add(new BudgetAction.Delete(pdb.getMetadata().getName(), BudgetAction.DeleteReason.DUPLICATE)));
        shrink(kept, in).ifPresent(actions::add);
        return actions;
    }

    /**
     * KubeVirt v1.6 and later: the controller creates and expands nothing, it deletes every PDB the VMI controls that
     * is not already going, whatever the VMI's state ({@code disruptionbudget.go} since v1.6.0).
     */
    static List<BudgetAction> leftoversOnly(BudgetInput in) {
        return in.budgets().stream()
                .filter(pdb -> pdb.getMetadata().getDeletionTimestamp() == null)
                .map(pdb -> (BudgetAction) new BudgetAction.Delete(pdb.getMetadata().getName(), BudgetAction.DeleteReason.NO_LONGER_USED))
                .toList();
    }

    private static Optional<BudgetAction.DeleteReason> unwantedBecause(BudgetInput in) {
        VirtualMachineInstance vmi = in.vmi();
        if (vmi == null || vmi.getMetadata().getDeletionTimestamp() != null) {
            return Optional.of(BudgetAction.DeleteReason.VMI_DELETED);
        }
        if (!needsBudget(in.config().evictionStrategyFor(vmi), vmi.isMigratable())) {
            return Optional.of(BudgetAction.DeleteReason.NOT_NEEDED);
        }
        if (vmi.isFinal()) {
            return Optional.of(BudgetAction.DeleteReason.VMI_FINAL);
        }
        return Optional.empty();
    }

    /**
     * A PDB a migration expanded goes back to {@code minAvailable: 1} once that migration is final (or
     * gone) and a single launcher pod is left, so the next drain is not blocked by a target pod that no longer exists.
     */
    static Optional<BudgetAction> shrink(PodDisruptionBudget pdb, BudgetInput in) {
        Optional<String> migration = DisruptionBudgets.migrationName(pdb);
        if (migration.isEmpty() || in.unfinishedMigrations().contains(migration.get()) || in.activeLauncherPods() != 1) {
            return Optional.empty();
        }
        return Optional.of(new BudgetAction.Shrink(pdb.getMetadata().getName(), migration.get()));
    }
}
