package dev.drainboard.ops.maintenance;

import dev.drainboard.kubevirt.api.Condition;
import dev.drainboard.kubevirt.api.DomainSpec;
import dev.drainboard.kubevirt.api.VirtualMachineInstance;
import dev.drainboard.kubevirt.api.VirtualMachineInstanceSpec;
import dev.drainboard.kubevirt.api.VirtualMachineInstanceStatus;
import dev.drainboard.kubevirt.config.ClusterConfig;
import dev.drainboard.maintenance.MaintenancePlanStatus.VmNote;
import dev.drainboard.ops.DrainOptions;
import dev.drainboard.ops.PlacementInputs;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.Taint;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/** The planner's order and placement, case by case: what moves where, what moves twice and why, what is stranded. */
class MaintenancePlanDecisionTest {

    private static final DrainOptions OPTIONS = DrainOptions.defaults().withIgnoreDaemonSets(true).withDeleteEmptyDirData(true);
    private static final Instant NOW = Instant.parse("2025-01-01T00:00:00Z");

    /**
     * @param batches    the expected order
     * @param migrations the expected count
     * @param twice      VMIs expected to move more than once, each with a piece of the reason
     * @param stranded   VMIs expected stranded, each with a piece of the reason
     * @param finalNode  where some VMIs end up
     */
    record Case(String name, Cluster cluster, int maxUnavailable, List<List<String>> batches, int migrations,
                Map<String, String> twice, Map<String, String> stranded, Map<String, String> finalNode) {
        @Override
        public String toString() {
            return name;
        }
    }

