package dev.drainboard.controller.migration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.drainboard.kubevirt.DrainboardAnnotations;
import dev.drainboard.kubevirt.KubeVirtAnnotations;
import dev.drainboard.kubevirt.api.VirtualMachineInstance;
import dev.drainboard.kubevirt.api.VirtualMachineInstanceMigration;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Three nodes under the drain taint at once (12, 4 and 4 migratable VMIs), one node to go to: every VMI leaves its
 * node, and the VMIM watch stream never shows more than 2 migrations from one node or 5 in the cluster.
 */
@DisplayName("evacuation limits under the drain taint, from the watch stream")
class EvacuationLimitsTest {

    @TempDir
    Path workDir;

    @Test
    void taintedNodesEvacuateEverythingWithinTheLimits() throws Exception {
        try (MigrationTestCluster c = new MigrationTestCluster(workDir, MigrationTimings.defaults())) {
            Map<String, Integer> perNode = Map.of("node01", 12, "node02", 4, "node03", 4);
            for (String node : List.of("node01", "node02", "node03")) {
                c.node(node, Map.of());
                for (int i = 0; i < perNode.get(node); i++) {
                    c.createVmi(node + "-vm" + i, "LiveMigrate", Map.of());
                }
                for (int i = 0; i < perNode.get(node); i++) {
                    c.awaitRunningMigratable(node + "-vm" + i);
                    assertThat(c.vmi(node + "-vm" + i).getStatus().getNodeName()).isEqualTo(node);
                }
                c.client.nodes().withName(node).patch(PatchContext.of(PatchType.JSON_MERGE), "{\"spec\":{\"unschedulable\":true}}");
            }
            c.node("node04", Map.of());

            Map<String, String> inFlight = new ConcurrentHashMap<>(); // VMIM name → node it leaves
            AtomicInteger maxCluster = new AtomicInteger();
            Map<String, AtomicInteger> maxPerNode = new ConcurrentHashMap<>();
            List<String> violations = new java.util.concurrent.CopyOnWriteArrayList<>();
            Watch watch = c.client.resources(VirtualMachineInstanceMigration.class).inNamespace("default").watch(new Watcher<>() {
                @Override
                public void eventReceived(Action action, VirtualMachineInstanceMigration m) {
                    String name = m.getMetadata().getName();
                    if (action == Action.DELETED || m.isFinal()) {
                        inFlight.remove(name);
                    } else {
                        inFlight.put(name, m.getMetadata().getAnnotations().get(KubeVirtAnnotations.EVACUATION_MIGRATION));
                    }
                    Map<String, Integer> counts = new HashMap<>();
                    inFlight.values().forEach(n -> counts.merge(n, 1, Integer::sum));
                    maxCluster.accumulateAndGet(inFlight.size(), Math::max);
                    counts.forEach((n, k) -> maxPerNode.computeIfAbsent(n, x -> new AtomicInteger()).accumulateAndGet(k, Math::max));
                    if (inFlight.size() > 5 || counts.values().stream().anyMatch(k -> k > 2)) {
                        violations.add(action + " " + name + ": " + counts);
                    }
                }

                @Override
                public void onClose(WatcherException cause) {
                }
            });
            try {
                for (String node : List.of("node01", "node02", "node03")) {
                    c.client.nodes().withName(node).patch(PatchContext.of(PatchType.JSON_MERGE),
                            "{\"spec\":{\"taints\":[{\"key\":\"kubevirt.io/drain\",\"effect\":\"NoSchedule\"}]}}");
                }
                await().atMost(Duration.ofSeconds(180)).untilAsserted(() -> {
                    for (VirtualMachineInstance vmi : c.client.resources(VirtualMachineInstance.class).inNamespace("default").list().getItems()) {
                        assertThat(vmi.getStatus().getNodeName()).as(vmi.getMetadata().getName()).isEqualTo("node04");
                    }
                });
            } finally {
                watch.close();
            }
            assertThat(violations).isEmpty();
            assertThat(maxCluster.get()).isEqualTo(5);
            assertThat(maxPerNode.get("node01").get()).isEqualTo(2);
            // The VMI moves when the target reports completion; its VMIM turns Succeeded on the migration controller's next pass.
            await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(c.migrations()).allSatisfy(m -> {
                assertThat(m.getStatus().getPhase()).isEqualTo("Succeeded");
                assertThat(m.getMetadata().getAnnotations()).containsEntry(DrainboardAnnotations.MIGRATION_CAUSE, "node drain taint");
            }));
            for (VirtualMachineInstance vmi : c.client.resources(VirtualMachineInstance.class).inNamespace("default").list().getItems()) {
                assertThat(vmi.getStatus().getPhase()).isEqualTo("Running");
            }
        }
    }
}
