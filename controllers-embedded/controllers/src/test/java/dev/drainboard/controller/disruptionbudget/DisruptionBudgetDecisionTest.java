package dev.drainboard.controller.disruptionbudget;

import static org.assertj.core.api.Assertions.assertThat;

import dev.drainboard.controller.disruptionbudget.BudgetAction.DeleteReason;
import dev.drainboard.kubevirt.KubeVirtConditions;
import dev.drainboard.kubevirt.KubeVirtLabels;
import dev.drainboard.kubevirt.api.Condition;
import dev.drainboard.kubevirt.api.EvictionStrategy;
import dev.drainboard.kubevirt.api.VirtualMachineInstance;
import dev.drainboard.kubevirt.api.VirtualMachineInstanceSpec;
import dev.drainboard.kubevirt.api.VirtualMachineInstanceStatus;
import dev.drainboard.kubevirt.config.ClusterConfig;
import dev.drainboard.kubevirt.config.MigrationConfig;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudgetBuilder;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

@DisplayName("disruption budget decision (one PDB per VMI, KubeVirt up to v1.5)")
class DisruptionBudgetDecisionTest {

    private static final ClusterConfig DEFAULTS = ClusterConfig.defaults();

    static VirtualMachineInstance vmi(String strategy, boolean migratable, String phase) {
        VirtualMachineInstance vmi = new VirtualMachineInstance();
        vmi.setMetadata(new ObjectMetaBuilder().withNamespace("default").withName("vm").withUid("uid-1").build());
        VirtualMachineInstanceSpec spec = new VirtualMachineInstanceSpec();
        spec.setEvictionStrategy(strategy);
        vmi.setSpec(spec);
        VirtualMachineInstanceStatus status = new VirtualMachineInstanceStatus();
        status.setPhase(phase);
        status.setNodeName("node01");
        status.setConditions(List.of(new Condition(KubeVirtConditions.LIVE_MIGRATABLE, migratable ? "True" : "False", null, null)));
        vmi.setStatus(status);
        return vmi;
    }

    static PodDisruptionBudget pdb(String name, String ownerUid, int minAvailable, String migrationLabel) {
        var meta = new ObjectMetaBuilder().withNamespace("default").withName(name)
                .addNewOwnerReference().withApiVersion("kubevirt.io/v1").withKind("VirtualMachineInstance").withName("vm")
                .withUid(ownerUid).withController(true).endOwnerReference();
        if (migrationLabel != null) {
            meta.addToLabels(KubeVirtLabels.MIGRATION_NAME, migrationLabel);
        }
        return new PodDisruptionBudgetBuilder().withMetadata(meta.build())
                .withNewSpec().withMinAvailable(new IntOrString(minAvailable))
                .withNewSelector().addToMatchLabels(KubeVirtLabels.CREATED_BY, ownerUid).endSelector().endSpec()
                .build();
    }

    private static List<BudgetAction> decide(VirtualMachineInstance vmi, List<PodDisruptionBudget> pdbs) {
        return DisruptionBudgetDecision.decide(new BudgetInput(vmi, pdbs, DEFAULTS, 1, Set.of()));
    }

    @ParameterizedTest(name = "{0}, migratable={1}: PDB required={2}")
    @DisplayName("'Is a PDB required' table")
    @CsvSource(delimiter = '|', textBlock = """
            None                  | true  | false
            None                  | false | false
            LiveMigrate           | true  | true
            LiveMigrate           | false | true
            LiveMigrateIfPossible | true  | true
            LiveMigrateIfPossible | false | false
            External              | true  | true
            External              | false | true
            """)
    void pdbRequired(String strategy, boolean migratable, boolean required) {
        assertThat(DisruptionBudgetDecision.needsBudget(EvictionStrategy.parse(strategy).orElseThrow(), migratable))
                .isEqualTo(required);

        List<BudgetAction> withoutPdb = decide(vmi(strategy, migratable, "Running"), List.of());
        List<BudgetAction> withPdb = decide(vmi(strategy, migratable, "Running"), List.of(pdb("kubevirt-disruption-budget-x", "uid-1", 1, null)));

        if (required) {
            assertThat(withoutPdb).singleElement().isInstanceOf(BudgetAction.Create.class);
            assertThat(withPdb).isEmpty();
        } else {
            assertThat(withoutPdb).isEmpty();
            assertThat(withPdb).containsExactly(new BudgetAction.Delete("kubevirt-disruption-budget-x", DeleteReason.NOT_NEEDED));
        }
    }

