package dev.drainboard.controller.disruptionbudget;

import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;

import java.util.Objects;

/** What the disruption budget controller does for one VMI; the loop applies these in order. */
public sealed interface BudgetAction {

    /** Create this PDB (it has a generateName, the API picks the name). */
    record Create(PodDisruptionBudget budget) implements BudgetAction {
        public Create {
            Objects.requireNonNull(budget, "budget");
        }
    }

    /** Delete the PDB of this name. */
    record Delete(String name, DeleteReason reason) implements BudgetAction {
        public Delete {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(reason, "reason");
        }
    }

    /** The migration that expanded this PDB to {@code minAvailable: 2} is over: back to 1, migration label off. */
    record Shrink(String name, String migrationName) implements BudgetAction {
        public Shrink {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(migrationName, "migrationName");
        }
    }

    /** Why a PDB goes, as the controller logs it (KubeVirt's words where it had them). */
    enum DeleteReason {
        VMI_DELETED("VMI deletion"),
        NOT_NEEDED("VMI not using evictionStrategy: LiveMigration|External"),
        VMI_FINAL("VMI has moved to a Final state and is no longer active"),
        OWNER_GONE("VMI not existing anymore"),
        LEGACY_MIGRATION_PDB("PDB from an older migration controller"),
        DUPLICATE("another PDB already protects the VMI"),
        /** KubeVirt v1.6+ keeps no PDBs for VMIs: any left from an older release goes. */
        NO_LONGER_USED("KubeVirt no longer protects VMIs with PDBs");

        private final String text;

        DeleteReason(String text) {
            this.text = text;
        }

        public String text() {
            return text;
        }
    }
}
