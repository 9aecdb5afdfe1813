package dev.drainboard.ui.vmis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.drainboard.ui.model.VmiRow;
import org.junit.jupiter.api.Test;

class VmiFactsTest {

    private static VmiRow row(String phase, String waiting) {
        return new VmiRow("demo", "workers-x", phase, "", "None", "VMI", "Unknown", "not reported yet", "", "", "",
                "2025-01-01T00:00:00Z", "", "", null, waiting);
    }

    @Test
    void thePhaseFactSaysWhyAVmiWaitsToBePlaced() {
        assertThat(VmisView.facts(row("Scheduling", "Unschedulable: 0/4 nodes are available"))).anySatisfy(f -> {
            assertThat(f.getKey()).isEqualTo("Phase");
            assertThat(f.getValue()).isEqualTo("Scheduling — waiting: Unschedulable: 0/4 nodes are available");
        });
        assertThat(VmisView.facts(row("Running", ""))).anySatisfy(f -> {
            assertThat(f.getKey()).isEqualTo("Phase");
            assertThat(f.getValue()).isEqualTo("Running");
        });
    }
}
