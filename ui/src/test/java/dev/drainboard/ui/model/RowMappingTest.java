package dev.drainboard.ui.model;

import dev.drainboard.kubevirt.api.Condition;
import dev.drainboard.kubevirt.api.VirtualMachineInstance;
import dev.drainboard.kubevirt.api.VirtualMachineInstanceSpec;
import dev.drainboard.kubevirt.api.VirtualMachineInstanceStatus;
import dev.drainboard.kubevirt.config.ClusterConfig;
import io.fabric8.kubernetes.api.model.LabelSelectorBuilder;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudgetBuilder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

class RowMappingTest {

    @ParameterizedTest(name = "cordoned={0}, vmis={1}, daemonset pods={2}, other pods={3}, finished pods={4} → {5}")
    @CsvSource({
            "false, 0, 1, 0, 0, IN_SERVICE",
            "false, 3, 1, 2, 0, IN_SERVICE",
            "true,  0, 1, 0, 0, SAFE",
            "true,  0, 0, 0, 2, SAFE",
            "true,  1, 1, 0, 0, DRAINING",
            "true,  0, 1, 1, 0, DRAINING",
    })
    void safeToRebootMeansCordonedAndEmptyButForDaemonSets(boolean cordoned, int vmis, int daemonSetPods, int otherPods,
                                                           int finishedPods, NodeRow.RebootSafety expected) {
        Node node = new NodeBuilder().withNewMetadata().withName("n1").endMetadata()
                .withNewSpec().withUnschedulable(cordoned).endSpec()
                .withNewStatus().addNewCondition().withType("Ready").withStatus("True").endCondition()
                .addToAllocatable("cpu", new Quantity("4")).addToAllocatable("memory", new Quantity("8Gi")).endStatus()
                .build();
        List<Pod> pods = new ArrayList<>();
        for (int i = 0; i < daemonSetPods; i++) {
            pods.add(pod("ds-" + i, "DaemonSet", "Running"));
        }
        for (int i = 0; i < otherPods; i++) {
            pods.add(pod("rs-" + i, "ReplicaSet", "Running"));
        }
        for (int i = 0; i < finishedPods; i++) {
            pods.add(pod("job-" + i, "Job", "Succeeded"));
        }

        assertThat(RowMapping.nodeRow(node, pods, vmis).rebootSafety()).isEqualTo(expected);
    }

    @ParameterizedTest(name = "{0}: holds the node {1}")
    @CsvSource({"Running, 1", "Scheduled, 1", "Pending, 1", "Failed, 0", "Succeeded, 0"})
    void aVmiInAFinalPhaseDoesNotKeepTheNodeFromBeingSafe(String phase, int holding) {
        VirtualMachineInstance vmi = vmi("v", Map.of());
        VirtualMachineInstanceStatus status = new VirtualMachineInstanceStatus();
        status.setPhase(phase);
        status.setNodeName("n1");
        vmi.setStatus(status);
        assertThat(RowMapping.vmisHoldingNode(List.of(vmi))).isEqualTo(holding);
    }

    @Test
    void nodeRowSumsRequestsOfPodsStillRunning() {
        Node node = new NodeBuilder().withNewMetadata().withName("n1").addToLabels("node-role.kubernetes.io/worker", "")
                .addToLabels("topology.kubernetes.io/zone", "zone-a").endMetadata()
                .withNewSpec().addNewTaint().withKey("kubevirt.io/drain").withEffect("NoSchedule").endTaint().endSpec()
                .withNewStatus().addNewCondition().withType("Ready").withStatus("False").endCondition()
                .addNewCondition().withType("MemoryPressure").withStatus("True").endCondition()
                .addToAllocatable("cpu", new Quantity("16")).addToAllocatable("memory", new Quantity("64Gi")).endStatus()
                .build();
        NodeRow row = RowMapping.nodeRow(node, List.of(pod("a", "ReplicaSet", "Running"), pod("b", "Job", "Failed")), 2);

        assertThat(row.status()).isEqualTo("NotReady");
        assertThat(row.roles()).isEqualTo("worker");
        assertThat(row.zone()).isEqualTo("zone-a");
        assertThat(row.taints()).containsExactly("kubevirt.io/drain:NoSchedule");
        assertThat(row.memoryPressure()).isTrue();
        assertThat(row.cpuRequestedMillis()).isEqualTo(250);
        assertThat(row.memoryRequestedBytes()).isEqualTo(128L * 1024 * 1024);
        assertThat(row.cpuAllocatableMillis()).isEqualTo(16_000);
        assertThat(row.pods()).isEqualTo(1);
    }

