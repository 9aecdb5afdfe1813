package dev.drainboard.admission;

import static dev.drainboard.admission.Fixtures.NODE;
import static dev.drainboard.admission.Fixtures.launcher;
import static dev.drainboard.admission.Fixtures.vmi;
import static org.assertj.core.api.Assertions.assertThat;

import dev.drainboard.kubevirt.api.VirtualMachineInstance;
import dev.drainboard.kubevirt.config.ClusterConfig;
import io.fabric8.kubernetes.api.model.Pod;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

/** The thin layer around the admitter: reads, the mark write and its failure, cache freshness. */
@DisplayName("eviction admission (reads, mark, failures)")
class EvictionAdmissionTest {

    /** A cluster in memory: a cached VMI that may be older than the live one; a mark that may fail. */
    static final class FakeCluster implements AdmissionCluster {
        Pod pod;
        VirtualMachineInstance cachedVmi;
        VirtualMachineInstance liveVmi;
        String markError;
        Exception podError;
        final List<MarkForEvacuation> marks = new ArrayList<>();
        int liveReads;

        @Override
        public Pod pod(String namespace, String name) throws Exception {
            if (podError != null) {
                throw podError;
            }
            return pod;
        }

        @Override
        public Source<VirtualMachineInstance> vmi(String namespace, String name, boolean live) throws Exception {
            if (!live && cachedVmi != null) {
                return new Source<>(cachedVmi, true);
            }
            liveReads++;
            if (liveVmi == null) {
                throw new Exception("virtualmachineinstances.kubevirt.io \"" + name + "\" not found");
            }
            return new Source<>(liveVmi, false);
        }

        @Override
        public void mark(MarkForEvacuation mark) throws Exception {
            if (markError != null) {
                throw new Exception(markError);
            }
            marks.add(mark);
        }
    }

    private final FakeCluster cluster = new FakeCluster();
    private final EvictionAdmission admission = new EvictionAdmission(cluster, ClusterConfig::defaults);

    @Test
    @DisplayName("a mark that cannot be written denies with 'kubevirt failed marking the vmi for eviction'")
    void markFailure() {
        cluster.pod = launcher("vm", NODE);
        cluster.liveVmi = vmi("vm", "LiveMigrate", true, false);
        cluster.markError = "Operation cannot be fulfilled: the object has been modified";

        EvictionDecision answer = admission.admit(Fixtures.evictionOf(cluster.pod, false));

        assertThat(answer).isEqualTo(EvictionAdmitter.markFailed("Operation cannot be fulfilled: the object has been modified"));
    }

    @Test
    @DisplayName("a mark is written (as a dry run for a dry-run eviction) and the eviction denied")
    void markWritten() {
        cluster.pod = launcher("vm", NODE);
        cluster.liveVmi = vmi("vm", "External", false, false);

        EvictionDecision answer = admission.admit(Fixtures.evictionOf(cluster.pod, true));

        assertThat(cluster.marks).containsExactly(new MarkForEvacuation("default", "vm", NODE, true));
        assertThat(answer).isEqualTo(new EvictionDecision.Deny(EvictionDecision.Why.EVACUATION_TRIGGERED,
                "Eviction triggered evacuation of VMI \"default/vm\""));
    }

    @Test
    @DisplayName("a mark decided on a cached VMI is checked against the live VMI: already marked there, it passes to the PDB")
    void staleCacheNeverMarksTwice() {
        cluster.pod = launcher("vm", NODE);
        cluster.cachedVmi = vmi("vm", "LiveMigrate", true, false);
        cluster.liveVmi = vmi("vm", "LiveMigrate", true, true);

        EvictionDecision answer = admission.admit(Fixtures.evictionOf(cluster.pod, false));

        assertThat(answer).isEqualTo(new EvictionDecision.Allow(EvictionDecision.Why.ALREADY_MARKED));
        assertThat(cluster.marks).isEmpty();
        assertThat(cluster.liveReads).isEqualTo(1);
    }

    @Test
    @DisplayName("decisions that write nothing come from the cache alone")
    void cacheServesPlainDecisions() {
        cluster.pod = launcher("vm", NODE);
        cluster.cachedVmi = vmi("vm", "LiveMigrate", false, false);

        EvictionDecision answer = admission.admit(Fixtures.evictionOf(cluster.pod, false));

        assertThat(answer.why()).isEqualTo(EvictionDecision.Why.NOT_LIVE_MIGRATABLE);
        assertThat(cluster.liveReads).isZero();
    }

    @Test
    @DisplayName("a missing VMI denies with the API's not-found text; an unreadable pod passes")
    void lookups() {
        cluster.pod = launcher("vm-gone", NODE);
        assertThat(admission.admit(Fixtures.evictionOf(cluster.pod, false))).isEqualTo(new EvictionDecision.Deny(
                EvictionDecision.Why.VMI_NOT_READ,
                "kubevirt failed getting the vmi: virtualmachineinstances.kubevirt.io \"vm-gone\" not found"));

        cluster.podError = new Exception("connection refused");
        assertThat(admission.admit(new EvictionRequest("default", "x", false)).why()).isEqualTo(EvictionDecision.Why.POD_NOT_READ);
    }
}
