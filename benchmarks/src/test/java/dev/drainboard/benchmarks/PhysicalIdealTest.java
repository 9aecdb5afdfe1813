package dev.drainboard.benchmarks;

import dev.drainboard.simulation.SimulationKnobs;
import dev.drainboard.handler.MigrationSync;
import dev.drainboard.kubevirt.api.VirtualMachineInstance;
import dev.drainboard.kubevirt.config.MigrationConfig;
import io.fabric8.kubernetes.client.utils.Serialization;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.time.Duration;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/** The physical ideal of a drain: each VMI's memory over the simulated link, summed, over the migration slots. */
class PhysicalIdealTest {

    static final long MIB = 1L << 20;

    @Test
    void theLinkSpeedAndDirtyRateAreTheOnesTheNodeHandlerResolves() {
        MigrationConfig defaults = MigrationConfig.defaults();
        VirtualMachineInstance plain = vmi("1Gi", Map.of());

        PhysicalIdeal.Transfer byDefault = PhysicalIdeal.transfer(defaults, Map.of(), plain);
        assertThat(byDefault.bandwidthBytesPerSecond()).isEqualTo(MigrationSync.DEFAULT_LINK_BYTES_PER_SECOND);
        assertThat(byDefault.memoryBytes()).isEqualTo(1024 * MIB);
        assertThat(byDefault.dirtyRateBytesPerSecond()).isZero();
        assertThat(byDefault.seconds()).isCloseTo(1024.0 * MIB / MigrationSync.DEFAULT_LINK_BYTES_PER_SECOND, within(1e-9));

        assertThat(PhysicalIdeal.transfer(defaults, Map.of(SimulationKnobs.LINK_SPEED, "1Gi"), plain).seconds())
                .isCloseTo(1.0, within(1e-9));
        assertThat(PhysicalIdeal.transfer(defaults, Map.of(SimulationKnobs.LINK_SPEED, "512Mi"),
                vmi("1Gi", Map.of(SimulationKnobs.MEMORY_DIRTY_RATE, "256Mi"))).seconds()).isCloseTo(3.0, within(1e-9));
    }

    @ParameterizedTest(name = "{0} s of transfers over {1} slots: {2} s")
    @CsvSource(delimiter = '|', textBlock = """
            2 2 2 2               | 2 | 4.0
            1 2 3                 | 2 | 3.0
            2 2 2 2 2 2 2 2 2 2   | 5 | 4.0
            """)
    void theTransfersAreSummedOverTheSlots(String transfers, int slots, double seconds) {
        List<PhysicalIdeal.Transfer> list = Arrays.stream(transfers.trim().split("\\s+"))
                .map(s -> new PhysicalIdeal.Transfer(0, 1, 0, Double.parseDouble(s))).toList();
        assertThat(PhysicalIdeal.of(list, slots).seconds()).isCloseTo(seconds, within(1e-9));
    }

    @ParameterizedTest(name = "{0} drained nodes: {1} slots with KubeVirt's default limits")
    @CsvSource({"1, 2", "2, 4", "3, 5", "4, 5"})
    void theSlotsAreEachNodesLimitUpToTheClusters(int nodes, int slots) {
        assertThat(PhysicalIdeal.slots(MigrationConfig.defaults(), nodes)).isEqualTo(slots);
    }

    @Test
    void nEqualVmisAreNTransfersOverTheSlots() {
        PhysicalIdeal.Transfer oneGiB = PhysicalIdeal.transfer(MigrationConfig.defaults(), Map.of(), vmi("1Gi", Map.of()));
        PhysicalIdeal part1 = PhysicalIdeal.of(Collections.nCopies(40, oneGiB), 2);
        PhysicalIdeal part2 = PhysicalIdeal.of(Collections.nCopies(80, oneGiB), 5);

        assertThat(part1.seconds()).isCloseTo(40.0, within(1e-9));
        assertThat(part2.seconds()).isCloseTo(32.0, within(1e-9));
        assertThat(part1.describe()).isEqualTo(
                "40 × (1 GiB at 512 MiB/s, dirty 0 MiB/s: 2.00 s) = 80.00 s of transfer / 2 slots = 40.00 s");
    }

    private static VirtualMachineInstance vmi(String memory, Map<String, String> annotations) {
        VirtualMachineInstance vmi = Serialization.unmarshal("""
                apiVersion: kubevirt.io/v1
                kind: VirtualMachineInstance
                metadata: {name: vm, namespace: bench, uid: 6f1c0c1e-0000-4000-8000-000000000001}
                spec:
                  evictionStrategy: LiveMigrate
                  networks: [{name: default, pod: {}}]
                  domain: {devices: {interfaces: [{name: default, masquerade: {}}]}, memory: {guest: %s}}
                """.formatted(memory), VirtualMachineInstance.class);
        vmi.getMetadata().setAnnotations(annotations);
        return vmi;
    }
}