    static Stream<Arguments> cases() {
        List<Case> c = new ArrayList<>();
        c.add(new Case("an empty node first; every VM lands on a maintained node and moves once",
                new Cluster().node("a").node("b").node("c").vm("vm1", "a", "2Gi").vm("vm2", "a", "2Gi").vm("vm3", "b", "2Gi"),
                1, List.of(List.of("c"), List.of("b"), List.of("a")), 3, Map.of(), Map.of(), Map.of("vm3", "c")));
        c.add(new Case("no empty node: the first node's VM has no maintained node to go to and moves twice",
                new Cluster().node("a").node("b").node("c").vm("vm1", "a", "2Gi")
                        .vm("vm2", "b", "2Gi").vm("vm3", "b", "2Gi").vm("vm4", "c", "2Gi").vm("vm5", "c", "2Gi"),
                1, null, 6, Map.of("vm1", "when a is drained no node is maintained yet"), Map.of(), Map.of()));
        c.add(new Case("capacity: the maintained node takes one VM, the other goes to a node maintained later",
                new Cluster().node("a").node("b").node("c", "3Gi").vm("vm1", "a", "2Gi").vm("vm2", "a", "2Gi")
                        .vm("vm3", "b", "2Gi").vm("vm4", "b", "2Gi").vm("vm5", "b", "2Gi"),
                1, List.of(List.of("c"), List.of("a"), List.of("b")), 6,
                Map.of("*", "no maintained node can take it (0/3 nodes are available: 1 Insufficient memory, 2 node(s) were unschedulable."),
                Map.of(), Map.of()));
        c.add(new Case("nodeSelector: a VM that needs a gpu node waits on one not maintained yet, moves twice",
                new Cluster().node("a", n -> label(n, "gpu", "true")).node("b", n -> label(n, "gpu", "true")).node("c")
                        .vm("vm-gpu", "a", "2Gi", v -> v.getSpec().setNodeSelector(Map.of("gpu", "true")))
                        .vm("vm-plain", "b", "2Gi"),
                1, List.of(List.of("c"), List.of("a"), List.of("b")), 3,
                Map.of("vm-gpu", "didn't match Pod's node affinity/selector"), Map.of(), Map.of("vm-gpu", "a")));
        c.add(new Case("taint: the empty node is tainted, the VM that does not tolerate it goes elsewhere",
                new Cluster().node("a").node("b").node("c", n -> n.getSpec().setTaints(List.of(new Taint("NoSchedule", "dedicated", null, "db"))))
                        .vm("vm1", "a", "2Gi").vm("vm2", "b", "2Gi").vm("vm3", "b", "2Gi"),
                1, List.of(List.of("c"), List.of("a"), List.of("b")), 4,
                Map.of("vm1", "untolerated taint {dedicated: db}"), Map.of(), Map.of("vm1", "a")));
        c.add(new Case("a VM that is not live-migratable: its node is skipped, last, the VM stranded",
                new Cluster().node("a").node("b").node("c").vm("vm1", "b", "2Gi")
                        .vm("vm-local", "a", "2Gi", v -> notMigratable(v)).vm("vm2", "a", "2Gi"),
                1, List.of(List.of("c"), List.of("b"), List.of("a")), 1, Map.of(),
                Map.of("vm-local", "not live-migratable"), Map.of("vm2", "a")));
        c.add(new Case("strategy None: the VM would be shut down, not moved: stranded",
                new Cluster().node("a").node("b").vm("vm-none", "a", "1Gi", v -> v.getSpec().setEvictionStrategy("None")),
                1, List.of(List.of("b"), List.of("a")), 0, Map.of(), Map.of("vm-none", "cannot live-migrate: evicted (strategy None)"),
                Map.of()));
        c.add(new Case("strategy External: nothing in KubeVirt moves it: stranded",
                new Cluster().node("a").node("b").vm("vm-ext", "a", "1Gi", v -> v.getSpec().setEvictionStrategy("External")),
                1, List.of(List.of("b"), List.of("a")), 0, Map.of(), Map.of("vm-ext", "eviction strategy External"), Map.of()));
        c.add(new Case("nowhere to fit: the other node is full, both nodes are skipped",
                new Cluster().node("a").node("b").vm("big", "a", "6Gi").vm("other", "b", "5Gi"),
                1, List.of(List.of("b"), List.of("a")), 0, Map.of(),
                Map.of("big", "no node can take its migration target pod: 0/2 nodes are available: 1 Insufficient memory",
                        "other", "Insufficient memory"), Map.of()));
        c.add(new Case("maxUnavailable 2: the two empty nodes first, then the two full ones together, each VM once",
                new Cluster().node("a").node("b").node("c").node("d").vm("vm1", "a", "2Gi").vm("vm2", "a", "2Gi")
                        .vm("vm3", "b", "2Gi").vm("vm4", "b", "2Gi"),
                2, List.of(List.of("c", "d"), List.of("a", "b")), 4, Map.of(), Map.of(), Map.of()));
        return c.stream().map(Arguments::of);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void plans(Case c) {
        MaintenancePlanPreview plan = MaintenancePlanDecision.decide(c.cluster().inputs(c.maxUnavailable(), Duration.ZERO));
        if (c.batches() != null) {
            assertThat(plan.batches()).isEqualTo(c.batches());
        }
        assertThat(plan.migrations()).as("migrations").isEqualTo(c.migrations());
        assertThat(plan.vms().stream().mapToInt(MaintenancePlanPreview.VmPlan::moves).sum()).isEqualTo(c.migrations());
        if (c.twice().containsKey("*")) {
            assertThat(plan.movedMoreThanOnce()).hasSize(1);
            assertThat(plan.movedMoreThanOnce().getFirst().reason()).contains(c.twice().get("*"));
        } else {
            assertThat(plan.movedMoreThanOnce()).extracting(VmNote::name).containsExactlyInAnyOrderElementsOf(c.twice().keySet());
            c.twice().forEach((vm, why) -> assertThat(note(plan.movedMoreThanOnce(), vm).reason()).contains(why));
        }
        assertThat(plan.stranded()).extracting(VmNote::name).containsExactlyInAnyOrderElementsOf(c.stranded().keySet());
        c.stranded().forEach((vm, why) -> assertThat(note(plan.stranded(), vm).reason()).contains(why).contains("is skipped"));
        assertThat(plan.strands()).isEqualTo(!c.stranded().isEmpty());
        c.finalNode().forEach((vm, node) -> assertThat(finalNode(plan, c.cluster(), vm)).as(vm).isEqualTo(node));
        // What moves twice is exactly what was sent to a node maintained later.
        Set<String> maintainedOrder = new java.util.LinkedHashSet<>();
        plan.batches().forEach(maintainedOrder::addAll);
        for (MaintenancePlanPreview.VmPlan vm : plan.vms()) {
            assertThat(vm.moves() > 1).as(vm.name()).isEqualTo(c.twice().containsKey(vm.name())
                    || (c.twice().containsKey("*") && plan.movedMoreThanOnce().getFirst().name().equals(vm.name())));
        }
    }

    @Test
    @DisplayName("nodes in a batch drain together: same start, the batch lasts as its longest node plus a turn's cost; batches add up")
    void times() {
        Cluster cluster = new Cluster().node("a").node("b").node("c").node("d")
                .vm("vm1", "a", "4Gi").vm("vm2", "a", "4Gi").vm("vm3", "b", "4Gi").vm("vm4", "b", "4Gi");
        double turn = MaintenancePlanDecision.TURN_SECONDS;
        MaintenancePlanPreview together = MaintenancePlanDecision.decide(cluster.inputs(2, Duration.ZERO));
        MaintenancePlanPreview.NodePlan a = together.node("a").orElseThrow();
        MaintenancePlanPreview.NodePlan b = together.node("b").orElseThrow();
        assertThat(a.predictedStartSeconds()).isEqualTo(b.predictedStartSeconds()).isCloseTo(turn, within(1e-9)); // after the empty batch
        // 4Gi over the default 512Mi/s link: 8 s; two per source node run at once (parallelOutboundMigrationsPerNode).
        assertThat(a.predictedSeconds()).isCloseTo(8.0 + turn, within(1e-9));
        assertThat(together.seconds()).isCloseTo(8.0 + 2 * turn, within(1e-9));
        MaintenancePlanPreview oneByOne = MaintenancePlanDecision.decide(cluster.inputs(1, Duration.ZERO));
        assertThat(oneByOne.seconds()).isCloseTo(16.0 + 4 * turn, within(1e-9));
        assertThat(oneByOne.node(oneByOne.batches().get(3).getFirst()).orElseThrow().predictedStartSeconds()).isCloseTo(8.0 + 3 * turn, within(1e-9));
        // A fixed pause after each drain counts for every node, empty ones too.
        MaintenancePlanPreview paused = MaintenancePlanDecision.decide(cluster.inputs(1, Duration.ofMinutes(1)));
        assertThat(paused.seconds()).isCloseTo(16.0 + 4 * (60 + turn), within(1e-9));
        // A cluster running 5 times faster moves its VMs in a fifth of the time (reported × 5: the same), but not the
        // control plane's work of a turn, which counts 5 times in real time.
        MaintenancePlanPreview scaled = MaintenancePlanDecision.decide(cluster.inputs(1, Duration.ZERO, 5));
        assertThat(scaled.seconds()).isCloseTo(16.0 + 4 * 5 * turn, within(1e-9));
    }

    @Test
    @DisplayName("a running plan's next turn alone: the same targets and times as the whole plan gives that batch")
    void nextTurnOnly() {
        Cluster cluster = new Cluster().node("a").node("b").node("c")
                .vm("vm1", "a", "1Gi").vm("vm2", "b", "1Gi").vm("vm3", "b", "1Gi");
        MaintenanceInputs in = cluster.inputs(1, Duration.ZERO).continuing(Set.of("c"), List.of(List.of("a"), List.of("b")));
        MaintenancePlanPreview whole = MaintenancePlanDecision.decide(in);
        MaintenancePlanPreview next = MaintenancePlanDecision.decideNext(in);
        assertThat(next.batches()).containsExactly(List.of("a"));
        assertThat(next.node("a").orElseThrow()).isEqualTo(whole.node("a").orElseThrow());
        assertThat(MaintenancePlanDecision.targets(next, "a")).containsEntry("demo/vm1", "c");
    }

    @Test
    @DisplayName("re-planned while running: the maintained node is a target, the fixed order is kept")
    void continuing() {
        Cluster cluster = new Cluster().node("a").node("b").node("c").vm("vm1", "a", "2Gi").vm("vm2", "b", "2Gi");
        MaintenancePlanPreview plan = MaintenancePlanDecision.decide(cluster.inputs(1, Duration.ZERO)
                .continuing(Set.of("c"), List.of(List.of("a"), List.of("b"))));
        assertThat(plan.batches()).containsExactly(List.of("a"), List.of("b"));
        assertThat(MaintenancePlanDecision.targets(plan, "a")).containsEntry("demo/vm1", "c");
        assertThat(plan.movedMoreThanOnce()).isEmpty();
    }

    @Test
    @DisplayName("as a plan's status: batches, count, hops")
    void asStatus() {
        MaintenancePlanPreview plan = MaintenancePlanDecision.decide(new Cluster().node("a").node("b")
                .vm("vm1", "a", "1Gi").inputs(1, Duration.ZERO));
        var status = plan.toStatus();
        assertThat(status.batches()).containsExactly(List.of("b"), List.of("a"));
        assertThat(status.migrations()).isEqualTo(1);
        assertThat(status.vms()).singleElement().satisfies(v -> assertThat(v.hops()).containsExactly("a", "b"));
    }

    private static VmNote note(List<VmNote> notes, String vm) {
        return notes.stream().filter(n -> n.name().equals(vm)).findFirst().orElseThrow(() -> new AssertionError(vm + " not in " + notes));
    }

    private static String finalNode(MaintenancePlanPreview plan, Cluster cluster, String vm) {
        return plan.vms().stream().filter(v -> v.name().equals(vm)).findFirst().map(v -> v.hops().getLast())
                .orElse(cluster.vmis.get(vm).getStatus().getNodeName());
    }

    // ---- fixtures

    static void label(Node node, String key, String value) {
        node.getMetadata().getLabels().put(key, value);
    }

    static void notMigratable(VirtualMachineInstance vmi) {
        vmi.getStatus().setConditions(List.of(new Condition("LiveMigratable", "False", "DisksNotLiveMigratable",
                "cannot migrate VMI: PVC local-disk is not shared")));
    }

    /** Nodes of 4 CPUs and 8Gi (unless said), VMIs with strategy LiveMigrate and their launcher pods. */
    static final class Cluster {
        final List<Node> nodes = new ArrayList<>();
        final Map<String, VirtualMachineInstance> vmis = new LinkedHashMap<>();
        final List<Pod> pods = new ArrayList<>();

        Cluster node(String name) {
            return node(name, "8Gi", n -> { });
        }

        Cluster node(String name, String memory) {
            return node(name, memory, n -> { });
        }

        Cluster node(String name, Consumer<Node> more) {
            return node(name, "8Gi", more);
        }

        Cluster node(String name, String memory, Consumer<Node> more) {
            Node n = new NodeBuilder().withNewMetadata().withName(name).addToLabels("kubernetes.io/hostname", name).endMetadata()
                    .withNewSpec().endSpec()
                    .withNewStatus().addToAllocatable("cpu", new Quantity("4")).addToAllocatable("memory", new Quantity(memory))
                    .addToAllocatable("pods", new Quantity("110")).addNewCondition().withType("Ready").withStatus("True").endCondition()
                    .endStatus().build();
            more.accept(n);
            nodes.add(n);
            return this;
        }

        Cluster vm(String name, String node, String memory) {
            return vm(name, node, memory, v -> { });
        }

        Cluster vm(String name, String node, String memory, Consumer<VirtualMachineInstance> more) {
            VirtualMachineInstance vmi = new VirtualMachineInstance();
            vmi.setMetadata(new ObjectMetaBuilder().withNamespace("demo").withName(name).withUid("uid-" + name).build());
            VirtualMachineInstanceSpec spec = new VirtualMachineInstanceSpec();
            spec.setEvictionStrategy("LiveMigrate");
            DomainSpec domain = new DomainSpec();
            DomainSpec.Resources resources = new DomainSpec.Resources();
            resources.setRequests(Map.of("memory", new Quantity(memory)));
            domain.setResources(resources);
            spec.setDomain(domain);
            vmi.setSpec(spec);
            VirtualMachineInstanceStatus status = new VirtualMachineInstanceStatus();
            status.setPhase("Running");
            status.setNodeName(node);
            status.setConditions(List.of(new Condition("LiveMigratable", "True", null, null)));
            vmi.setStatus(status);
            more.accept(vmi);
            vmis.put(name, vmi);
            Pod launcher = new PodBuilder().withNewMetadata().withNamespace("demo").withName("virt-launcher-" + name + "-abcde")
                    .withUid("uid-launcher-" + name).addToLabels("kubevirt.io", "virt-launcher")
                    .addToLabels("kubevirt.io/created-by", "uid-" + name).addToAnnotations("kubevirt.io/domain", name)
                    .withOwnerReferences(new OwnerReferenceBuilder().withApiVersion("kubevirt.io/v1").withKind("VirtualMachineInstance")
                            .withName(name).withUid("uid-" + name).withController(true).build())
                    .endMetadata()
                    .withNewSpec().withNodeName(node).addNewContainer().withName("compute").withImage("i").withNewResources()
                    .addToRequests("memory", new Quantity(memory)).endResources().endContainer().endSpec()
                    .withNewStatus().withPhase("Running").endStatus().build();
            pods.add(launcher);
            return this;
        }

        MaintenanceInputs inputs(int maxUnavailable, Duration pause) {
            return inputs(maxUnavailable, pause, 1);
        }

        MaintenanceInputs inputs(int maxUnavailable, Duration pause, double timeScale) {
            return new MaintenanceInputs(nodes.stream().map(n -> n.getMetadata().getName()).toList(), maxUnavailable, pause,
                    new PlacementInputs(nodes, pods), List.copyOf(vmis.values()), List.of(), List.of(), List.of(),
                    ClusterConfig.defaults().withTimeScale(timeScale), OPTIONS, NOW);
        }
    }
}
