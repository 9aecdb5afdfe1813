package dev.drainboard.ops;

import dev.drainboard.kubevirt.KubeVirtProfile;
import dev.drainboard.kubevirt.api.VirtualMachineInstance;
import dev.drainboard.kubevirt.config.ClusterConfig;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.time.Instant;
import java.util.List;

import static dev.drainboard.ops.DrainPreviewTest.NODE;
import static dev.drainboard.ops.DrainPreviewTest.kubevirtPdb;
import static dev.drainboard.ops.DrainPreviewTest.launcher;
import static dev.drainboard.ops.DrainPreviewTest.vmi;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The preview of a LiveMigrate VMI's launcher pod per KubeVirt profile: who holds the pod while the VMI moves (its PDB
 * up to v1.4; the webhook's own refusals from v1.5, with or without a leftover PDB) and what the API server answers.
 */
class DrainPreviewProfilesTest {

    private static final String DENIED = "admission webhook \"virt-launcher-eviction-interceptor.kubevirt.io\" denied the request: ";

    @ParameterizedTest(name = "{0}, marked={1}, PDB={2}")
    @CsvSource(delimiter = '|', textBlock = """
            SEEDS | false | true  | PodDisruptionBudget demo/kubevirt-disruption-budget-x holds it | demo/kubevirt-disruption-budget-x | Eviction triggered evacuation of VMI "demo/db"
            SEEDS | true  | true  | PodDisruptionBudget demo/kubevirt-disruption-budget-x holds it | demo/kubevirt-disruption-budget-x | PDB
            V1_5  | false | true  | the eviction webhook refuses its eviction until then             | -                                  | Eviction triggered evacuation of VMI "demo/db"
            V1_5  | true  | true  | the eviction webhook refuses its eviction until then             | -                                  | Evacuation in progress: Eviction triggered evacuation of VMI "demo/db"
            V1_6  | true  | false | the eviction webhook refuses its eviction until then             | -                                  | Evacuation in progress: Eviction triggered evacuation of VMI "demo/db"
            V1_9  | false | false | the eviction webhook refuses its eviction until then             | -                                  | Eviction triggered evacuation of VMI "demo/db"
            """)
    void whoHoldsThePodWhileTheVmiMoves(KubeVirtProfile profile, boolean marked, boolean pdb, String holds, String budget, String answer) {
        VirtualMachineInstance vmi = vmi("db", "LiveMigrate", true, null);
        if (marked) {
            vmi.getStatus().setEvacuationNodeName(NODE);
        }
        List<PodDisruptionBudget> budgets = pdb ? List.of(kubevirtPdb("db")) : List.of();
        DrainPreview preview = DrainPreview.compute(new DrainInputs(NODE, List.of(launcher("db")), List.of(vmi), List.of(), budgets,
                ClusterConfig.defaults().withProfile(profile), DrainOptions.defaults().withIgnoreDaemonSets(true),
                Instant.parse("2025-01-01T00:00:00Z")));

        PodPreview pod = preview.pods().getFirst();
        assertThat(pod.outcome()).isEqualTo(PodOutcome.LIVE_MIGRATION);
        assertThat(pod.reason()).contains(holds);
        assertThat(pod.budget()).isEqualTo(budget.equals("-") ? null : budget);
        assertThat(pod.expectedMessage()).isEqualTo(answer.equals("PDB") ? DrainPreview.BUDGET_VIOLATION : DENIED + answer);
        if (profile.webhookDeniesRepeats()) {
            assertThat(pod.reason()).doesNotContain("PodDisruptionBudget");
        }
    }
}
