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
}