    @ParameterizedTest(name = "own={0}, cluster default={1} → {2} from {3}")
    @CsvSource({
            "LiveMigrate, None,        LiveMigrate, VMI",
            ",            None,        None,        cluster default",
            ",            LiveMigrate, LiveMigrate, cluster default",
            "Bogus,       LiveMigrate, None,        VMI",
    })
    void evictionStrategyAndWhereItCameFrom(String own, String clusterDefault, String strategy, String source) {
        VirtualMachineInstance vmi = vmi("v", Map.of());
        vmi.getSpec().setEvictionStrategy(own);
        ClusterConfig config = new ClusterConfig(dev.drainboard.kubevirt.api.EvictionStrategy.parse(clusterDefault).orElseThrow(),
                dev.drainboard.kubevirt.config.MigrationConfig.defaults(), java.util.Set.of(), Optional.of("kubevirt/kubevirt"));

        VmiRow row = RowMapping.vmiRow(vmi, config, List.of(), Optional.empty());

        assertThat(row.evictionStrategy()).isEqualTo(strategy);
        assertThat(row.strategySource()).isEqualTo(source);
    }

    @Test
    void aVmiLostToNodePressureSaysSoAndOneStillMovingShowsItsDeadline() {
        VirtualMachineInstance lost = vmi("lost", Map.of());
        lost.getMetadata().setAnnotations(Map.of("drainboard.dev/lost-to-node-pressure",
                "killed on node node01 at 2025-01-01T12:00:00Z before its live migration finished"));
        VirtualMachineInstance moving = vmi("moving", Map.of());
        moving.getMetadata().setAnnotations(Map.of("drainboard.dev/node-pressure-deadline", "2025-01-01T12:05:00Z"));

        VmiRow lostRow = RowMapping.vmiRow(lost, ClusterConfig.defaults(), List.of(), Optional.empty());
        VmiRow movingRow = RowMapping.vmiRow(moving, ClusterConfig.defaults(), List.of(), Optional.empty());

        assertThat(lostRow.isLostToNodePressure()).isTrue();
        assertThat(lostRow.lostToNodePressure()).contains("killed on node node01");
        assertThat(lostRow.searchText()).contains("lost to node pressure");
        assertThat(movingRow.isLostToNodePressure()).isFalse();
        assertThat(movingRow.nodePressureDeadline()).isEqualTo("2025-01-01T12:05:00Z");
        assertThat(RowMapping.vmiRow(vmi("plain", Map.of()), ClusterConfig.defaults(), List.of(), Optional.empty()).nodePressureDeadline()).isEmpty();
    }

    @Test
    void aVmiWaitingToBePlacedSaysWhyInItsPhaseFact() {
        VirtualMachineInstance vmi = vmi("workers-x", Map.of());
        VirtualMachineInstanceStatus status = new VirtualMachineInstanceStatus();
        status.setPhase("Scheduling");
        status.setConditions(List.of(new Condition("PodScheduled", "False", "Unschedulable",
                "0/4 nodes are available: 1 node(s) were unschedulable, 3 node(s) didn't match Pod's node affinity/selector.")));
        vmi.setStatus(status);

        VmiRow row = RowMapping.vmiRow(vmi, ClusterConfig.defaults(), List.of(), Optional.empty());

        assertThat(row.waiting()).isEqualTo("Unschedulable: 0/4 nodes are available: 1 node(s) were unschedulable, "
                + "3 node(s) didn't match Pod's node affinity/selector.");
        assertThat(RowMapping.vmiRow(vmi("plain", Map.of()), ClusterConfig.defaults(), List.of(), Optional.empty()).waiting()).isEmpty();
    }

    @Test
    void migratabilityReasonAndProtectingPdbs() {
        VirtualMachineInstance vmi = vmi("ledger", Map.of("app", "ledger"));
        VirtualMachineInstanceStatus status = new VirtualMachineInstanceStatus();
        status.setConditions(List.of(new Condition("LiveMigratable", "False", "DisksNotLiveMigratable", "PVC local-disk is not shared")));
        status.setEvacuationNodeName("node02");
        vmi.setStatus(status);
        PodDisruptionBudget byLabels = pdb("ledger-pdb", Map.of("app", "ledger"));
        PodDisruptionBudget byUid = pdb("kubevirt-disruption-budget-abc", Map.of("kubevirt.io/created-by", "uid-ledger"));
        PodDisruptionBudget other = pdb("web", Map.of("app", "web"));

        VmiRow row = RowMapping.vmiRow(vmi, ClusterConfig.defaults(), List.of(byLabels, byUid, other), Optional.empty());

        assertThat(row.liveMigratable()).isEqualTo("False");
        assertThat(row.migratableReason()).isEqualTo("DisksNotLiveMigratable: PVC local-disk is not shared");
        assertThat(row.markedForEvacuation()).isTrue();
        assertThat(row.pdbs()).isEqualTo("kubevirt-disruption-budget-abc, ledger-pdb");
    }

