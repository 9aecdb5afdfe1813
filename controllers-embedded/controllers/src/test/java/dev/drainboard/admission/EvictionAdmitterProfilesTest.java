package dev.drainboard.admission;

import dev.drainboard.admission.EvictionDecision.Why;
import dev.drainboard.kubevirt.KubeVirtProfile;
import dev.drainboard.kubevirt.api.VirtualMachineInstance;
import dev.drainboard.kubevirt.config.ClusterConfig;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static dev.drainboard.admission.Fixtures.NODE;
import static dev.drainboard.admission.Fixtures.evictionOf;
import static dev.drainboard.admission.Fixtures.launcher;
import static dev.drainboard.admission.Fixtures.vmi;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * What changed in KubeVirt v1.5's {@code pod-eviction-admitter.go}: a repeated eviction of a marked VMI's pod and an
 * eviction of a pod off the VMI's node are refused by the webhook itself (429) instead of going on to the PDB.
 */
@DisplayName("eviction admitter per KubeVirt profile")
class EvictionAdmitterProfilesTest {

    @ParameterizedTest(name = "{0}, {1}: {2}")
    @CsvSource(delimiter = '|', textBlock = """
            SEEDS | marked     | allow
            V1_5  | marked     | 429 Evacuation in progress: Eviction triggered evacuation of VMI "default/vm"
            V1_6  | marked     | 429 Evacuation in progress: Eviction triggered evacuation of VMI "default/vm"
            V1_7  | marked     | 429 Evacuation in progress: Eviction triggered evacuation of VMI "default/vm"
            V1_9  | marked     | 429 Evacuation in progress: Eviction triggered evacuation of VMI "default/vm"
            SEEDS | target pod | allow
            V1_5  | target pod | 429 Eviction request for target Pod
            V1_9  | target pod | 429 Eviction request for target Pod
            SEEDS | first      | 429 Eviction triggered evacuation of VMI "default/vm"
            V1_5  | first      | 429 Eviction triggered evacuation of VMI "default/vm"
            V1_9  | first      | 429 Eviction triggered evacuation of VMI "default/vm"
            """)
    void repeatsAndTargetsPerProfile(KubeVirtProfile profile, String situation, String expected) {
        VirtualMachineInstance vmi = vmi("vm", "LiveMigrate", true, situation.equals("marked"));
        var pod = launcher("vm", situation.equals("target pod") ? "node02" : NODE);
        ClusterConfig config = ClusterConfig.defaults().withProfile(profile);

        EvictionDecision decision = EvictionAdmitter.decide(evictionOf(pod, false), pod, VmiLookup.found(vmi), config);
        EvictionDecision answer = decision instanceof EvictionDecision.Mark m ? m.denial() : decision;

        if (expected.equals("allow")) {
            assertThat(answer).isInstanceOf(EvictionDecision.Allow.class);
            assertThat(answer.why()).isIn(Why.ALREADY_MARKED, Why.NOT_ON_VMI_NODE);
        } else {
            assertThat(answer).isInstanceOfSatisfying(EvictionDecision.Deny.class, d ->
                    assertThat(d.code() + " " + d.message()).isEqualTo(expected));
        }
    }
}
