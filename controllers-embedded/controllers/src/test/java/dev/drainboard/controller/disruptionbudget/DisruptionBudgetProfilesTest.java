package dev.drainboard.controller.disruptionbudget;

import dev.drainboard.kubevirt.KubeVirtProfile;
import dev.drainboard.kubevirt.config.ClusterConfig;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import static dev.drainboard.controller.disruptionbudget.DisruptionBudgetDecisionTest.pdb;
import static dev.drainboard.controller.disruptionbudget.DisruptionBudgetDecisionTest.vmi;
import static org.assertj.core.api.Assertions.assertThat;

/** KubeVirt v1.6 (PR #13764): no PDB is created or expanded for VMIs; the controller deletes the ones it finds. */
class DisruptionBudgetProfilesTest {

    @ParameterizedTest(name = "{0}, VMI {1}, PDBs {2}: {3}")
    @CsvSource(delimiter = '|', textBlock = """
            SEEDS | LiveMigrate Running | none            | create
            V1_5  | LiveMigrate Running | none            | create
            V1_5  | LiveMigrate Running | ours            | nothing
            V1_6  | LiveMigrate Running | none            | nothing
            V1_6  | LiveMigrate Running | ours            | delete kubevirt-disruption-budget-a
            V1_7  | LiveMigrate Running | ours expanded   | delete kubevirt-disruption-budget-a
            V1_9  | None Running        | ours            | delete kubevirt-disruption-budget-a
            V1_9  | LiveMigrate Running | ours terminating | nothing
            V1_9  | gone                | ours            | delete kubevirt-disruption-budget-a
            """)
    void createsUpToV15AndOnlyDeletesFromV16(KubeVirtProfile profile, String vmi, String pdbs, String expected) {
        var theVmi = vmi.equals("gone") ? null : vmi(vmi.split(" ")[0], true, vmi.split(" ")[1]);
        String uid = theVmi == null ? "uid-old" : theVmi.getMetadata().getUid();
        List<PodDisruptionBudget> budgets = new ArrayList<>();
        if (pdbs.startsWith("ours")) {
            PodDisruptionBudget pdb = pdb("kubevirt-disruption-budget-a", uid, pdbs.endsWith("expanded") ? 2 : 1,
                    pdbs.endsWith("expanded") ? "vmim-1" : null);
            if (pdbs.endsWith("terminating")) {
                pdb.getMetadata().setDeletionTimestamp("2025-01-01T00:00:00Z");
            }
            budgets.add(pdb);
        }
        ClusterConfig config = ClusterConfig.defaults().withProfile(profile);

        List<BudgetAction> actions = DisruptionBudgetDecision.decide(new BudgetInput(theVmi, budgets, config, 1, Set.of()));

        switch (expected) {
            case "create" -> assertThat(actions).singleElement().isInstanceOf(BudgetAction.Create.class);
            case "nothing" -> assertThat(actions).isEmpty();
            default -> assertThat(actions).containsExactly(new BudgetAction.Delete(expected.substring("delete ".length()),
                    profile.protectsWithPdbs() ? BudgetAction.DeleteReason.VMI_DELETED : BudgetAction.DeleteReason.NO_LONGER_USED));
        }
    }
}
