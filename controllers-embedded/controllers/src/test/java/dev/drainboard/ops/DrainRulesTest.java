package dev.drainboard.ops;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.assertj.core.api.Assertions.assertThat;

class DrainRulesTest {

    @ParameterizedTest(name = "vmi={0} marked={1}: {2} -> {3}")
    @CsvSource(delimiter = '|', textBlock = """
            db   | false | admission webhook "virt-launcher-eviction-interceptor.kubevirt.io" denied the request: Eviction triggered evacuation of VMI "demo/db" | WAITING_FOR_MIGRATION
            db   | true  | Cannot evict pod as it would violate the pod's disruption budget.                                                                       | WAITING_FOR_MIGRATION
            db   | false | Cannot evict pod as it would violate the pod's disruption budget.                                                                       | BLOCKED
            db   | false | admission webhook "virt-launcher-eviction-interceptor.kubevirt.io" denied the request: VMI db is configured with an eviction strategy but is not live-migratable | BLOCKED
            db   | true  | admission webhook "virt-launcher-eviction-interceptor.kubevirt.io" denied the request: VMI db is configured with an eviction strategy but is not live-migratable | BLOCKED
            ''   | false | Cannot evict pod as it would violate the pod's disruption budget.                                                                       | BLOCKED
            db   | false | admission webhook "virt-launcher-eviction-interceptor.kubevirt.io" denied the request: Eviction request for target Pod                   | WAITING_FOR_MIGRATION
            ''   | false | admission webhook "virt-launcher-eviction-interceptor.kubevirt.io" denied the request: Eviction request for target Pod                   | BLOCKED
            """)
    void afterRefusal(String vmiName, boolean marked, String message, PodState expected) {
        String vmi = vmiName.isEmpty() ? null : vmiName;
        PodPreview preview = new PodPreview("demo", "p", "u", PodOutcome.LIVE_MIGRATION, "r", vmi, null, null);
        var object = vmi == null ? null : DrainPreviewTest.vmi(vmi, "LiveMigrate", true, null);
        if (object != null && marked) {
            object.getStatus().setEvacuationNodeName("node01");
        }
        assertThat(DrainRules.afterRefusal(preview, object, message)).isEqualTo(expected);
    }

    @ParameterizedTest(name = "{0}, tracked uid-a, seen {1} terminating={2} -> {3}")
    @CsvSource(nullValues = "null", textBlock = """
            BLOCKED, null,  false, GONE
            BLOCKED, uid-b, false, GONE
            BLOCKED, uid-a, false, null
            BLOCKED, uid-a, true,  EVICTED
            EVICTED, uid-a, true,  null
            GONE,    null,  false, null
            """)
    void observed(PodState current, String seenUid, boolean terminating, PodState expected) {
        var seen = seenUid == null ? null : DrainPreviewTest.pod("p", "x");
        if (seen != null) {
            seen.getMetadata().setUid(seenUid);
            if (terminating) {
                seen.getMetadata().setDeletionTimestamp("2025-01-01T00:00:00Z");
            }
        }
        assertThat(DrainRules.observed(current, "uid-a", seen)).isEqualTo(expected);
    }

    private static final Blocker W1 = new Blocker("VirtualMachineInstance", "demo", "workers-1", "its replacement has nowhere to run: 0/4 nodes");
    private static final Blocker W2 = new Blocker("VirtualMachineInstance", "demo", "workers-2", "its replacement has nowhere to run: 0/4 nodes");
    private static final Blocker WEB = new Blocker("Pod", "demo", "web-1", "its replacement has nowhere to run: 0/4 nodes");

    @org.junit.jupiter.api.Test
    void drainedWhyNamesWhatIsStranded() {
        assertThat(DrainRules.drainedWhy("node03", 4, java.util.List.of())).isEqualTo("node node03 drained: all 4 evicted pods are gone");
        assertThat(DrainRules.drainedWhy("node03", 0, java.util.List.of())).isEqualTo("node node03 drained: no pods to evict");
        assertThat(DrainRules.drainedWhy("node03", 4, java.util.List.of(W1, W2))).isEqualTo(
                "node node03 drained: all 4 evicted pods are gone; 2 VMIs have nowhere to run: demo/workers-1, demo/workers-2");
        assertThat(DrainRules.drainedWhy("node03", 4, java.util.List.of(W1, WEB))).isEqualTo(
                "node node03 drained: all 4 evicted pods are gone; 1 VMI and 1 pod have nowhere to run: demo/workers-1, demo/web-1");
        assertThat(DrainRules.drainedWhy("node03", 1, java.util.List.of(WEB))).endsWith("; 1 pod has nowhere to run: demo/web-1");
    }

    @org.junit.jupiter.api.Test
    void blockersRefuseTheStartUnlessAllowed() {
        DrainPreview own = new DrainPreview("node03", java.util.List.of(), java.util.List.of(), java.util.List.of(W1));
        DrainPreview clean = new DrainPreview("node04", java.util.List.of(), java.util.List.of(), java.util.List.of());
        DrainPreview other = new DrainPreview("node02", java.util.List.of(), java.util.List.of(), java.util.List.of(WEB));
        DrainOptions options = DrainOptions.defaults();
        assertThat(DrainRules.refusalForBlockers(clean, java.util.List.of(), options)).isNull();
        assertThat(DrainRules.refusalForBlockers(own, java.util.List.of(clean), options)).isEqualTo(
                "refused to start: 1 blocker(s) (--allow-stranded to drain anyway): VirtualMachineInstance demo/workers-1: "
                        + "its replacement has nowhere to run: 0/4 nodes");
        // A node drained together with a blocked one does not start either.
        assertThat(DrainRules.refusalForBlockers(clean, java.util.List.of(other), options))
                .isEqualTo("refused to start: 1 blocker(s) (--allow-stranded to drain anyway): node node02: Pod demo/web-1: "
                        + "its replacement has nowhere to run: 0/4 nodes");
        assertThat(DrainRules.refusalForBlockers(own, java.util.List.of(other), options.withAllowStranded(true))).isNull();
    }

    @ParameterizedTest(name = "{0} {1} -> {2}")
    @CsvSource(delimiter = '|', textBlock = """
            EXTERNAL_EVACUATION | WAITING_FOR_MIGRATION | waiting for something outside KubeVirt to remove VMI vm (strategy External)
            EXTERNAL_EVACUATION | BLOCKED               | BLOCKED
            LIVE_MIGRATION      | WAITING_FOR_MIGRATION | WAITING_FOR_MIGRATION
            """)
    void waitingFor(PodOutcome outcome, PodState state, String expected) {
        PodPreview preview = new PodPreview("demo", "p", "u", outcome, "r", "vm", null, null);
        assertThat(DrainRules.waitingFor(preview, state)).isEqualTo(expected);
    }
}
