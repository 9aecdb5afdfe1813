package dev.drainboard.ops;

import static org.assertj.core.api.Assertions.assertThat;

import dev.drainboard.kubevirt.KubeVirtAnnotations;
import dev.drainboard.kubevirt.KubeVirtLabels;
import dev.drainboard.kubevirt.api.PhaseTransitionTimestamp;
import dev.drainboard.kubevirt.api.VirtualMachineInstance;
import dev.drainboard.kubevirt.api.VirtualMachineInstanceMigration;
import dev.drainboard.kubevirt.api.VirtualMachineInstanceMigrationSpec;
import dev.drainboard.kubevirt.api.VirtualMachineInstanceMigrationStatus;
import dev.drainboard.kubevirt.api.VirtualMachineInstanceSpec;
import dev.drainboard.kubevirt.api.VirtualMachineInstanceStatus;
import dev.drainboard.kubevirt.config.MigrationConfig;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudgetBuilder;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

@DisplayName("why a migration waits: back-off, the cluster's and the node's slots, the PDB expansion, the target pod's scheduling")
class WhyPendingDecisionTest {

    private static final Instant NOW = Instant.parse("2026-11-28T13:05:00Z");

    static VirtualMachineInstance vmi(String name, String node, boolean marked) {
        VirtualMachineInstance vmi = new VirtualMachineInstance();
        vmi.setMetadata(new ObjectMetaBuilder().withNamespace("default").withName(name).withUid("uid-" + name).build());
        vmi.setSpec(new VirtualMachineInstanceSpec());
        VirtualMachineInstanceStatus status = new VirtualMachineInstanceStatus();
        status.setPhase("Running");
        status.setNodeName(node);
        if (marked) {
            status.setEvacuationNodeName(node);
        }
        vmi.setStatus(status);
        return vmi;
    }

    static VirtualMachineInstanceMigration vmim(String vmiName, String suffix, String phase, boolean evacuation, Instant created) {
        VirtualMachineInstanceMigration m = new VirtualMachineInstanceMigration();
        var meta = new ObjectMetaBuilder().withNamespace("default").withName("m-" + vmiName + suffix).withUid("m-uid-" + vmiName + suffix)
                .withCreationTimestamp(created.toString());
        if (evacuation) {
            meta.addToAnnotations(KubeVirtAnnotations.EVACUATION_MIGRATION, "node01");
        }
        m.setMetadata(meta.build());
        m.setSpec(new VirtualMachineInstanceMigrationSpec(vmiName));
        if (phase != null) {
            VirtualMachineInstanceMigrationStatus status = new VirtualMachineInstanceMigrationStatus();
            status.setPhase(phase);
            status.setPhaseTransitionTimestamps(List.of(new PhaseTransitionTimestamp(phase, created.toString())));
            m.setStatus(status);
        }
        return m;
    }

    /** A cluster: {@code onNode01} migrations started from node01, {@code elsewhere} started from node02. */
    static final class Scene {
        final List<VirtualMachineInstanceMigration> migrations = new ArrayList<>();
        final Map<String, String> nodes = new HashMap<>();
        final Set<String> withTarget = new HashSet<>();
        MigrationConfig config = MigrationConfig.defaults();

        Scene started(int onNode01, int elsewhere) {
            for (int i = 0; i < onNode01 + elsewhere; i++) {
                String name = "busy" + i;
                var m = vmim(name, "", "Running", true, NOW.minusSeconds(60));
                migrations.add(m);
                nodes.put("default/" + name, i < onNode01 ? "node01" : "node02");
            }
            return this;
        }

        Scene queued(int count) {
            for (int i = 0; i < count; i++) {
                String name = "queued" + i;
                migrations.add(vmim(name, "", "Pending", true, NOW.minusSeconds(30)));
                nodes.put("default/" + name, "node01");
            }
            return this;
        }

        WhyPendingDecision.Cluster cluster() {
            return new WhyPendingDecision.Cluster(migrations, nodes, withTarget, config, Duration.ofSeconds(20), NOW);
        }
    }

    static Optional<WhyPendingDecision.Why> pending(Scene scene, VirtualMachineInstanceMigration self) {
        scene.migrations.add(self);
        scene.nodes.put("default/vm", "node01");
        return WhyPendingDecision.forMigration(self, vmi("vm", "node01", true), null, budget(true, self.getMetadata().getName()), true, scene.cluster());
    }

    static PodDisruptionBudget budget(boolean expanded) {
        return budget(expanded, "m-vm");
    }

