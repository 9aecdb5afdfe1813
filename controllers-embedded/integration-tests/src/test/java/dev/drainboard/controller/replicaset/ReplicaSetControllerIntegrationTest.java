package dev.drainboard.controller.replicaset;

import static dev.drainboard.controller.replicaset.ReplicaSetTestCluster.NS;
import static dev.drainboard.controller.replicaset.ReplicaSetTestCluster.WAIT;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.drainboard.kubevirt.api.Condition;
import dev.drainboard.kubevirt.api.VirtualMachineInstance;
import dev.drainboard.kubevirt.api.VirtualMachineInstanceReplicaSet;
import dev.drainboard.simulation.SimulationKnobs;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * The replica set controller on the embedded cluster with the whole control plane: scaling up and down, the scale-down
 * order and both status examples of KubeVirt's {@code docs/replica-sets.md} (a create and a delete forbidden by a
 * webhook the test installs, then cleared), adoption, release on relabelling, pause. Each test uses its own set and
 * labels.
 */
@DisplayName("VirtualMachineInstanceReplicaSet controller on the embedded cluster")
class ReplicaSetControllerIntegrationTest {

    @TempDir
    static Path workDir;
    static ReplicaSetTestCluster c;

    @BeforeAll
    static void start() throws Exception {
        c = new ReplicaSetTestCluster(workDir);
        c.node("node01", Map.of());
        c.node("node02", Map.of());
    }

    @AfterAll
    static void stop() {
        if (c != null) {
            c.close();
        }
    }

    @Test
    @DisplayName("scales up to 3 ready VMIs named after the set, then down to 1; status, labelSelector and events follow")
    void scaleUpAndDown() {
        VirtualMachineInstanceReplicaSet rs = c.createReplicaSet("web", 3);
        c.awaitStatus("web", 3, 3);
        List<VirtualMachineInstance> vmis = c.owned(rs);
        assertThat(vmis).hasSize(3).allSatisfy(v -> {
            assertThat(v.getMetadata().getName()).startsWith("web").hasSize("web".length() + 5);
            assertThat(v.getMetadata().getLabels()).containsEntry("app", "web");
            assertThat(v.getMetadata().getOwnerReferences()).singleElement().satisfies(ref -> {
                assertThat(ref.getKind()).isEqualTo("VirtualMachineInstanceReplicaSet");
                assertThat(ref.getUid()).isEqualTo(rs.getMetadata().getUid());
                assertThat(ref.getController()).isTrue();
                assertThat(ref.getBlockOwnerDeletion()).isTrue();
            });
            assertThat(c.running(v)).isTrue();
        });
        assertThat(c.replicaSet("web").getStatus().getLabelSelector()).isEqualTo("app=web");
        assertThat(c.replicaSet("web").getStatus().getConditions()).isNullOrEmpty();

        assertThat(c.ops.scale(NS, "web", 1).message()).isEqualTo("virtualmachineinstancereplicaset/web scaled from 3 to 1");
        c.awaitStatus("web", 1, 1);
        await().atMost(WAIT).until(() -> c.vmis("web").size() == 1);
        List<String> reasons = c.events("web").stream().map(Event::getReason).toList();
        assertThat(reasons).contains("SuccessfulCreate", "SuccessfulDelete");
        assertThat(c.events("web")).anySatisfy(e -> assertThat(e.getMessage())
                .startsWith("Started the virtual machine by creating the new virtual machine instance web"));
    }

    @Test
    @DisplayName("scale-down order: the not-ready VMI goes first, then the migrating one; the ready one stays")
    void scaleDownOrder() throws Exception {
        // Three orphans the set will adopt: one whose guest takes an hour to boot (not ready), one that will be
        // migrating (its node's link is slow, so the migration lasts), one ready.
        c.node("slow01", Map.of(SimulationKnobs.LINK_SPEED, "1Mi"));
        cordonAllBut("slow01");
        try {
            c.createOrphan("order-booting", "order", Map.of(SimulationKnobs.BOOT_DELAY, "1h"));
            c.createOrphan("order-moving", "order", Map.of());
            c.createOrphan("order-ready", "order", Map.of());
            await().atMost(WAIT).until(() -> c.running(c.vmi("order-moving")) && c.vmi("order-moving").isMigratable()
                    && c.running(c.vmi("order-ready")));
            assertThat(c.vmi("order-booting").getStatus().getPhase()).isEqualTo("Scheduled");
        } finally {
            uncordonAll();
        }
        c.ops.migrate(NS, "order-moving");
        await().atMost(WAIT).until(() -> ReplicaSetVmis.migrating(c.vmi("order-moving")));

        VirtualMachineInstanceReplicaSet rs = c.createReplicaSet("order", 3);
        await().atMost(WAIT).until(() -> c.owned(rs).size() == 3);
        c.awaitStatus("order", 3, 2);

        c.ops.scale(NS, "order", 2);
        await().atMost(WAIT).until(() -> c.vmi("order-booting") == null || c.vmi("order-booting").getMetadata().getDeletionTimestamp() != null);
        // The status a pass writes after the delete: that pass, and the one that deleted, are over.
        c.awaitStatus("order", 2, 2);
        assertThat(c.vmi("order-moving").getMetadata().getDeletionTimestamp()).isNull();
        assertThat(c.vmi("order-ready").getMetadata().getDeletionTimestamp()).isNull();

        assertThat(ReplicaSetVmis.migrating(c.vmi("order-moving"))).as("still migrating").isTrue();
        c.ops.scale(NS, "order", 1);
        await().atMost(WAIT).until(() -> c.vmi("order-moving") == null || c.vmi("order-moving").getMetadata().getDeletionTimestamp() != null);
        c.awaitStatus("order", 1, 1);
        assertThat(c.vmi("order-ready").getMetadata().getDeletionTimestamp()).isNull();
        assertThat(c.owned(rs)).extracting(v -> v.getMetadata().getName()).containsExactly("order-ready");
    }

