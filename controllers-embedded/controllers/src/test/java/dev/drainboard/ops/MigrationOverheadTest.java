package dev.drainboard.ops;

import dev.drainboard.kubevirt.api.MigrationState;
import dev.drainboard.kubevirt.api.PhaseTransitionTimestamp;
import dev.drainboard.kubevirt.api.VirtualMachineInstance;
import dev.drainboard.kubevirt.api.VirtualMachineInstanceMigration;
import dev.drainboard.kubevirt.api.VirtualMachineInstanceMigrationSpec;
import dev.drainboard.kubevirt.api.VirtualMachineInstanceMigrationStatus;
import dev.drainboard.kubevirt.config.MigrationConfig;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import static dev.drainboard.ops.DrainPlacementTest.domain;
import static dev.drainboard.ops.DrainPlacementTest.node;
import static dev.drainboard.ops.DrainPreviewTest.vmi;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class MigrationOverheadTest {

    /**
     * Samples as {@code endedSecond:held:transfer}; the overhead is the mean of held − transfer over the newest
     * {@value MigrationOverhead#SAMPLES}, at least 0. Second-rounded phase times (2 and 3 for a 2.5 s hold) average out.
     */
    @ParameterizedTest(name = "[{index}] {0} -> {1} s from {2}")
    @CsvSource(delimiter = '|', textBlock = """
            ''                              | 0     | 0
            1:3:2                           | 1     | 1
            1:2:2.5                         | 0     | 1
            1:2:2 2:3:2                     | 0.5   | 2
            1:3:2 2:3:Infinity              | 1     | 1
            """)
    void meanOfHeldLessTransfer(String samples, double overhead, int count) {
        List<MigrationOverhead.Sample> list = new ArrayList<>();
        for (String s : samples.isBlank() ? new String[0] : samples.split(" ")) {
            String[] f = s.split(":");
            list.add(new MigrationOverhead.Sample(Instant.ofEpochSecond(Long.parseLong(f[0])), Double.parseDouble(f[1]),
                    Double.parseDouble(f[2])));
        }
        MigrationOverhead.Observed o = MigrationOverhead.fromSamples(list);
        assertThat(o.secondsPerMigration()).isCloseTo(overhead, within(1e-9));
        assertThat(o.samples()).isEqualTo(count);
    }

    @Test
    @DisplayName("only the newest 20 count: 20 recent slow ones outweigh 30 old fast ones")
    void newestSamplesOnly() {
        List<MigrationOverhead.Sample> list = new ArrayList<>();
        for (int i = 0; i < 30; i++) {
            list.add(new MigrationOverhead.Sample(Instant.ofEpochSecond(i), 2, 2));
        }
        for (int i = 100; i < 120; i++) {
            list.add(new MigrationOverhead.Sample(Instant.ofEpochSecond(i), 5, 2));
        }
        assertThat(MigrationOverhead.fromSamples(list)).isEqualTo(new MigrationOverhead.Observed(3, 20));
    }

    @Test
    @DisplayName("from VMIMs: Scheduling → Succeeded less the transfer over the source node's link; failed, running and orphaned ones are left out")
    void fromMigrations() {
        VirtualMachineInstance web = vmi("web", "LiveMigrate", true, null);
        web.getSpec().setDomain(domain("1Gi"));
        Node slow = new io.fabric8.kubernetes.api.model.NodeBuilder(node("slow")).editMetadata()
                .addToAnnotations("sim.drainboard.dev/link-speed", "256Mi").endMetadata().build();
        // Off "slow" (256Mi/s: 4 s for 1Gi), held 5 s: 1 s over.
        var fromSlow = succeeded("web", "slow", "2025-01-01T00:00:00Z", "2025-01-01T00:00:05Z");
        // Off a node at the default 512Mi/s (2 s), held 4 s: 2 s over.
        var fromFast = succeeded("web", "fast", "2025-01-01T00:01:00Z", "2025-01-01T00:01:04Z");
        var failed = succeeded("web", "fast", "2025-01-01T00:02:00Z", "2025-01-01T00:03:00Z");
        failed.getStatus().setPhase("Failed");
        var orphan = succeeded("gone", "fast", "2025-01-01T00:02:00Z", "2025-01-01T00:03:00Z");
        MigrationOverhead.Observed o = MigrationOverhead.of(List.of(fromSlow, fromFast, failed, orphan), List.of(web),
                List.of(slow, node("fast")), MigrationConfig.defaults());
        assertThat(o).isEqualTo(new MigrationOverhead.Observed(1.5, 2));
    }

    /** A VMIM of {@code vmi} off {@code source} that entered Scheduling and Succeeded at these times. */
    static VirtualMachineInstanceMigration succeeded(String vmi, String source, String scheduling, String succeeded) {
        VirtualMachineInstanceMigration m = new VirtualMachineInstanceMigration();
        m.setMetadata(new ObjectMetaBuilder().withNamespace("demo").withName(vmi + "-" + scheduling.hashCode()).withUid("m-" + scheduling).build());
        VirtualMachineInstanceMigrationSpec spec = new VirtualMachineInstanceMigrationSpec();
        spec.setVmiName(vmi);
        m.setSpec(spec);
        VirtualMachineInstanceMigrationStatus status = new VirtualMachineInstanceMigrationStatus();
        status.setPhase("Succeeded");
        status.setPhaseTransitionTimestamps(new ArrayList<>(List.of(new PhaseTransitionTimestamp("Pending", scheduling),
                new PhaseTransitionTimestamp("Scheduling", scheduling), new PhaseTransitionTimestamp("Succeeded", succeeded))));
        MigrationState state = new MigrationState();
        state.setSourceNode(source);
        status.setMigrationState(state);
        m.setStatus(status);
        return m;
    }
}