    @ParameterizedTest(name = "{0} on {1} → {2}")
    @CsvSource(delimiter = '|', value = {
            "app=web            | app=web,tier=fe | true",
            "app=web            | app=db          | false",
            "tier in (a,b)      | tier=b          | true",
            "tier notin (a,b)   | tier=b          | false",
            "tier               | tier=x          | true",
            "!tier              | tier=x          | false",
            "(empty)            | app=web         | true",
    })
    void labelSelectors(String selector, String labels, boolean matches) {
        LabelSelectorBuilder b = new LabelSelectorBuilder();
        String s = selector.trim();
        if (s.contains(" in ")) {
            String[] p = s.split(" in ");
            b.addNewMatchExpression().withKey(p[0]).withOperator("In").withValues(p[1].replaceAll("[()]", "").split(",")).endMatchExpression();
        } else if (s.contains(" notin ")) {
            String[] p = s.split(" notin ");
            b.addNewMatchExpression().withKey(p[0]).withOperator("NotIn").withValues(p[1].replaceAll("[()]", "").split(",")).endMatchExpression();
        } else if (s.startsWith("!")) {
            b.addNewMatchExpression().withKey(s.substring(1)).withOperator("DoesNotExist").endMatchExpression();
        } else if (s.contains("=")) {
            String[] p = s.split("=");
            b.addToMatchLabels(p[0], p[1]);
        } else if (!s.equals("(empty)")) {
            b.addNewMatchExpression().withKey(s).withOperator("Exists").endMatchExpression();
        }
        Map<String, String> l = new java.util.HashMap<>();
        for (String kv : labels.trim().split(",")) {
            String[] p = kv.split("=");
            l.put(p[0], p[1]);
        }
        assertThat(LabelSelectors.matches(b.build(), l)).isEqualTo(matches);
    }

    @ParameterizedTest(name = "spec.priority {0} → \"{1}\"")
    @CsvSource(delimiter = '|', value = {"system-critical | system-critical", "system-maintenance | system-maintenance", "none | ''"})
    void theMigrationPriorityIsShownWhenSet(String priority, String shown) {
        var vmim = vmim("Pending", Map.of());
        vmim.getSpec().setPriority(priority.equals("none") ? null : priority);
        MigrationRow row = RowMapping.migrationRow(vmim, null);
        assertThat(row.priority()).isEqualTo(shown);
        assertThat(row.searchText()).contains(shown);
    }

    @ParameterizedTest(name = "annotations {0} → cause \"{1}\"")
    @CsvSource(delimiter = '|', value = {
            "drainboard.dev/migration-cause=node drain taint                                 | node drain taint",
            "drainboard.dev/migration-cause=API eviction,kubevirt.io/evacuationMigration=n1 | API eviction",
            "kubevirt.io/evacuationMigration=node03                                          | evacuation of node03",
            "kubevirt.io/workloadUpdateMigration=                                            | workload update",
            "''                                                                              | requested",
    })
    void theMigrationCauseComesFromDrainboardsAnnotationFirst(String annotations, String cause) {
        var vmim = vmim("Running", annotations.isEmpty() ? Map.of() : java.util.Arrays.stream(annotations.split(","))
                .map(a -> a.split("=", 2)).collect(java.util.stream.Collectors.toMap(a -> a[0], a -> a.length > 1 ? a[1] : "")));

        assertThat(RowMapping.migrationRow(vmim, null).cause()).isEqualTo(cause);
    }

    @Test
    void aMigrationRowCarriesItsTransferAndWhetherRemainingGrew() {
        String first = "{\"state\":\"RUNNING\",\"mode\":\"PreCopy\",\"iteration\":1,\"totalBytes\":100,\"processedBytes\":20,"
                + "\"remainingBytes\":80,\"bytesPerSecond\":10,\"updated\":\"2026-11-22T03:00:00Z\"}";
        String second = first.replace("\"processedBytes\":20", "\"processedBytes\":30").replace("\"remainingBytes\":80", "\"remainingBytes\":95")
                .replace("03:00:00Z", "03:00:01Z");
        MigrationRow before = RowMapping.migrationRow(vmim("Running", Map.of("drainboard.dev/migration-progress", first)), null);
        MigrationRow after = RowMapping.migrationRow(vmim("Running", Map.of("drainboard.dev/migration-progress", second)),
                before.progress());

        assertThat(before.progress().trend()).isEqualTo(TransferProgress.Trend.FIRST_SAMPLE);
        assertThat(after.progress().notConverging()).isTrue();
        assertThat(after.progress().fraction()).isEqualTo(30.0 / 125);
        assertThat(after.until()).isNull();
        assertThat(after.finished()).isFalse();
    }

