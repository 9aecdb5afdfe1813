package dev.drainboard.ops;

import static dev.drainboard.ops.OpsTestCluster.WAIT;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.drainboard.kubevirt.api.VirtualMachineInstance;
import dev.drainboard.kubevirt.api.VirtualMachineInstanceMigration;
import io.fabric8.kubernetes.api.model.Event;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

/**
 * A drain in which nothing goes wrong says nothing is wrong: no Warning event from any component, while several VMIs
 * migrate at once (the controllers, the node handler and the PDB controller all writing the same VMIs and PDBs).
 * Operators learn to ignore warnings that cry wolf.
 */
@DisplayName("a healthy drain of migrating VMIs records no Warning event")
class HealthyDrainEventsTest {

    private static final int VMIS = 6;

    private static final String NODES = """
            apiVersion: v1
            kind: Node
            metadata: {name: node01}
            ---
            apiVersion: v1
            kind: Node
            metadata: {name: node02}
            spec: {unschedulable: true}
            ---
            apiVersion: v1
            kind: Node
            metadata: {name: node03}
            spec: {unschedulable: true}
            ---
            apiVersion: v1
            kind: Namespace
            metadata: {name: demo}
            """;

    private static String vmi(int i) {
        return """
                ---
                apiVersion: kubevirt.io/v1
                kind: VirtualMachineInstance
                metadata:
                  name: vm-%d
                  namespace: demo
                  annotations: {sim.drainboard.dev/link-speed: 512Mi}
                spec:
                  evictionStrategy: LiveMigrate
                  domain:
                    memory: {guest: 256Mi}
                    resources: {requests: {memory: 256Mi}}
                    devices:
                      interfaces: [{name: default, masquerade: {}}]
                  networks: [{name: default, pod: {}}]
                """.formatted(i);
    }

    @TempDir
    Path dir;

    @Test
    void noWarningEvents() throws Exception {
        String scenario = NODES + IntStream.range(0, VMIS).mapToObj(HealthyDrainEventsTest::vmi).collect(Collectors.joining());
        try (OpsTestCluster c = OpsTestCluster.start(dir, scenario)) {
            for (int i = 0; i < VMIS; i++) {
                c.awaitRunningLauncher("demo", "vm-" + i);
            }
            c.ops.uncordon("node02");
            c.ops.uncordon("node03");

            DrainResult result = c.ops.drain("node01", DrainOptions.defaults().withIgnoreDaemonSets(true)
                    .withDeleteEmptyDirData(true).withTimeout(WAIT.multipliedBy(2))).await();

            assertThat(result.status()).as(result.toString()).isEqualTo(DrainResult.Status.DRAINED);
            List<VirtualMachineInstance> vmis = c.client.resources(VirtualMachineInstance.class).inNamespace("demo").list().getItems();
            assertThat(vmis).hasSize(VMIS).allSatisfy(v -> assertThat(v.getStatus().getNodeName()).isNotEqualTo("node01"));
            // The events of the migrations' last steps (completion, PDB shrink) come after the drain's end: wait for them.
            await().atMost(WAIT).until(() -> c.client.resources(VirtualMachineInstanceMigration.class).inNamespace("demo")
                    .list().getItems().stream().allMatch(m -> m.isFinal()));
            await().atMost(WAIT).until(() -> c.client.policy().v1().podDisruptionBudget().inNamespace("demo").list().getItems()
                    .stream().allMatch(p -> Integer.valueOf(1).equals(p.getSpec().getMinAvailable().getIntVal())));
            List<String> warnings = c.client.v1().events().inAnyNamespace().list().getItems().stream()
                    .filter(e -> "Warning".equals(e.getType()))
                    .map(HealthyDrainEventsTest::describe)
                    .toList();
            assertThat(warnings).isEmpty();
        }
    }

    private static String describe(Event e) {
        return e.getInvolvedObject().getKind() + " " + e.getInvolvedObject().getName() + ": " + e.getReason() + " " + e.getMessage()
                + " (from " + e.getSource().getComponent() + ", x" + e.getCount() + ")";
    }
}