    static PodDisruptionBudget budget(boolean expanded, String migration) {
        return new PodDisruptionBudgetBuilder()
                .withNewMetadata().withNamespace("default").withName("kubevirt-disruption-budget-x").withGeneration(2L)
                .withLabels(expanded ? Map.of(KubeVirtLabels.MIGRATION_NAME, migration) : Map.of())
                .withOwnerReferences(new OwnerReferenceBuilder().withKind("VirtualMachineInstance").withName("vm").withUid("uid-vm").withController(true).build())
                .endMetadata()
                .withNewSpec().withMinAvailable(new IntOrString(expanded ? 2 : 1)).endSpec()
                .withNewStatus().withDesiredHealthy(expanded ? 2 : 1).withObservedGeneration(2L).endStatus()
                .build();
    }

    @ParameterizedTest(name = "{0} started from node01, {1} elsewhere, {2} queued → {3}: {4}")
    @CsvSource(delimiter = '|', value = {
            // from node01 | elsewhere | queued | kind | text
            "0 | 0 | 0 | QUEUED        | queued",
            "1 | 0 | 0 | QUEUED        | queued",
            "2 | 0 | 0 | NODE_LIMIT    | 2 of 2 outbound migrations of node01 in use",
            "2 | 3 | 0 | CLUSTER_LIMIT | 5 of 5 migrations in the cluster in use",
            "1 | 4 | 0 | CLUSTER_LIMIT | 5 of 5 migrations in the cluster in use",
            "0 | 4 | 0 | QUEUED        | queued",
            // queued VMIMs hold no slot of the migration controller (KubeVirt's findRunningMigrations)
            "1 | 0 | 3 | QUEUED        | queued",
            "0 | 6 | 0 | CLUSTER_LIMIT | 6 migrations in the cluster under way, limit 5",
    })
    @DisplayName("a pending VMIM waits on the slots the migration controller counts: the started ones")
    void slots(int fromNode, int elsewhere, int queued, WhyPendingDecision.Kind kind, String text) {
        Scene scene = new Scene().started(fromNode, elsewhere).queued(queued);
        WhyPendingDecision.Why why = pending(scene, vmim("vm", "", "Pending", true, NOW)).orElseThrow();
        assertThat(why.kind()).isEqualTo(kind);
        assertThat(why.text()).isEqualTo(text);
    }

    @Test
    @DisplayName("a limit of 1 in the cluster (parallelMigrationsPerCluster 1): one running, the next says 1 of 1")
    void tightCluster() {
        Scene scene = new Scene().started(0, 1);
        scene.config = new MigrationConfig(1, 2, "kubevirt.io/drain", MigrationConfig.defaults().bandwidthPerMigration(),
                150, 150, false, false, false, false, 900, 150);
        assertThat(pending(scene, vmim("vm", "", null, true, NOW)).orElseThrow().text())
                .isEqualTo("1 of 1 migrations in the cluster in use");
    }

    @Test
    @DisplayName("a target pod counts as started even while the VMIM is Pending")
    void targetPodCreatedTakesASlot() {
        Scene scene = new Scene().queued(2);
        scene.withTarget.add("m-uid-queued0");
        scene.withTarget.add("m-uid-queued1");
        assertThat(pending(scene, vmim("vm", "", "Pending", true, NOW)).orElseThrow().text())
                .isEqualTo("2 of 2 outbound migrations of node01 in use");
    }

    @Test
    @DisplayName("back-off: after one failed evacuation 20 s from its failure, after two 40 s; before the slots")
    void backoff() {
        Scene scene = new Scene().started(2, 0);
        scene.migrations.add(vmim("vm", "-1", "Failed", true, NOW.minusSeconds(10)));
        WhyPendingDecision.Why why = pending(scene, vmim("vm", "-2", "Pending", true, NOW)).orElseThrow();
        assertThat(why.kind()).isEqualTo(WhyPendingDecision.Kind.BACKOFF);
        assertThat(why.until()).isEqualTo(NOW.plusSeconds(10));
        assertThat(why.text()).isEqualTo("back-off after failed migrations until 13:05:10 UTC");

        Scene twice = new Scene();
        twice.migrations.add(vmim("vm", "-0", "Failed", true, NOW.minusSeconds(50)));
        twice.migrations.add(vmim("vm", "-1", "Failed", true, NOW.minusSeconds(10)));
        assertThat(pending(twice, vmim("vm", "-2", "Pending", true, NOW)).orElseThrow().until()).isEqualTo(NOW.plusSeconds(30));
    }

