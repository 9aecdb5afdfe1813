package dev.drainboard.ops;

import dev.drainboard.kubevirt.api.VirtualMachineInstance;
import io.fabric8.kubernetes.api.model.Node;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

import static dev.drainboard.ops.OpsTestCluster.WAIT;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

@DisplayName("drain --dry-run on the demo scenario: every pod's outcome and reason")
class DemoDryRunTest {

    private static final DrainOptions KUBEVIRT_DRAIN = DrainOptions.defaults().withIgnoreDaemonSets(true).withDeleteEmptyDirData(true)
            .withDryRun(true);

    @TempDir
    static Path dir;
    static OpsTestCluster cluster;
    /** Every pod of every node, by name without the launcher's random suffix. */
    static Map<String, PodPreview> previews;
    static List<DrainPreview> perNode;

    @BeforeAll
    static void demo() throws Exception {
        cluster = OpsTestCluster.demo(dir);
        List<String> vmis = List.of("database", "ledger", "cache", "scratch-worker", "appliance", "batch-runner", "legacy-erp");
        vmis.forEach(name -> cluster.awaitRunningLauncher("demo", name));
        await().atMost(WAIT).until(() -> cluster.client.resources(VirtualMachineInstance.class).inNamespace("demo")
                .withName("web-frontend").get() != null);
        cluster.awaitRunningLauncher("demo", "web-frontend");
        // The PDBs KubeVirt keeps, with status, so the preview sees what an eviction would meet.
        await().atMost(WAIT).until(() -> cluster.client.policy().v1().podDisruptionBudget().inNamespace("demo").list().getItems()
                .stream().filter(p -> p.getMetadata().getName().startsWith("kubevirt-disruption-budget-"))
                .filter(p -> p.getStatus() != null && Integer.valueOf(1).equals(p.getStatus().getCurrentHealthy())).count() >= 5);
        perNode = new ArrayList<>();
        for (Node node : cluster.client.nodes().list().getItems()) {
            perNode.add(cluster.ops.preview(node.getMetadata().getName(), KUBEVIRT_DRAIN));
        }
        previews = perNode.stream().flatMap(p -> p.pods().stream())
                .collect(Collectors.toMap(p -> p.name().replaceFirst("^virt-launcher-(.*)-[a-z0-9]{5}$", "launcher:$1"), Function.identity()));
    }

    @AfterAll
    static void stop() {
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    void everyPodHasAnOutcomeAndAReason() {
        assertThat(previews).hasSizeGreaterThanOrEqualTo(15);
        assertThat(previews.values()).allSatisfy(p -> assertThat(p.reason()).isNotBlank());
        assertThat(perNode).allSatisfy(p -> assertThat(p.canStart()).isTrue());
    }

    @org.junit.jupiter.params.ParameterizedTest(name = "{0}: {1}")
    @org.junit.jupiter.params.provider.CsvSource(delimiter = '|', textBlock = """
            node-exporter-node01      | SKIPPED_DAEMONSET      | managed by DaemonSet node-exporter: stays on the node
            web-6b9d8f7c5-kx2lp       | EVICTED                | its ReplicaSet web-6b9d8f7c5 recreates it elsewhere
            toolbox-5c7f9d4b8-m4tqz   | EVICTED                | its ReplicaSet toolbox-5c7f9d4b8 recreates it elsewhere
            launcher:database         | LIVE_MIGRATION         | the eviction triggers a live migration of VMI database (strategy LiveMigrate)
            launcher:web-frontend     | LIVE_MIGRATION         | the eviction triggers a live migration of VMI web-frontend (strategy LiveMigrate)
            launcher:cache            | LIVE_MIGRATION         | the eviction triggers a live migration of VMI cache (strategy LiveMigrateIfPossible)
            launcher:appliance        | EXTERNAL_EVACUATION    | the eviction marks VMI appliance for evacuation (strategy External)
            launcher:ledger           | BLOCKED_NOT_MIGRATABLE | not live-migratable (DisksNotLiveMigratable: cannot migrate VMI: PVC local-disk is not shared
            launcher:legacy-erp       | BLOCKED_NOT_MIGRATABLE | not live-migratable (NotMigratable:
            launcher:ml-trainer       | EVICTED_VMI_LOST       | strategy LiveMigrateIfPossible but not live-migratable (HostDeviceNotLiveMigratable
            launcher:scratch-worker   | EVICTED_VMI_LOST       | evicted (strategy None): VMI scratch-worker is shut down and lost
            launcher:batch-runner     | EVICTED_VMI_LOST       | evicted (strategy None)
            """)
    @DisplayName("each outcome kind of the demo, with its reason")
    void outcomeOf(String pod, PodOutcome outcome, String reason) {
        PodPreview preview = previews.get(pod);
        assertThat(preview).as(pod).isNotNull();
        assertThat(preview.outcome()).as(preview.reason()).isEqualTo(outcome);
        assertThat(preview.reason()).contains(reason);
    }

    @Test
    @DisplayName("the PDB KubeVirt keeps is named for each pod it holds; refused evictions carry the webhook's message")
    void namesBudgetsAndMessages() {
        assertThat(previews.get("launcher:database").budget()).startsWith("demo/kubevirt-disruption-budget-");
        assertThat(previews.get("launcher:database").expectedMessage()).isEqualTo(
                "admission webhook \"virt-launcher-eviction-interceptor.kubevirt.io\" denied the request: "
                        + "Eviction triggered evacuation of VMI \"demo/database\"");
        assertThat(previews.get("launcher:ledger").expectedMessage()).isEqualTo(
                "admission webhook \"virt-launcher-eviction-interceptor.kubevirt.io\" denied the request: "
                        + "VMI ledger is configured with an eviction strategy but is not live-migratable");
    }

    @Test
    @DisplayName("without kubectl's options the demo's DaemonSet and emptyDir pods keep a drain from starting")
    void withoutOptions() {
        String toolboxNode = perNode.stream().filter(p -> p.pod("demo", "toolbox-5c7f9d4b8-m4tqz").isPresent())
                .findFirst().orElseThrow().node();
        DrainPreview bare = cluster.ops.preview(toolboxNode, DrainOptions.defaults().withDryRun(true));
        assertThat(bare.pod("demo", "toolbox-5c7f9d4b8-m4tqz").orElseThrow().outcome()).isEqualTo(PodOutcome.NEEDS_DELETE_EMPTYDIR_DATA);
        assertThat(bare.canStart()).isFalse();
        assertThat(bare.errors()).contains(
                "cannot delete DaemonSet-managed Pods (use --ignore-daemonsets to ignore): kube-system/node-exporter-" + toolboxNode,
                "cannot delete Pods with local storage (use --delete-emptydir-data to override): demo/toolbox-5c7f9d4b8-m4tqz");
    }

    @Test
    @DisplayName("a dry-run drain writes nothing")
    void dryRunWritesNothing() {
        DrainResult result = cluster.ops.drain("node01", KUBEVIRT_DRAIN).await();
        assertThat(result.status()).isEqualTo(DrainResult.Status.DRY_RUN);
        var spec = cluster.client.nodes().withName("node01").get().getSpec();
        assertThat(spec == null ? null : spec.getUnschedulable()).isNotEqualTo(Boolean.TRUE);
        assertThat(cluster.client.resources(VirtualMachineInstance.class).inNamespace("demo").list().getItems())
                .allSatisfy(v -> assertThat(v.isMarkedForEviction()).isFalse());
    }
}
