package dev.drainboard.ops;

import dev.drainboard.kubevirt.KubeVirtConditions;
import dev.drainboard.kubevirt.api.Condition;
import dev.drainboard.kubevirt.api.VirtualMachineInstance;
import dev.drainboard.kubevirt.api.VirtualMachineInstanceMigration;
import dev.drainboard.kubevirt.api.VirtualMachineInstanceMigrationSpec;
import dev.drainboard.kubevirt.api.VirtualMachineInstanceMigrationStatus;
import dev.drainboard.kubevirt.api.VirtualMachineInstanceStatus;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

@DisplayName("VMI actions: when cancel-evacuation and migrate are refused")
class VmiRulesTest {

    @ParameterizedTest(name = "[{index}] taints {0} -> {1}")
    @CsvSource(delimiter = '|', nullValues = "-", textBlock = """
            -                               | -
            kubevirt.io/drain:NoSchedule    | still carries the drain taint kubevirt.io/drain:NoSchedule
            kubevirt.io/drain:NoExecute     | -
            other/key:NoSchedule            | -
            GONE                            | -
            """)
    void cancelEvacuation(String taint, String refusal) {
        VirtualMachineInstance vmi = vmi("Running", null, null);
        vmi.getStatus().setEvacuationNodeName("node01");
        Node node = null;
        if (!"GONE".equals(taint)) {
            NodeBuilder builder = new NodeBuilder().withNewMetadata().withName("node01").endMetadata().withNewSpec().endSpec();
            if (taint != null) {
                String[] parts = taint.split(":");
                builder.editSpec().addNewTaint().withKey(parts[0]).withEffect(parts[1]).endTaint().endSpec();
            }
            node = builder.build();
        }
        var answer = VmiRules.cancelEvacuationRefusal(vmi, node, Taints.KUBEVIRT_DRAIN_KEY);
        if (refusal == null) {
            assertThat(answer).isEmpty();
        } else {
            assertThat(answer).get().asString().contains("VMI demo/vm1 is marked for evacuation from node node01", refusal);
        }
    }

    @ParameterizedTest(name = "[{index}] {0}, LiveMigratable={1}, migration {3} -> {4}")
    @CsvSource(delimiter = '|', nullValues = "-", textBlock = """
            Running    | True  | -                                | -         | -
            Scheduled  | True  | -                                | -         | is not running (phase Scheduled)
            -          | -     | -                                | -         | is not running (no phase yet)
            Running    | -     | -                                | -         | its LiveMigratable condition is not reported yet
            Running    | False | NotMigratable                    | -         | is not live-migratable: NotMigratable
            Running    | False | DisksNotLiveMigratable           | -         | is not live-migratable: DisksNotLiveMigratable
            Running    | True  | -                                | Running   | already has an unfinished migration: m1 (Running)
            Running    | True  | -                                | Pending   | already has an unfinished migration: m1 (Pending)
            Running    | True  | -                                | Succeeded | -
            Running    | True  | -                                | Failed    | -
            Running    | True  | -                                | OTHER_VMI | -
            """)
    void migrate(String phase, String migratable, String reason, String migration, String refusal) {
        VirtualMachineInstance vmi = vmi(phase, migratable, reason);
        List<VirtualMachineInstanceMigration> migrations = new ArrayList<>();
        if (migration != null) {
            VirtualMachineInstanceMigration m = new VirtualMachineInstanceMigration();
            m.setMetadata(new ObjectMetaBuilder().withName("m1").withNamespace("demo").build());
            m.setSpec(new VirtualMachineInstanceMigrationSpec("OTHER_VMI".equals(migration) ? "vm2" : "vm1"));
            VirtualMachineInstanceMigrationStatus status = new VirtualMachineInstanceMigrationStatus();
            status.setPhase("OTHER_VMI".equals(migration) ? "Running" : migration);
            m.setStatus(status);
            migrations.add(m);
        }
        var answer = VmiRules.migrateRefusal(vmi, migrations);
        if (refusal == null) {
            assertThat(answer).isEmpty();
        } else {
            assertThat(answer).get().asString().startsWith("VMI demo/vm1 ").contains(refusal);
        }
    }

    private static VirtualMachineInstance vmi(String phase, String migratable, String reason) {
        VirtualMachineInstance vmi = new VirtualMachineInstance();
        vmi.setMetadata(new ObjectMetaBuilder().withName("vm1").withNamespace("demo").build());
        VirtualMachineInstanceStatus status = new VirtualMachineInstanceStatus();
        status.setPhase(phase);
        if (migratable != null) {
            status.setConditions(List.of(new Condition(KubeVirtConditions.LIVE_MIGRATABLE, migratable, reason, null)));
        }
        vmi.setStatus(status);
        return vmi;
    }
}