    @Test
    @DisplayName("the PDB: generateName kubevirt-disruption-budget-, minAvailable 1, selector created-by=<VMI uid>, controller ref, no labels")
    void budgetShape() {
        BudgetAction.Create create = (BudgetAction.Create) decide(vmi("LiveMigrate", true, "Running"), List.of()).getFirst();
        PodDisruptionBudget pdb = create.budget();

        assertThat(pdb.getMetadata().getGenerateName()).isEqualTo("kubevirt-disruption-budget-");
        assertThat(pdb.getMetadata().getName()).isNull();
        assertThat(pdb.getMetadata().getNamespace()).isEqualTo("default");
        assertThat(pdb.getMetadata().getLabels()).isNullOrEmpty();
        assertThat(pdb.getSpec().getMinAvailable()).isEqualTo(new IntOrString(1));
        assertThat(pdb.getSpec().getSelector().getMatchLabels()).isEqualTo(Map.of("kubevirt.io/created-by", "uid-1"));
        assertThat(pdb.getMetadata().getOwnerReferences()).singleElement().satisfies(ref -> {
            assertThat(ref.getApiVersion()).isEqualTo("kubevirt.io/v1");
            assertThat(ref.getKind()).isEqualTo("VirtualMachineInstance");
            assertThat(ref.getName()).isEqualTo("vm");
            assertThat(ref.getUid()).isEqualTo("uid-1");
            assertThat(ref.getController()).isTrue();
            assertThat(ref.getBlockOwnerDeletion()).isTrue();
        });
    }

    @ParameterizedTest(name = "phase {0} → {1}")
    @DisplayName("a final VMI loses its PDB")
    @CsvSource({"Succeeded, VMI_FINAL", "Failed, VMI_FINAL"})
    void finalVmi(String phase, DeleteReason reason) {
        assertThat(decide(vmi("LiveMigrate", true, phase), List.of(pdb("p", "uid-1", 1, null))))
                .containsExactly(new BudgetAction.Delete("p", reason));
        assertThat(decide(vmi("LiveMigrate", true, phase), List.of())).isEmpty();
    }

    @Test
    @DisplayName("a deleted or terminating VMI loses its PDB")
    void deletedVmi() {
        assertThat(decide(null, List.of(pdb("p", "uid-1", 1, null))))
                .containsExactly(new BudgetAction.Delete("p", DeleteReason.VMI_DELETED));
        VirtualMachineInstance terminating = vmi("External", true, "Running");
        terminating.getMetadata().setDeletionTimestamp("2025-01-01T00:00:00Z");
        assertThat(decide(terminating, List.of(pdb("p", "uid-1", 1, null))))
                .containsExactly(new BudgetAction.Delete("p", DeleteReason.VMI_DELETED));
    }

    @Test
    @DisplayName("a PDB already being deleted is left alone")
    void terminatingPdbIgnored() {
        PodDisruptionBudget going = pdb("p", "uid-1", 1, null);
        going.getMetadata().setDeletionTimestamp("2025-01-01T00:00:00Z");
        assertThat(decide(null, List.of(going))).isEmpty();
    }

    @Test
    @DisplayName("a PDB of an earlier VMI with the same name goes, and the new VMI gets its own")
    void ownerUidDiffers() {
        assertThat(decide(vmi("LiveMigrate", true, "Running"), List.of(pdb("old", "uid-0", 1, null))))
                .hasSize(2)
                .startsWith(new BudgetAction.Delete("old", DeleteReason.OWNER_GONE))
                .last().isInstanceOf(BudgetAction.Create.class);
    }