    @Test
    @DisplayName("a back-off that has run out, or a migration a person asked for, waits on the slots only")
    void noBackoff() {
        Scene over = new Scene();
        over.migrations.add(vmim("vm", "-1", "Failed", true, NOW.minusSeconds(25)));
        assertThat(pending(over, vmim("vm", "-2", "Pending", true, NOW)).orElseThrow().kind()).isEqualTo(WhyPendingDecision.Kind.QUEUED);

        Scene requested = new Scene();
        requested.migrations.add(vmim("vm", "-1", "Failed", false, NOW.minusSeconds(5)));
        assertThat(pending(requested, vmim("vm", "-2", "Pending", false, NOW)).orElseThrow().kind()).isEqualTo(WhyPendingDecision.Kind.QUEUED);
    }

    @Test
    @DisplayName("with a slot free, a VMI whose PDB is not yet expanded waits for the expansion (KubeVirt up to v1.5)")
    void budgetExpansion() {
        Scene scene = new Scene();
        VirtualMachineInstanceMigration self = vmim("vm", "", "Pending", true, NOW);
        scene.migrations.add(self);
        var cluster = scene.cluster();
        VirtualMachineInstance vmi = vmi("vm", "node01", true);
        assertThat(WhyPendingDecision.forMigration(self, vmi, null, budget(false), true, cluster).orElseThrow().text())
                .isEqualTo("waiting for PodDisruptionBudget kubevirt-disruption-budget-x to be expanded to 2 for the migration");
        assertThat(WhyPendingDecision.forMigration(self, vmi, null, budget(true), true, cluster).orElseThrow().kind())
                .isEqualTo(WhyPendingDecision.Kind.QUEUED);
        assertThat(WhyPendingDecision.forMigration(self, vmi, null, null, false, cluster).orElseThrow().kind())
                .isEqualTo(WhyPendingDecision.Kind.QUEUED);
    }

    @Test
    @DisplayName("a target pod the scheduler cannot place: its PodScheduled=False message; a scheduled one: under way")
    void targetUnschedulable() {
        Scene scene = new Scene();
        VirtualMachineInstanceMigration self = vmim("vm", "", "Scheduling", true, NOW);
        scene.migrations.add(self);
        String message = "0/4 nodes are available: 1 node(s) were unschedulable, 3 Insufficient memory.";
        Pod unschedulable = new PodBuilder().withNewMetadata().withNamespace("default").withName("virt-launcher-vm-target").endMetadata()
                .withNewStatus().withPhase("Pending").addNewCondition().withType("PodScheduled").withStatus("False")
                .withReason("Unschedulable").withMessage(message).endCondition().endStatus().build();
        WhyPendingDecision.Why why = WhyPendingDecision.forMigration(self, vmi("vm", "node01", true), unschedulable, null, false,
                scene.cluster()).orElseThrow();
        assertThat(why.kind()).isEqualTo(WhyPendingDecision.Kind.TARGET_UNSCHEDULABLE);
        assertThat(why.text()).isEqualTo("target pod virt-launcher-vm-target unschedulable: " + message);

        Pod scheduled = new PodBuilder(unschedulable).editStatus().editFirstCondition().withStatus("True").withMessage(null)
                .withReason(null).endCondition().endStatus().build();
        assertThat(WhyPendingDecision.forMigration(self, vmi("vm", "node01", true), scheduled, null, false, scene.cluster())).isEmpty();
    }

    @ParameterizedTest(name = "phase {0}: nothing to wait for")
    @CsvSource({"Scheduled", "PreparingTarget", "TargetReady", "Running", "Succeeded", "Failed"})
    void underWayOrOver(String phase) {
        Scene scene = new Scene().started(2, 3);
        assertThat(pending(scene, vmim("vm", "", phase, true, NOW))).isEmpty();
    }

    @ParameterizedTest(name = "{0} unfinished from node01, {1} elsewhere → {2}")
    @CsvSource(delimiter = '|', value = {
            "0 | 0 | queued",
            "1 | 0 | queued",
            "2 | 0 | 2 of 2 outbound migrations of node01 in use",
            "1 | 4 | 5 of 5 migrations in the cluster in use",
    })
    @DisplayName("a marked VMI without a VMIM waits on what the evacuation counts: every unfinished VMIM, queued ones too")
    void markedVmi(int fromNode, int elsewhere, String text) {
        Scene scene = new Scene();
        for (int i = 0; i < fromNode + elsewhere; i++) {
            String name = "other" + i;
            scene.migrations.add(vmim(name, "", "Pending", true, NOW)); // queued: still counted by the evacuation
            scene.nodes.put("default/" + name, i < fromNode ? "node01" : "node02");
        }
        scene.nodes.put("default/vm", "node01");
        assertThat(WhyPendingDecision.forMarkedVmi(vmi("vm", "node01", true), scene.cluster()).text()).isEqualTo(text);
    }
}
