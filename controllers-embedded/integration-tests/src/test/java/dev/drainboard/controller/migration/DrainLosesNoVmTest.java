package dev.drainboard.controller.migration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.drainboard.kubevirt.api.VirtualMachineInstance;
import dev.drainboard.ops.DrainOptions;
import dev.drainboard.ops.DrainResult;
import dev.drainboard.ops.Ops;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A drain evicts a migrated VMI's finished source launcher the moment it finishes. That must never look like the VM
 * died: the source launcher may only finish once the VMI has moved to the target node (the handler's clean-up
 * comes first, as with virt-launcher and virt-handler), so the VMI controller never sees its pod vanish.
 */
@DisplayName("a fast drain loses no VM: a source launcher finishes only after its VMI moved")
class DrainLosesNoVmTest {

    @TempDir
    Path workDir;

    @Test
    void everyVmiRunsOnTheOtherNodeAndNoSourcePodFinishedEarly() throws Exception {
        try (MigrationTestCluster c = new MigrationTestCluster(workDir, MigrationTimings.defaults())) {
            c.node("node01", Map.of());
            List<String> names = List.of("vm0", "vm1", "vm2", "vm3");
            for (String name : names) {
                c.createVmi(name, "LiveMigrate", Map.of("sim.drainboard.dev/memory-dirty-rate", "0"));
            }
            names.forEach(c::awaitRunningMigratable);
            c.node("node02", Map.of());

            // The embedded API server has one resourceVersion sequence: it orders events across the two watches.
            Map<String, Long> movedAt = new ConcurrentHashMap<>();       // VMI → version where its nodeName left node01
            Map<String, Long> sourceFinishedAt = new ConcurrentHashMap<>(); // VMI → version where its node01 pod finished
            Watch vmiWatch = c.client.resources(VirtualMachineInstance.class).inNamespace("default").watch(new Watcher<>() {
                @Override
                public void eventReceived(Action action, VirtualMachineInstance vmi) {
                    if (vmi.getStatus() != null && "node02".equals(vmi.getStatus().getNodeName())) {
                        movedAt.putIfAbsent(vmi.getMetadata().getName(), Long.parseLong(vmi.getMetadata().getResourceVersion()));
                    }
                }

                @Override
                public void onClose(WatcherException cause) {
                }
            });
            Watch podWatch = c.client.pods().inNamespace("default").watch(new Watcher<>() {
                @Override
                public void eventReceived(Action action, Pod pod) {
                    String vmi = pod.getMetadata().getLabels() == null ? null : pod.getMetadata().getLabels().get("vm.kubevirt.io/name");
                    boolean finished = pod.getStatus() != null && "Succeeded".equals(pod.getStatus().getPhase());
                    if (vmi != null && finished && "node01".equals(pod.getSpec().getNodeName())) {
                        sourceFinishedAt.putIfAbsent(vmi, Long.parseLong(pod.getMetadata().getResourceVersion()));
                    }
                }

                @Override
                public void onClose(WatcherException cause) {
                }
            });
            try (Ops ops = Ops.connect(Config.fromKubeconfig(Files.readString(c.cluster.kubeconfig())))) {
                DrainResult result = ops.drain("node01", DrainOptions.defaults().withTimeout(Duration.ofMinutes(2))).await();
                assertThat(result.status()).as(result.toString()).isEqualTo(DrainResult.Status.DRAINED);
                await().atMost(MigrationTestCluster.WAIT).until(() -> sourceFinishedAt.size() == names.size() && movedAt.size() == names.size());
            } finally {
                vmiWatch.close();
                podWatch.close();
            }
            await().atMost(MigrationTestCluster.WAIT).untilAsserted(() -> assertThat(c.migrations())
                    .hasSize(names.size()).allSatisfy(m -> assertThat(m.getStatus().getPhase()).isEqualTo("Succeeded")));
            for (String name : names) {
                VirtualMachineInstance vmi = c.vmi(name);
                assertThat(vmi.getStatus().getPhase()).as(name).isEqualTo("Running");
                assertThat(vmi.getStatus().getNodeName()).as(name).isEqualTo("node02");
            }
            for (String name : names) {
                assertThat(sourceFinishedAt.get(name)).as(name + ": source launcher finished after the VMI moved")
                        .isGreaterThan(movedAt.get(name));
            }
        }
    }
}
