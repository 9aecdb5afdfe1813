package dev.drainboard.controller.disruptionbudget;

import static java.util.concurrent.TimeUnit.SECONDS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.drainboard.admission.EvictionTestCluster;
import dev.drainboard.kubevirt.api.VirtualMachineInstance;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

@DisplayName("disruption budget controller on the embedded cluster")
class DisruptionBudgetControllerTest {

    @TempDir
    static Path workDir;
    private static EvictionTestCluster cluster;

    @BeforeAll
    static void start() throws Exception {
        cluster = EvictionTestCluster.start(workDir);
    }

    @AfterAll
    static void stop() {
        if (cluster != null) {
            cluster.close();
        }
    }

    private static List<Event> eventsOf(String vmi) {
        return cluster.client().v1().events().inNamespace("default").list().getItems().stream()
                .filter(e -> vmi.equals(e.getInvolvedObject().getName())).toList();
    }

    private static void patchVmi(String name, String mergePatch) {
        cluster.vmisAll().inNamespace("default").withName(name).patch(PatchContext.of(PatchType.JSON_MERGE), mergePatch);
    }

    @Test
    @DisplayName("creates the PDB with a SuccessfulCreate event; deletes it with SuccessfulDelete when the strategy becomes None")
    void createThenDeleteOnStrategyChange() throws Exception {
        cluster.runVmi("pdb-strategy", "LiveMigrate", false, "node01");
        PodDisruptionBudget pdb = cluster.awaitBudget("pdb-strategy", true).orElseThrow();
        VirtualMachineInstance vmi = cluster.vmi("pdb-strategy");

        assertThat(pdb.getMetadata().getName()).startsWith("kubevirt-disruption-budget-");
        assertThat(pdb.getSpec().getMinAvailable()).isEqualTo(new IntOrString(1));
        assertThat(pdb.getSpec().getSelector().getMatchLabels()).isEqualTo(Map.of("kubevirt.io/created-by", vmi.getMetadata().getUid()));
        assertThat(pdb.getMetadata().getOwnerReferences()).singleElement()
                .satisfies(ref -> assertThat(ref.getUid()).isEqualTo(vmi.getMetadata().getUid()));
        assertThat(pdb.getStatus().getDisruptionsAllowed()).isZero();
        await().atMost(10, SECONDS).untilAsserted(() -> assertThat(eventsOf("pdb-strategy")).anySatisfy(e -> {
            assertThat(e.getReason()).isEqualTo("SuccessfulCreate");
            assertThat(e.getMessage()).isEqualTo("Created PodDisruptionBudget " + pdb.getMetadata().getName());
            assertThat(e.getSource().getComponent()).isEqualTo("disruptionbudget-controller");
        }));

        // virt-api refuses a change to a VMI's spec (update of VMI object is restricted): the strategy is changed in the
        // store, as a VMI from before KubeVirt v1.1 that followed the cluster default would see it change.
        cluster.cluster().api().store().update(cluster.cluster().api().registry()
                        .find("kubevirt.io", "v1", "virtualmachineinstances").orElseThrow(), "default", "pdb-strategy",
                object -> {
                    object.with("spec").put("evictionStrategy", "None");
                    return object;
                }, false);

        cluster.awaitBudget("pdb-strategy", false);
        await().atMost(10, SECONDS).untilAsserted(() -> assertThat(eventsOf("pdb-strategy")).anySatisfy(e -> {
            assertThat(e.getReason()).isEqualTo("SuccessfulDelete");
            assertThat(e.getMessage()).isEqualTo("Deleted PodDisruptionBudget " + pdb.getMetadata().getName());
        }));
    }

    @Test
    @DisplayName("LiveMigrateIfPossible: a PDB only while the VMI is migratable")
    void followsMigratability() throws Exception {
        cluster.runVmi("pdb-ifpossible", "LiveMigrateIfPossible", false, "node01");
        cluster.awaitBudget("pdb-ifpossible", false); // once the controller has decided, not before it looked

        patchVmi("pdb-ifpossible", "{\"status\":{\"conditions\":[{\"type\":\"LiveMigratable\",\"status\":\"True\"}]}}");
        cluster.awaitBudget("pdb-ifpossible", true);

        patchVmi("pdb-ifpossible", "{\"status\":{\"conditions\":[{\"type\":\"LiveMigratable\",\"status\":\"False\"}]}}");
        cluster.awaitBudget("pdb-ifpossible", false);
    }

    @Test
    @DisplayName("a final VMI and a deleted VMI lose their PDB")
    void finalAndDeleted() throws Exception {
        cluster.runVmi("pdb-final", "External", false, "node02");
        cluster.awaitBudget("pdb-final", true);
        patchVmi("pdb-final", "{\"status\":{\"phase\":\"Succeeded\"}}");
        cluster.awaitBudget("pdb-final", false);

        cluster.runVmi("pdb-deleted", "External", true, "node02");
        cluster.awaitBudget("pdb-deleted", true);
        cluster.vmisAll().inNamespace("default").withName("pdb-deleted").delete();
        cluster.awaitBudget("pdb-deleted", false);
    }

    @Test
    @DisplayName("an expanded PDB shrinks back to minAvailable 1 once its migration is gone and one launcher pod is left")
    void shrinksAfterMigration() throws Exception {
        cluster.runVmi("pdb-shrink", "LiveMigrate", true, "node03");
        PodDisruptionBudget pdb = cluster.awaitBudget("pdb-shrink", true).orElseThrow();

        // What the migration controller did before a migration (≤ v1.5); the VMIM it names does not exist.
        cluster.client().policy().v1().podDisruptionBudget().inNamespace("default").withName(pdb.getMetadata().getName())
                .patch(PatchContext.of(PatchType.JSON_MERGE),
                        "{\"metadata\":{\"labels\":{\"kubevirt.io/migrationName\":\"vmim-gone\"}},\"spec\":{\"minAvailable\":2}}");

        await().atMost(30, SECONDS).untilAsserted(() -> {
            PodDisruptionBudget now = cluster.client().policy().v1().podDisruptionBudget().inNamespace("default")
                    .withName(pdb.getMetadata().getName()).get();
            assertThat(now.getSpec().getMinAvailable()).isEqualTo(new IntOrString(1));
            assertThat(now.getMetadata().getLabels()).doesNotContainKey("kubevirt.io/migrationName");
        });
        await().atMost(10, SECONDS).untilAsserted(() -> assertThat(eventsOf("pdb-shrink")).anySatisfy(e -> {
            assertThat(e.getReason()).isEqualTo("SuccessfulUpdate");
            assertThat(e.getMessage()).isEqualTo("shrank PodDisruptionBudget " + pdb.getMetadata().getName());
        }));
    }
}
