package dev.drainboard.handler;

import static org.assertj.core.api.Assertions.assertThat;

import dev.drainboard.hypervisor.Domain;
import dev.drainboard.hypervisor.DomainState;
import dev.drainboard.hypervisor.StopReason;
import dev.drainboard.kubevirt.api.EvictionStrategy;
import dev.drainboard.kubevirt.api.VirtualMachineInstance;
import dev.drainboard.kubevirt.config.ClusterConfig;
import dev.drainboard.kubevirt.config.MigrationConfig;
import io.fabric8.kubernetes.client.utils.Serialization;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/** The node-pressure proposal's shouldEvacuateVMI (docs/behaviour.md), row by row, and the kill the handler expects. */
class NodePressureEvacuationTest {

    static final Instant NOW = Instant.parse("2025-01-01T12:00:00Z");
    static final String GATE = "NodePressureEvictionLiveMigration";

    static VirtualMachineInstance vmi(String phase, boolean deleting, String strategy, Long grace) {
        return Serialization.unmarshal("""
                apiVersion: kubevirt.io/v1
                kind: VirtualMachineInstance
                metadata: {name: vm, namespace: default, uid: uid-1 %s}
                spec: {%s %s}
                status: {phase: %s, nodeName: n1}
                """.formatted(deleting ? ", deletionTimestamp: \"2025-01-01T11:59:00Z\"" : "",
                strategy.equals("-") ? "" : "evictionStrategy: " + strategy + ",",
                grace == null ? "" : "terminationGracePeriodSeconds: " + grace, phase), VirtualMachineInstance.class);
    }

    static Domain domain(DomainState state, boolean sigterm, Instant shutdownAt, boolean incoming) {
        return new Domain("uid-1", "default", "vm", "n1", state, StopReason.NONE, 1L << 30, 30, sigterm, shutdownAt,
                incoming, null, sigterm ? NOW.minusSeconds(2) : null);
    }

    static ClusterConfig config(boolean gate, EvictionStrategy clusterDefault) {
        return new ClusterConfig(clusterDefault, MigrationConfig.defaults(), gate ? Set.of(GATE) : Set.of(), Optional.empty());
    }

    @ParameterizedTest(name = "[{index}] {0}")
    @CsvSource(delimiter = ';', value = {
            // description; gate; VMI phase; deleting; strategy (- = cluster default); cluster default; domain; SIGTERM; ACPI sent; incoming; migratable; evacuate
            "LiveMigrate, migratable, SIGTERM: evacuate; true; Running; false; LiveMigrate; None; RUNNING; true; false; false; true; true",
            "gate off: shut down; false; Running; false; LiveMigrate; None; RUNNING; true; false; false; true; false",
            "LiveMigrate, not migratable: shut down; true; Running; false; LiveMigrate; None; RUNNING; true; false; false; false; false",
            "LiveMigrateIfPossible, migratable: evacuate; true; Running; false; LiveMigrateIfPossible; None; RUNNING; true; false; false; true; true",
            "LiveMigrateIfPossible, not migratable: shut down; true; Running; false; LiveMigrateIfPossible; None; RUNNING; true; false; false; false; false",
            "External, not migratable: evacuate (its actor decides); true; Running; false; External; None; RUNNING; true; false; false; false; true",
            "None: shut down; true; Running; false; None; LiveMigrate; RUNNING; true; false; false; true; false",
            "no own strategy, cluster LiveMigrate: evacuate; true; Running; false; -; LiveMigrate; RUNNING; true; false; false; true; true",
            "no own strategy, cluster None: shut down; true; Running; false; -; None; RUNNING; true; false; false; true; false",
            "VMI being deleted: the owner's intent, shut down; true; Running; true; LiveMigrate; None; RUNNING; true; false; false; true; false",
            "no SIGTERM: nothing to evacuate for; true; Running; false; LiveMigrate; None; RUNNING; false; false; false; true; false",
            "VMI Scheduled, not Running: shut down; true; Scheduled; false; LiveMigrate; None; RUNNING; true; false; false; true; false",
            "VMI already Failed: shut down; true; Failed; false; LiveMigrate; None; RUNNING; true; false; false; true; false",
            "domain off: nothing to save; true; Running; false; LiveMigrate; None; SHUTOFF; true; false; false; true; false",
            "guest powering itself off, no ACPI from the handler: still alive, evacuate; true; Running; false; LiveMigrate; None; SHUTTING_DOWN; true; false; false; true; true",
            "ACPI shutdown already sent: too late; true; Running; false; LiveMigrate; None; SHUTTING_DOWN; true; true; false; true; false",
            "an incoming migration target: not the source; true; Running; false; LiveMigrate; None; RUNNING; true; false; true; true; false",
    })
    void shouldEvacuate(String description, boolean gate, String phase, boolean deleting, String strategy, String clusterDefault,
                        DomainState state, boolean sigterm, boolean acpiSent, boolean incoming, boolean migratable, boolean expected) {
        boolean decided = NodePressureEvacuation.shouldEvacuate(config(gate, EvictionStrategy.parse(clusterDefault).orElseThrow()),
                vmi(phase, deleting, strategy, null), domain(state, sigterm, acpiSent ? NOW.minusSeconds(1) : null, incoming), migratable);
        assertThat(decided).isEqualTo(expected);
    }

    @ParameterizedTest(name = "[{index}] VMI grace {0}, node max {1} → kill {2} s after SIGTERM")
    @CsvSource({
            "-, -, 60",      // the launcher pod's own grace: 30 + 30
            "-, 300, 60",    // the kubelet caps at the pod's grace
            "300, 300, 300", // a VMI that asks for 300 s gets the node's 300
            "-, 30, 30",
            "0, 300, 30",
            "-, bad, 60",
    })
    void expectedKill(String vmiGrace, String nodeMax, long seconds) {
        Map<String, String> node = nodeMax.equals("-") ? Map.of() : Map.of("sim.drainboard.dev/eviction-max-pod-grace-period", nodeMax);
        Domain d = domain(DomainState.RUNNING, true, null, false);
        Instant kill = NodePressureEvacuation.expectedKill(vmi("Running", false, "LiveMigrate",
                vmiGrace.equals("-") ? null : Long.parseLong(vmiGrace)), d, node, NOW);
        assertThat(kill).isEqualTo(d.gracefulShutdownRequestedAt().plusSeconds(seconds));
    }

    @Test
    void thePauseLeavesATwentiethOfTheWindowAtMostOneSecond() {
        assertThat(NodePressureEvacuation.pauseBy(NOW, NOW.plusSeconds(300))).isEqualTo(NOW.plusSeconds(299));
        assertThat(NodePressureEvacuation.pauseBy(NOW, NOW.plusSeconds(10))).isEqualTo(NOW.plusMillis(9500));
    }
}
