package dev.drainboard.controller.disruptionbudget;

import dev.drainboard.kubevirt.api.Condition;
import dev.drainboard.kubevirt.api.VirtualMachineInstance;
import dev.drainboard.kubevirt.api.VirtualMachineInstanceSpec;
import dev.drainboard.kubevirt.api.VirtualMachineInstanceStatus;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudgetBuilder;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/** Which updates get a disruption-budget pass, change by change: only those the decision can see. */
class BudgetRelevanceTest {

    static Stream<Arguments> vmiChanges() {
        return Stream.of(
                Arguments.of("phase Pending → Scheduling", (Consumer<VirtualMachineInstance>) v -> v.getStatus().setPhase("Scheduling"), false),
                Arguments.of("nodeName set", (Consumer<VirtualMachineInstance>) v -> v.getStatus().setNodeName("node-1"), false),
                Arguments.of("a label added", (Consumer<VirtualMachineInstance>) v -> v.getMetadata().getLabels().put("kubevirt.io/nodeName", "n"), false),
                Arguments.of("phase Running → Failed", (Consumer<VirtualMachineInstance>) v -> v.getStatus().setPhase("Failed"), true),
                Arguments.of("LiveMigratable becomes True", (Consumer<VirtualMachineInstance>) v -> v.getStatus().setConditions(
                        new ArrayList<>(List.of(new Condition("LiveMigratable", "True", null, null)))), true),
                Arguments.of("eviction strategy changed", (Consumer<VirtualMachineInstance>) v -> v.getSpec().setEvictionStrategy("None"), true),
                Arguments.of("deletion started", (Consumer<VirtualMachineInstance>) v -> v.getMetadata().setDeletionTimestamp("2030-01-01T00:00:00Z"), true),
                Arguments.of("another VMI of that name", (Consumer<VirtualMachineInstance>) v -> v.getMetadata().setUid("uid-2"), true));
    }

    @ParameterizedTest(name = "{0} → {2}")
    @MethodSource("vmiChanges")
    void vmiUpdates(String what, Consumer<VirtualMachineInstance> change, boolean relevant) {
        VirtualMachineInstance before = vmi();
        VirtualMachineInstance after = vmi();
        change.accept(after);
        assertThat(BudgetRelevance.vmiChanged(before, after)).isEqualTo(relevant);
    }

    static Stream<Arguments> podChanges() {
        return Stream.of(
                Arguments.of("bound to a node", (Consumer<Pod>) p -> p.getSpec().setNodeName("node-1"), false),
                Arguments.of("Pending → Running", (Consumer<Pod>) p -> p.getStatus().setPhase("Running"), false),
                Arguments.of("a condition added", (Consumer<Pod>) p -> p.getStatus().setConditions(List.of(
                        new io.fabric8.kubernetes.api.model.PodConditionBuilder().withType("Ready").withStatus("True").build())), false),
                Arguments.of("Running → Succeeded", (Consumer<Pod>) p -> p.getStatus().setPhase("Succeeded"), true),
                Arguments.of("Running → Failed", (Consumer<Pod>) p -> p.getStatus().setPhase("Failed"), true),
                Arguments.of("terminating", (Consumer<Pod>) p -> p.getMetadata().setDeletionTimestamp("2030-01-01T00:00:00Z"), true),
                Arguments.of("created-by relabelled", (Consumer<Pod>) p -> p.getMetadata().getLabels().put("kubevirt.io/created-by", "uid-2"), true));
    }

    @ParameterizedTest(name = "{0} → {2}")
    @MethodSource("podChanges")
    void podUpdates(String what, Consumer<Pod> change, boolean relevant) {
        Pod before = pod();
        Pod after = pod();
        change.accept(after);
        assertThat(BudgetRelevance.podChanged(before, after)).isEqualTo(relevant);
    }

    static Stream<Arguments> budgetChanges() {
        return Stream.of(
                Arguments.of("status written by the cluster", (Consumer<PodDisruptionBudget>) b -> b.getStatus().setCurrentHealthy(1), false),
                Arguments.of("resourceVersion", (Consumer<PodDisruptionBudget>) b -> b.getMetadata().setResourceVersion("99"), false),
                Arguments.of("expanded for a migration", (Consumer<PodDisruptionBudget>) b -> {
                    b.getSpec().setMinAvailable(new IntOrString(2));
                    b.getMetadata().getAnnotations().put("kubevirt.io/migration-name", "m");
                }, true),
                Arguments.of("deletion started", (Consumer<PodDisruptionBudget>) b -> b.getMetadata().setDeletionTimestamp("2030-01-01T00:00:00Z"), true));
    }

    @ParameterizedTest(name = "{0} → {2}")
    @MethodSource("budgetChanges")
    void budgetUpdates(String what, Consumer<PodDisruptionBudget> change, boolean relevant) {
        PodDisruptionBudget before = budget();
        PodDisruptionBudget after = budget();
        change.accept(after);
        assertThat(BudgetRelevance.budgetChanged(before, after)).isEqualTo(relevant);
    }

    private static VirtualMachineInstance vmi() {
        VirtualMachineInstance vmi = new VirtualMachineInstance();
        vmi.setMetadata(new ObjectMetaBuilder().withName("vm").withNamespace("ns").withUid("uid-1").withResourceVersion("1")
                .addToLabels("app", "db").build());
        vmi.setSpec(new VirtualMachineInstanceSpec());
        vmi.getSpec().setEvictionStrategy("LiveMigrate");
        VirtualMachineInstanceStatus status = new VirtualMachineInstanceStatus();
        status.setPhase("Running");
        vmi.setStatus(status);
        return vmi;
    }

    private static Pod pod() {
        return new PodBuilder().withNewMetadata().withName("virt-launcher-vm-abcde").withNamespace("ns")
                .addToLabels("kubevirt.io/created-by", "uid-1")
                .addNewOwnerReference().withKind("VirtualMachineInstance").withName("vm").withUid("uid-1").withController(true).endOwnerReference()
                .endMetadata().withNewSpec().endSpec().withNewStatus().withPhase("Pending").endStatus().build();
    }

    private static PodDisruptionBudget budget() {
        return new PodDisruptionBudgetBuilder().withNewMetadata().withName("kubevirt-disruption-budget-x").withNamespace("ns")
                .withResourceVersion("1").addToAnnotations("a", "b")
                .addNewOwnerReference().withKind("VirtualMachineInstance").withName("vm").withUid("uid-1").withController(true).endOwnerReference()
                .endMetadata().withNewSpec().withMinAvailable(new IntOrString(1)).endSpec()
                .withNewStatus().withCurrentHealthy(0).endStatus().build();
    }
}