    @Test
    @DisplayName("of two PDBs for one VMI the older stays")
    void duplicates() {
        PodDisruptionBudget older = pdb("a", "uid-1", 1, null);
        older.getMetadata().setCreationTimestamp("2025-01-01T00:00:00Z");
        PodDisruptionBudget newer = pdb("b", "uid-1", 1, null);
        newer.getMetadata().setCreationTimestamp("2025-01-02T00:00:00Z");

        assertThat(decide(vmi("External", false, "Running"), List.of(newer, older)))
                .containsExactly(new BudgetAction.Delete("b", DeleteReason.DUPLICATE));
    }

    @ParameterizedTest(name = "{0} minAvailable={1} label={2} → legacy={3}")
    @DisplayName("PDBs of older migration controllers are deleted")
    @CsvSource(delimiter = '|', nullValues = "-", textBlock = """
            kubevirt-migration-pdb-abc    | 2 | vmim-1 | true
            kubevirt-migration-pdb-abc    | 1 | -      | false
            kubevirt-disruption-budget-ab | 2 | -      | true
            kubevirt-disruption-budget-ab | 2 | vmim-1 | false
            kubevirt-disruption-budget-ab | 1 | -      | false
            """)
    void legacy(String name, int minAvailable, String label, boolean legacy) {
        assertThat(DisruptionBudgets.isLegacyMigrationBudget(pdb(name, "uid-1", minAvailable, label))).isEqualTo(legacy);
    }

    @ParameterizedTest(name = "label={0}, unfinished={1}, active pods={2} → shrink={3}")
    @DisplayName("a PDB expanded by a migration shrinks back to 1 once the migration is over and one launcher pod is left")
    @CsvSource(delimiter = '|', nullValues = "-", textBlock = """
            vmim-1 | -      | 1 | true
            vmim-1 | vmim-1 | 1 | false
            vmim-1 | -      | 2 | false
            vmim-1 | vmim-2 | 1 | true
            -      | -      | 1 | false
            """)
    void shrink(String label, String unfinished, int activePods, boolean shrinks) {
        PodDisruptionBudget expanded = pdb("p", "uid-1", label == null ? 1 : 2, label);
        List<BudgetAction> actions = DisruptionBudgetDecision.decide(new BudgetInput(vmi("LiveMigrate", true, "Running"),
                List.of(expanded), DEFAULTS, activePods, unfinished == null ? Set.of() : Set.of(unfinished)));

        if (shrinks) {
            assertThat(actions).containsExactly(new BudgetAction.Shrink("p", label));
        } else {
            assertThat(actions).isEmpty();
        }
    }

    @Test
    @DisplayName("the shrink patch, guarded by the label naming that migration, sets minAvailable to 1 and removes the label")
    void shrinkPatch() {
        assertThat(DisruptionBudgets.shrinkPatch("kubevirt-evacuation-x2k")).isEqualTo(
                "[{\"op\":\"test\",\"path\":\"/metadata/labels/kubevirt.io~1migrationName\",\"value\":\"kubevirt-evacuation-x2k\"},"
                        + "{\"op\":\"replace\",\"path\":\"/spec/minAvailable\",\"value\":1},"
                        + "{\"op\":\"remove\",\"path\":\"/metadata/labels/kubevirt.io~1migrationName\"}]");
    }

    @Test
    @DisplayName("a VMI without its own strategy follows the KubeVirt CR's")
    void clusterDefault() {
        ClusterConfig liveMigrate = new ClusterConfig(EvictionStrategy.LIVE_MIGRATE, MigrationConfig.defaults(), Set.of(), Optional.empty());

        assertThat(DisruptionBudgetDecision.decide(new BudgetInput(vmi(null, false, "Running"), List.of(), liveMigrate, 1, Set.of())))
                .singleElement().isInstanceOf(BudgetAction.Create.class);
        assertThat(DisruptionBudgetDecision.decide(new BudgetInput(vmi(null, false, "Running"), List.of(), DEFAULTS, 1, Set.of())))
                .isEmpty();
    }
}
