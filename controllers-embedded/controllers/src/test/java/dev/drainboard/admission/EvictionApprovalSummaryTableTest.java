package dev.drainboard.admission;

import static dev.drainboard.admission.Fixtures.NODE;
import static dev.drainboard.admission.Fixtures.evictionOf;
import static dev.drainboard.admission.Fixtures.launcher;
import static dev.drainboard.admission.Fixtures.vmi;
import static org.assertj.core.api.Assertions.assertThat;

import dev.drainboard.controller.disruptionbudget.DisruptionBudgetDecision;
import dev.drainboard.kubevirt.api.VirtualMachineInstance;
import dev.drainboard.kubevirt.config.ClusterConfig;
import io.fabric8.kubernetes.api.model.Pod;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.DisplayName;

/**
 * The "Eviction Approval Summary" of KubeVirt's {@code docs/handling-eviction-requests.md} from the two pure decisions,
 * in the API server's order: the webhook first, then the PDB (which allows the eviction only when the VMI needs none: a
 * PDB with minAvailable 1 over a single launcher pod never allows a disruption). {@code EvictionApprovalSummaryTest}
 * checks the same rows through the real API path.
 */
@DisplayName("eviction approval summary (pure decisions)")
class EvictionApprovalSummaryTableTest {

    private static final String PDB_VIOLATION = "Cannot evict pod as it would violate the pod's disruption budget.";

    record Final(int code, String message) {
    }

    /** What the evicting client sees; the mark is applied as the webhook would (the VMI becomes marked). */
    static Final evict(VirtualMachineInstance vmi, Pod pod, ClusterConfig config) {
        EvictionDecision decision = EvictionAdmitter.decide(evictionOf(pod, false), pod, VmiLookup.found(vmi), config);
        if (decision instanceof EvictionDecision.Mark m) {
            vmi.getStatus().setEvacuationNodeName(m.mark().nodeName());
            decision = m.denial();
        }
        if (decision instanceof EvictionDecision.Deny d) {
            return new Final(d.code(), "admission webhook \"virt-launcher-eviction-interceptor.kubevirt.io\" denied the request: " + d.message());
        }
        boolean pdbAllows = !DisruptionBudgetDecision.needsBudget(vmi, config);
        return pdbAllows ? new Final(201, "") : new Final(429, PDB_VIOLATION);
    }

    @ParameterizedTest(name = "{0}, migratable={1}: marked={2}, webhook approves={3}, PDB allows={4} → {5}")
    @DisplayName("first request")
    @CsvSource(delimiter = '|', textBlock = """
            None                  | true  | false | true  | true  | 200 - Eviction granted
            None                  | false | false | true  | true  | 200 - Eviction granted
            LiveMigrate           | true  | true  | false | false | 429 - Eviction denied (evacuation was triggered)
            LiveMigrate           | false | false | false | false | 429 - Eviction denied by webhook
            LiveMigrateIfPossible | true  | true  | false | false | 429 - Eviction denied (evacuation was triggered)
            LiveMigrateIfPossible | false | false | true  | true  | 200 - Eviction granted
            External              | true  | true  | false | false | 429 - Eviction denied (evacuation was triggered)
            External              | false | true  | false | false | 429 - Eviction denied (evacuation was triggered)
            """)
    void firstRequest(String strategy, boolean migratable, boolean marked, boolean webhookApproves, boolean pdbAllows, String response) {
        ClusterConfig config = ClusterConfig.defaults();
        VirtualMachineInstance vmi = vmi("vm-cirros", strategy, migratable, false);
        Pod pod = launcher("vm-cirros", NODE);

        EvictionDecision webhook = EvictionAdmitter.decide(evictionOf(pod, false), pod, VmiLookup.found(vmi), config);
        assertThat(webhook instanceof EvictionDecision.Allow).as("webhook approves").isEqualTo(webhookApproves);
        assertThat(!DisruptionBudgetDecision.needsBudget(vmi, config)).as("PDB allows").isEqualTo(pdbAllows);

        Final result = evict(vmi, pod, config);

        assertThat(vmi.isMarkedForEviction()).as("marked").isEqualTo(marked);
        assertThat(result.code()).isEqualTo(response.startsWith("200") ? 201 : 429);
        if (response.contains("evacuation was triggered")) {
            assertThat(result.message()).endsWith("Eviction triggered evacuation of VMI \"default/vm-cirros\"");
        } else if (response.contains("denied by webhook")) {
            assertThat(result.message()).endsWith("VMI vm-cirros is configured with an eviction strategy but is not live-migratable");
        }
    }

    @ParameterizedTest(name = "{0}, migratable={1}: webhook approves={2}, PDB allows={3} → {4}")
    @DisplayName("additional requests on a VMI already marked for evacuation")
    @CsvSource(delimiter = '|', textBlock = """
            LiveMigrate           | true  | true | false | 429 - Eviction blocked by PDB
            LiveMigrateIfPossible | true  | true | false | 429 - Eviction blocked by PDB
            External              | true  | true | false | 429 - Eviction blocked by PDB
            External              | false | true | false | 429 - Eviction blocked by PDB
            """)
    void additionalRequests(String strategy, boolean migratable, boolean webhookApproves, boolean pdbAllows, String response) {
        ClusterConfig config = ClusterConfig.defaults();
        VirtualMachineInstance vmi = vmi("vm-cirros", strategy, migratable, false);
        Pod pod = launcher("vm-cirros", NODE);
        evict(vmi, pod, config);
        assertThat(vmi.isMarkedForEviction()).isTrue();

        assertThat(EvictionAdmitter.decide(evictionOf(pod, false), pod, VmiLookup.found(vmi), config)
                instanceof EvictionDecision.Allow).isEqualTo(webhookApproves);
        assertThat(!DisruptionBudgetDecision.needsBudget(vmi, config)).isEqualTo(pdbAllows);
        assertThat(evict(vmi, pod, config)).isEqualTo(new Final(429, PDB_VIOLATION));
        assertThat(response).isEqualTo("429 - Eviction blocked by PDB");
    }
}