    @Test
    @DisplayName("create failure: a webhook forbids creating VMIs → ReplicaFailure FailureCreate with the API error; cleared once creates work")
    void failureCreate() throws Exception {
        String message = "admission webhook \"deny-create.drainboard.test\" denied the request: no permission to create VMIs";
        try (DenyingWebhook deny = new DenyingWebhook(c.client, "CREATE", "deny-create.drainboard.test", "no permission to create VMIs")) {
            Instant before = Instant.now().minusSeconds(1);
            c.createReplicaSet("fc", 2);
            await().atMost(WAIT).until(() -> c.condition("fc", "ReplicaFailure").isPresent());
            Condition failure = c.condition("fc", "ReplicaFailure").orElseThrow();
            assertThat(failure.getStatus()).isEqualTo("True");
            assertThat(failure.getReason()).isEqualTo("FailureCreate");
            assertThat(failure.getMessage()).isEqualTo(message);
            assertThat(Instant.parse(failure.getLastTransitionTime())).isAfterOrEqualTo(before.truncatedTo(java.time.temporal.ChronoUnit.SECONDS));
            assertThat(c.replicaSet("fc").getStatus().getReplicas()).isZero();
            assertThat(c.vmis("fc")).isEmpty();
            assertThat(c.events("fc")).anySatisfy(e -> {
                assertThat(e.getReason()).isEqualTo("FailedCreate");
                assertThat(e.getType()).isEqualTo("Warning");
                assertThat(e.getMessage()).isEqualTo("Error creating virtual machine instance: " + message);
            });
        }
        await().atMost(WAIT).until(() -> c.condition("fc", "ReplicaFailure").isEmpty());
        c.awaitStatus("fc", 2, 2);
    }

    @Test
    @DisplayName("delete failure: a webhook forbids deleting VMIs → ReplicaFailure FailureDelete; cleared once deletes work")
    void failureDelete() throws Exception {
        c.createReplicaSet("fd", 2);
        c.awaitStatus("fd", 2, 2);
        String message = "admission webhook \"deny-delete.drainboard.test\" denied the request: no permission to delete VMIs";
        try (DenyingWebhook deny = new DenyingWebhook(c.client, "DELETE", "deny-delete.drainboard.test", "no permission to delete VMIs")) {
            c.ops.scale(NS, "fd", 0);
            await().atMost(WAIT).until(() -> c.condition("fd", "ReplicaFailure").isPresent());
            Condition failure = c.condition("fd", "ReplicaFailure").orElseThrow();
            assertThat(failure.getStatus()).isEqualTo("True");
            assertThat(failure.getReason()).isEqualTo("FailureDelete");
            assertThat(failure.getMessage()).isEqualTo(message);
            assertThat(failure.getLastTransitionTime()).isNotNull();
            assertThat(c.replicaSet("fd").getStatus().getReplicas()).isEqualTo(2);
            assertThat(c.vmis("fd")).hasSize(2).allSatisfy(v -> assertThat(v.getMetadata().getDeletionTimestamp()).isNull());
        }
        await().atMost(WAIT).until(() -> c.condition("fd", "ReplicaFailure").isEmpty());
        c.awaitStatus("fd", 0, 0);
        await().atMost(WAIT).until(() -> c.vmis("fd").isEmpty());
    }

    @Test
    @DisplayName("an orphan with matching labels is adopted and counts: one more VMI is created, not two")
    void adoption() {
        c.createOrphan("adopt-orphan", "adopt", Map.of());
        await().atMost(WAIT).until(() -> c.running(c.vmi("adopt-orphan")));
        VirtualMachineInstanceReplicaSet rs = c.createReplicaSet("adopt", 2);
        c.awaitStatus("adopt", 2, 2);
        assertThat(ReplicaSetVmis.controlledBy(c.vmi("adopt-orphan"), rs)).isTrue();
        assertThat(c.vmis("adopt")).hasSize(2);
        assertThat(c.owned(rs)).extracting(v -> v.getMetadata().getName()).contains("adopt-orphan");
    }

