package dev.drainboard.handler;

import static org.assertj.core.api.Assertions.assertThat;

import dev.drainboard.hypervisor.MigrationOptions;
import dev.drainboard.hypervisor.MigrationProgress;
import dev.drainboard.kubevirt.KubeVirtLabels;
import dev.drainboard.kubevirt.api.MigrationState;
import dev.drainboard.kubevirt.api.VirtualMachineInstance;
import dev.drainboard.kubevirt.api.VirtualMachineInstanceStatus;
import dev.drainboard.kubevirt.config.MigrationConfig;
import dev.drainboard.simulation.SimulationKnobs;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.time.Instant;
import java.util.Map;

@DisplayName("node-side migration steps (virt-handler's migration source and target)")
class MigrationSyncTest {

    static VirtualMachineInstance vmi(String state, boolean labelled) {
        VirtualMachineInstance vmi = new VirtualMachineInstance();
        var meta = new ObjectMetaBuilder().withNamespace("default").withName("vm").withUid("vmi-uid");
        if (labelled) {
            meta.withLabels(Map.of(KubeVirtLabels.MIGRATION_TARGET_NODE_NAME, "node02"));
        }
        vmi.setMetadata(meta.build());
        VirtualMachineInstanceStatus status = new VirtualMachineInstanceStatus();
        status.setNodeName("node01");
        if (!state.equals("none")) {
            MigrationState s = new MigrationState();
            s.setMigrationUid(state.equals("no uid") ? null : "vmim-uid");
            s.setSourceNode("node01");
            s.setTargetNode("node02");
            if (!state.equals("handed off") && !state.equals("no uid")) {
                s.setTargetNodeAddress("10.0.0.2");
            }
            if (state.startsWith("started") || state.equals("completed") || state.equals("failed")) {
                s.setStartTimestamp("2026-01-01T00:00:00Z");
            }
            if (state.equals("started, abort requested")) {
                s.setAbortRequested(true);
            }
            if (state.equals("completed")) {
                s.setCompleted(true);
            }
            if (state.equals("failed")) {
                s.setFailed(true);
                s.setCompleted(true);
            }
            status.setMigrationState(s);
        }
        vmi.setStatus(status);
        return vmi;
    }

    static MigrationProgress transfer(String kind) {
        if (kind.equals("-")) {
            return null;
        }
        MigrationProgress.State state = MigrationProgress.State.valueOf(kind);
        return new MigrationProgress("vmi-uid", "node02", state, "PreCopy", 100, 50, 50, 10, 1,
                Instant.parse("2026-01-01T00:00:00Z"), null, null);
    }

    @ParameterizedTest(name = "[{index}] {0}, target label {1}, serves source {2} / target {3}, transfer {4} → {5}")
    @CsvSource(delimiter = '|', value = {
            // VMI's migration state     | label | source | target | transfer  | step
            "none                        | true  | true   | true   | -         | NONE",
            "no uid                      | true  | true   | true   | -         | NONE",
            "completed                   | true  | true   | true   | COMPLETED | NONE",
            "failed                      | true  | true   | true   | FAILED    | NONE",
            "handed off                  | true  | false  | true   | -         | PREPARE_TARGET",
            "handed off                  | false | false  | true   | -         | NONE",           // not called yet
            "handed off                  | true  | true   | false  | -         | NONE",           // the source waits for the target
            "target ready                | true  | true   | false  | -         | START",
            "target ready                | true  | false  | true   | -         | NONE",           // the target does not start it
            "started                     | true  | true   | false  | RUNNING   | REPORT_PROGRESS",
            "started, abort requested    | true  | true   | false  | RUNNING   | ABORT",
            "started                     | true  | true   | false  | COMPLETED | COMPLETE",
            "started                     | true  | true   | false  | FAILED    | FAIL",
            "started                     | true  | true   | false  | -         | FAIL",           // lost: the handler restarted
    })
    void steps(String state, boolean labelled, boolean servesSource, boolean servesTarget, String transfer, MigrationSync.Step step) {
        assertThat(MigrationSync.decide(vmi(state.trim(), labelled), servesSource, servesTarget, transfer(transfer.trim())))
                .isEqualTo(step);
    }

    @ParameterizedTest(name = "[{index}] node link {0}, bandwidthPerMigration {1}, dirty {2} → {3} B/s, dirty {4} B/s, completion {5} s")
    @CsvSource({
            "-,      -,     -,     536870912, 0,        150",  // 512 MiB/s by default
            "1Gi,    -,     64Mi,  1073741824, 67108864, 150",
            "1Gi,    100Mi, -,     104857600, 0,        150",   // the cluster's bandwidth limit wins over the link
            "garbage, -,    oops,  536870912, 0,        150",   // unparsable knobs fall back
    })
    void options(String link, String bandwidth, String dirty, long bytesPerSecond, long dirtyPerSecond, long completionPerGb) {
        MigrationConfig d = MigrationConfig.defaults();
        MigrationConfig config = new MigrationConfig(d.parallelMigrationsPerCluster(), d.parallelOutboundMigrationsPerNode(),
                d.nodeDrainTaintKey(), new Quantity(bandwidth.equals("-") ? "0Mi" : bandwidth), d.completionTimeoutPerGiB(),
                d.progressTimeout(), d.allowPostCopy(), d.allowAutoConverge(), d.allowWorkloadDisruption(),
                d.unsafeMigrationOverride(), d.maxDowntimeMs(), d.utilityVolumesTimeout());
        Map<String, String> node = link.equals("-") ? Map.of() : Map.of(SimulationKnobs.LINK_SPEED, link);
        Map<String, String> vmi = dirty.equals("-") ? Map.of() : Map.of(SimulationKnobs.MEMORY_DIRTY_RATE, dirty);
        MigrationOptions o = MigrationSync.options(config, node, vmi, 1L << 30);
        assertThat(o.bandwidthBytesPerSecond()).isEqualTo(bytesPerSecond);
        assertThat(o.dirtyRateBytesPerSecond()).isEqualTo(dirtyPerSecond);
        // 1 GiB is 1.07 decimal GB: two started GB.
        assertThat(o.completionTimeout().toSeconds()).isEqualTo(2 * completionPerGb);
    }
}
