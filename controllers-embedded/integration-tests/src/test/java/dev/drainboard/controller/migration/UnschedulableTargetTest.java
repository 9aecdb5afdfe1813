package dev.drainboard.controller.migration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.drainboard.hypervisor.DomainState;
import dev.drainboard.kubevirt.api.MigrationPhase;
import dev.drainboard.kubevirt.api.VirtualMachineInstance;
import dev.drainboard.kubevirt.api.VirtualMachineInstanceMigration;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

/**
 * No room anywhere else: the target pod stays unschedulable, the migration fails after the (shortened) timeout and
 * the evacuation retries with a doubling back-off, while the VM keeps running on its node. Once room appears, the
 * next attempt succeeds.
 */
@DisplayName("target unschedulable: fail after the timeout, retry with back-off, the VM keeps running")
class UnschedulableTargetTest {

    @TempDir
    Path workDir;

    @Test
    void failsRetriesWithBackoffAndKeepsTheVmRunning() throws Exception {
        MigrationTimings timings = new MigrationTimings(Duration.ofSeconds(2), Duration.ofSeconds(900), Duration.ofSeconds(2));
        try (MigrationTestCluster c = new MigrationTestCluster(workDir, timings)) {
            c.node("node01", Map.of());
            VirtualMachineInstance created = c.createVmi("vm", "LiveMigrate", Map.of());
            c.awaitRunningMigratable("vm");
            c.node("node02", Map.of());
            c.client.nodes().withName("node02").patch(PatchContext.of(PatchType.JSON_MERGE), "{\"spec\":{\"unschedulable\":true}}");
            c.client.nodes().withName("node01").patch(PatchContext.of(PatchType.JSON_MERGE),
                    "{\"spec\":{\"taints\":[{\"key\":\"kubevirt.io/drain\",\"effect\":\"NoSchedule\"}]}}");

            await().atMost(Duration.ofSeconds(60)).until(() -> failed(c).size() >= 3);
            List<VirtualMachineInstanceMigration> failed = failed(c);
            assertThat(failed.getFirst().getStatus().getMigrationState() == null
                    || failed.getFirst().getStatus().getMigrationState().getCompleted() == null).isTrue();
            // Each retry waits longer: 2 s, then 4 s, after the previous failure.
            Instant firstFailed = MigrationDecision.transitionTime(failed.get(0), MigrationPhase.FAILED).orElseThrow();
            Instant secondScheduling = MigrationDecision.transitionTime(failed.get(1), MigrationPhase.SCHEDULING).orElseThrow();
            Instant secondFailed = MigrationDecision.transitionTime(failed.get(1), MigrationPhase.FAILED).orElseThrow();
            Instant thirdScheduling = MigrationDecision.transitionTime(failed.get(2), MigrationPhase.SCHEDULING).orElseThrow();
            assertThat(Duration.between(firstFailed, secondScheduling)).isGreaterThanOrEqualTo(Duration.ofSeconds(1));
            assertThat(Duration.between(secondFailed, thirdScheduling)).isGreaterThanOrEqualTo(Duration.ofSeconds(3));

            VirtualMachineInstance vmi = c.vmi("vm");
            assertThat(vmi.getStatus().getPhase()).isEqualTo("Running");
            assertThat(vmi.getStatus().getNodeName()).isEqualTo("node01");
            assertThat(c.cluster.hypervisors().forNode("node01").orElseThrow().domain(created.getMetadata().getUid()))
                    .hasValueSatisfying(d -> assertThat(d.state()).isEqualTo(DomainState.RUNNING));

            c.client.nodes().withName("node02").patch(PatchContext.of(PatchType.JSON_MERGE), "{\"spec\":{\"unschedulable\":false}}");
            await().atMost(Duration.ofSeconds(60)).until(() -> "node02".equals(c.vmi("vm").getStatus().getNodeName()));
            assertThat(c.vmi("vm").getStatus().getPhase()).isEqualTo("Running");
        }
    }

    private static List<VirtualMachineInstanceMigration> failed(MigrationTestCluster c) {
        return c.migrations().stream().filter(m -> m.getStatus() != null && "Failed".equals(m.getStatus().getPhase()))
                .sorted(Comparator.comparing(m -> m.getMetadata().getCreationTimestamp() + m.getMetadata().getName()))
                .toList();
    }
}