    @Test
    @DisplayName("relabelling an owned VMI releases it (it keeps running, owned by no one) and a replacement is created")
    void relabelReleases() {
        VirtualMachineInstanceReplicaSet rs = c.createReplicaSet("rel", 2);
        c.awaitStatus("rel", 2, 2);
        String moved = c.owned(rs).getFirst().getMetadata().getName();
        c.client.resources(VirtualMachineInstance.class).inNamespace(NS).withName(moved)
                .patch(PatchContext.of(PatchType.JSON_MERGE), "{\"metadata\":{\"labels\":{\"app\":\"debugging\"}}}");
        await().atMost(WAIT).until(() -> ReplicaSetVmis.controllerRef(c.vmi(moved)).isEmpty());
        await().atMost(WAIT).until(() -> c.owned(rs).size() == 2);
        c.awaitStatus("rel", 2, 2);
        assertThat(c.owned(rs)).extracting(v -> v.getMetadata().getName()).doesNotContain(moved);
        VirtualMachineInstance released = c.vmi(moved);
        assertThat(released.getMetadata().getDeletionTimestamp()).isNull();
        assertThat(c.running(released)).isTrue();
    }

    @Test
    @DisplayName("paused: no scaling (ReplicaPaused condition), adoption still; resumed: scales again")
    void paused() {
        VirtualMachineInstanceReplicaSet rs = c.createReplicaSet("pz", 1);
        c.awaitStatus("pz", 1, 1);
        patchSpec("pz", "{\"spec\":{\"paused\":true}}");
        await().atMost(WAIT).until(() -> c.condition("pz", "ReplicaPaused").isPresent());
        Condition paused = c.condition("pz", "ReplicaPaused").orElseThrow();
        assertThat(paused.getReason()).isEqualTo("Paused");
        assertThat(paused.getMessage()).isEqualTo("Controller got paused");

        c.ops.scale(NS, "pz", 3);
        // A matching orphan is still adopted. The set and the VMIs come over two watches, so the pass that adopts
        // it reads 3 replicas only if the controller's cache has them before the orphan exists; then the adoption
        // (and the status it writes) shows a pass that saw 3 wanted and did not scale.
        await().atMost(WAIT).until(() -> {
            VirtualMachineInstanceReplicaSet cached = c.plane.informers().replicaSets().getStore().getByKey(NS + "/pz");
            return cached != null && Integer.valueOf(3).equals(cached.getSpec().getReplicas());
        });
        c.createOrphan("pz-orphan", "pz", Map.of());
        await().atMost(WAIT).until(() -> ReplicaSetVmis.controlledBy(c.vmi("pz-orphan"), rs));
        await().atMost(WAIT).until(() -> Integer.valueOf(2).equals(c.replicaSet("pz").getStatus().getReplicas()));
        assertThat(c.vmis("pz")).hasSize(2);

        patchSpec("pz", "{\"spec\":{\"paused\":false}}");
        await().atMost(WAIT).until(() -> c.condition("pz", "ReplicaPaused").isEmpty());
        c.awaitStatus("pz", 3, 3);
        assertThat(c.vmis("pz")).hasSize(3);
        assertThat(c.events("pz")).extracting(Event::getReason).contains("SuccessfulPaused", "SuccessfulResumed");
    }

    @Test
    @DisplayName("a VMI of the set that is deleted by someone else is replaced")
    void replacesDeleted() {
        VirtualMachineInstanceReplicaSet rs = c.createReplicaSet("rep", 2);
        c.awaitStatus("rep", 2, 2);
        String victim = c.owned(rs).getFirst().getMetadata().getName();
        c.client.resources(VirtualMachineInstance.class).inNamespace(NS).withName(victim).delete();
        await().atMost(WAIT).until(() -> c.owned(rs).size() == 2
                && c.owned(rs).stream().noneMatch(v -> v.getMetadata().getName().equals(victim)));
        c.awaitStatus("rep", 2, 2);
    }

    private void patchSpec(String name, String patch) {
        c.client.resources(VirtualMachineInstanceReplicaSet.class).inNamespace(NS).withName(name)
                .patch(PatchContext.of(PatchType.JSON_MERGE), patch);
    }

    private void cordonAllBut(String node) {
        c.client.nodes().list().getItems().stream().filter(n -> !n.getMetadata().getName().equals(node))
                .forEach(n -> c.ops.cordon(n.getMetadata().getName()));
    }

    private void uncordonAll() {
        c.client.nodes().list().getItems().forEach(n -> c.ops.uncordon(n.getMetadata().getName()));
    }
}