    @Test
    void aFinishedMigrationEndsAtItsEndTimestampElseAtItsFinalPhase() {
        var ended = vmim("Succeeded", Map.of());
        ended.getStatus().getMigrationState().setEndTimestamp("2026-11-22T03:01:00Z");
        var failedEarly = vmim("Failed", Map.of());
        failedEarly.getStatus().setMigrationState(null);
        failedEarly.getStatus().setPhaseTransitionTimestamps(List.of(
                new dev.drainboard.kubevirt.api.PhaseTransitionTimestamp("Pending", "2026-11-22T03:00:00Z"),
                new dev.drainboard.kubevirt.api.PhaseTransitionTimestamp("Failed", "2026-11-22T03:00:20Z")));

        assertThat(RowMapping.migrationRow(ended, null).until()).isEqualTo(java.time.Instant.parse("2026-11-22T03:01:00Z"));
        assertThat(RowMapping.migrationRow(failedEarly, null).until()).isEqualTo(java.time.Instant.parse("2026-11-22T03:00:20Z"));
        assertThat(RowMapping.migrationRow(failedEarly, null).elapsed(java.time.Instant.parse("2026-11-22T04:00:00Z")))
                .isEqualTo(java.time.Duration.ofSeconds(20));
    }

    @Test
    void onlyPodsAVmiOwnsBecomeLauncherPodRows() {
        Pod launcher = new PodBuilder().withNewMetadata().withName("virt-launcher-db-x").withNamespace("demo")
                .addToLabels("kubevirt.io/migrationJobUID", "uid-m")
                .addNewOwnerReference().withKind("VirtualMachineInstance").withName("db").withController(true).endOwnerReference()
                .endMetadata().withNewSpec().withNodeName("node02").endSpec().withNewStatus().withPhase("Running").endStatus().build();

        assertThat(RowMapping.podRow(launcher)).isEqualTo(
                new PodRow("demo", "virt-launcher-db-x", "db", "node02", "Running", "uid-m", ""));
        assertThat(RowMapping.podRow(pod("web-1", "ReplicaSet", "Running"))).isNull();
    }

    private static dev.drainboard.kubevirt.api.VirtualMachineInstanceMigration vmim(String phase, Map<String, String> annotations) {
        var m = new dev.drainboard.kubevirt.api.VirtualMachineInstanceMigration();
        m.setMetadata(new ObjectMetaBuilder().withName("m1").withNamespace("demo").withUid("uid-m1")
                .withCreationTimestamp("2026-11-22T03:00:00Z").withAnnotations(new java.util.HashMap<>(annotations)).build());
        m.setSpec(new dev.drainboard.kubevirt.api.VirtualMachineInstanceMigrationSpec("db"));
        var status = new dev.drainboard.kubevirt.api.VirtualMachineInstanceMigrationStatus();
        status.setPhase(phase);
        var state = new dev.drainboard.kubevirt.api.MigrationState();
        state.setSourceNode("node01");
        state.setTargetNode("node02");
        status.setMigrationState(state);
        m.setStatus(status);
        return m;
    }

    private static Pod pod(String name, String ownerKind, String phase) {
        return new PodBuilder().withNewMetadata().withName(name).withNamespace("ns")
                .addNewOwnerReference().withKind(ownerKind).withName("owner").withController(true).endOwnerReference().endMetadata()
                .withNewSpec().withNodeName("n1").addNewContainer().withName("c").withNewResources()
                .addToRequests("cpu", new Quantity("250m")).addToRequests("memory", new Quantity("128Mi"))
                .endResources().endContainer().endSpec()
                .withNewStatus().withPhase(phase).endStatus().build();
    }

    private static VirtualMachineInstance vmi(String name, Map<String, String> labels) {
        VirtualMachineInstance vmi = new VirtualMachineInstance();
        vmi.setMetadata(new ObjectMetaBuilder().withName(name).withNamespace("demo").withUid("uid-" + name).withLabels(labels).build());
        vmi.setSpec(new VirtualMachineInstanceSpec());
        return vmi;
    }

    private static PodDisruptionBudget pdb(String name, Map<String, String> selector) {
        return new PodDisruptionBudgetBuilder().withNewMetadata().withName(name).withNamespace("demo").endMetadata()
                .withNewSpec().withNewSelector().withMatchLabels(selector).endSelector().endSpec().build();
    }
}
