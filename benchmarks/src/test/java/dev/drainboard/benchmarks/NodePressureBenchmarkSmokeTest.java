package dev.drainboard.benchmarks;

import dev.drainboard.kubevirt.config.NodePressureAssist;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Runs the node-pressure benchmark with 2 VMs, one grace period and each assist: proves every evicted VM ends saved
 * or lost and every cell is reported, measures nothing.
 */
class NodePressureBenchmarkSmokeTest {

    @Test
    void everyVmIsCountedForEachAssist() throws Exception {
        NodePressureBenchmark.Sizes sizes = NodePressureBenchmark.Sizes.smoke();
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        NodePressureBenchmark.Report report = NodePressureBenchmark.run(sizes,
                new PrintStream(printed, true, StandardCharsets.UTF_8));

        assertThat(report.cells()).containsOnlyKeys(sizes.graces());
        report.cells().values().forEach(byAssist -> {
            assertThat(byAssist).containsOnlyKeys(NodePressureAssist.values());
            byAssist.values().forEach(cell -> {
                assertThat(cell.evicted()).isEqualTo(sizes.vms());
                assertThat(cell.saved()).isBetween(0, cell.evicted());
                assertThat(cell.saved() + cell.lost()).isEqualTo(cell.evicted());
                assertThat(cell.lostVms()).hasSize(cell.lost());
                assertThat(cell.seconds()).isPositive();
            });
        });
        String output = printed.toString(StandardCharsets.UTF_8);
        assertThat(output).contains("hypervisor tick 5.0 ms, progress every 25.0 ms",
                "| evictionMaxPodGracePeriod | None | AutoConverge | PauseBeforeKill |");
        for (NodePressureAssist assist : NodePressureAssist.values()) {
            assertThat(output).containsPattern("evictionMaxPodGracePeriod +30 s, assist " + assist.value() + " *: saved +\\d of +2 ");
        }
    }
}
