package dev.drainboard.ops;

import io.fabric8.kubernetes.api.model.LabelSelectorBuilder;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodAffinityTermBuilder;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.Taint;
import io.fabric8.kubernetes.api.model.Toleration;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/** The placement check, predicate by predicate: what fits, what does not, and kube-scheduler's words for it. */
class PlacementDecisionTest {

    private static final String NOT_HELPFUL = "Preemption is not helpful for scheduling";
    private static final String NO_VICTIMS = "No preemption victims found for incoming pod";

    /**
     * @param stranded the names of the moves with nowhere to go, each with the message it gets (null: any)
     */
    record Case(String name, List<Node> nodes, List<Pod> pods, Set<String> drained, List<PlacementDecision.Move> moves,
                Map<String, String> stranded) {
        @Override
        public String toString() {
            return name;
        }
    }

    static Stream<Arguments> cases() {
        List<Case> c = new ArrayList<>();
        Pod small = pod("a", "vm1", "2", "1Gi", p -> p);
        c.add(new Case("fits on the node that remains", nodes(node("a"), node("b")), List.of(small), Set.of("a"),
                List.of(recreate(small)), Map.of()));
        Pod big = pod("a", "vm1", "1", "10Gi", p -> p);
        c.add(new Case("memory: requests above what is allocatable", nodes(node("a"), node("b")), List.of(big), Set.of("a"),
                List.of(recreate(big)), Map.of("vm1", "0/2 nodes are available: 1 Insufficient memory, 1 node(s) were unschedulable. "
                        + "preemption: 0/2 nodes are available: 1 " + NO_VICTIMS + ", 1 " + NOT_HELPFUL + ".")));
        Pod hungry = pod("a", "vm1", "5", "1Gi", p -> p);
        c.add(new Case("cpu: requests above what is allocatable", nodes(node("a"), node("b")), List.of(hungry), Set.of("a"),
                List.of(recreate(hungry)), Map.of("vm1", "0/2 nodes are available: 1 Insufficient cpu, 1 node(s) were unschedulable. "
                        + "preemption: 0/2 nodes are available: 1 " + NO_VICTIMS + ", 1 " + NOT_HELPFUL + ".")));
        Pod three = pod("a", "vm1", "1", "3Gi", p -> p);
        c.add(new Case("what is already placed counts", nodes(node("a"), node("b")),
                List.of(three, pod("b", "resident", "1", "6Gi", p -> p)), Set.of("a"), List.of(recreate(three)),
                Map.of("vm1", "0/2 nodes are available: 1 Insufficient memory, 1 node(s) were unschedulable. "
                        + "preemption: 0/2 nodes are available: 1 " + NO_VICTIMS + ", 1 " + NOT_HELPFUL + ".")));
        c.add(new Case("finished pods hold nothing", nodes(node("a"), node("b")),
                List.of(three, finished(pod("b", "done", "1", "6Gi", p -> p))), Set.of("a"), List.of(recreate(three)), Map.of()));
        Pod pinned = pod("a", "worker", "1", "512Mi", p -> p.editSpec().withNodeSelector(Map.of("kubernetes.io/hostname", "a")).endSpec());
        c.add(new Case("node selector: pinned to the drained node", nodes(node("a"), node("b"), node("c"), node("d")),
                List.of(pinned), Set.of("a"), List.of(recreate(pinned)),
                Map.of("worker", "0/4 nodes are available: 1 node(s) were unschedulable, 3 node(s) didn't match Pod's node affinity/selector. "
                        + "preemption: 0/4 nodes are available: 4 " + NOT_HELPFUL + ".")));
        Pod affine = pod("a", "vm1", "1", "1Gi", p -> p.editSpec().withNewAffinity().withNewNodeAffinity()
                .withNewRequiredDuringSchedulingIgnoredDuringExecution().addNewNodeSelectorTerm().addNewMatchExpression()
                .withKey("gpu").withOperator("Exists").endMatchExpression().endNodeSelectorTerm()
                .endRequiredDuringSchedulingIgnoredDuringExecution().endNodeAffinity().endAffinity().endSpec());
        c.add(new Case("required node affinity: no other node has the label", nodes(node("a"), node("b")), List.of(affine), Set.of("a"),
                List.of(recreate(affine)), Map.of("vm1", "0/2 nodes are available: 1 node(s) didn't match Pod's node affinity/selector, "
                        + "1 node(s) were unschedulable. preemption: 0/2 nodes are available: 2 " + NOT_HELPFUL + ".")));
        c.add(new Case("required node affinity: another node has the label", nodes(node("a"), labelled(node("b"), "gpu", "a10")),
                List.of(affine), Set.of("a"), List.of(recreate(affine)), Map.of()));
        Node tainted = tainted(node("b"), "dedicated", "db", "NoSchedule");
        c.add(new Case("taint not tolerated", nodes(node("a"), tainted), List.of(small), Set.of("a"), List.of(recreate(small)),
                Map.of("vm1", "0/2 nodes are available: 1 node(s) had untolerated taint {dedicated: db}, 1 node(s) were unschedulable. "
                        + "preemption: 0/2 nodes are available: 2 " + NOT_HELPFUL + ".")));
        Pod tolerant = pod("a", "vm1", "1", "1Gi", p -> p.editSpec().withTolerations(
                new Toleration("NoSchedule", "dedicated", "Equal", null, "db")).endSpec());
        c.add(new Case("taint tolerated", nodes(node("a"), tainted), List.of(tolerant), Set.of("a"), List.of(recreate(tolerant)), Map.of()));
        Pod spread = pod("a", "vm1", "1", "1Gi", p -> p.editSpec().withNewAffinity().withNewPodAntiAffinity()
                .addToRequiredDuringSchedulingIgnoredDuringExecution(new PodAffinityTermBuilder()
                        .withLabelSelector(new LabelSelectorBuilder().addToMatchLabels("app", "db").build())
                        .withTopologyKey("kubernetes.io/hostname").build()).endPodAntiAffinity().endAffinity().endSpec());
        Pod db = pod("b", "db-1", "1", "1Gi", p -> p.editMetadata().addToLabels("app", "db").endMetadata());
        c.add(new Case("pod anti-affinity: a pod it must avoid is on the only node left", nodes(node("a"), node("b")),
                List.of(spread, db), Set.of("a"), List.of(recreate(spread)),
                Map.of("vm1", "0/2 nodes are available: 1 node(s) didn't match pod anti-affinity rules, 1 node(s) were unschedulable. "
                        + "preemption: 0/2 nodes are available: 1 " + NO_VICTIMS + ", 1 " + NOT_HELPFUL + ".")));
        Node onePod = new NodeBuilder(node("b")).editStatus().addToAllocatable("pods", new Quantity("1")).endStatus().build();
        c.add(new Case("pod count: the node is full", nodes(node("a"), onePod), List.of(small, pod("b", "resident", "0", "0", p -> p)),
                Set.of("a"), List.of(recreate(small)),
                Map.of("vm1", "0/2 nodes are available: 1 Too many pods, 1 node(s) were unschedulable. "
                        + "preemption: 0/2 nodes are available: 1 " + NO_VICTIMS + ", 1 " + NOT_HELPFUL + ".")));
        // Packing: b has 8Gi; three of 3Gi each fit alone, only two together. The third in order is the one left.
        Pod p1 = pod("a", "vm1", "1", "3Gi", p -> p);
        Pod p2 = pod("a", "vm2", "1", "3Gi", p -> p);
        Pod p3 = pod("a", "vm3", "1", "3Gi", p -> p);
        c.add(new Case("packing: each fits alone, not all together; the last in order is stranded", nodes(node("a"), node("b")),
                List.of(p1, p2, p3), Set.of("a"), List.of(recreate(p1), recreate(p2), recreate(p3)), Map.of("vm3", "1 Insufficient memory")));
        Pod onB = pod("b", "vm4", "1", "3Gi", p -> p);
        c.add(new Case("several nodes drained together: only c remains", nodes(node("a"), node("b"), node("c")),
                List.of(p1, p2, onB), Set.of("a", "b"), List.of(recreate(p1), recreate(p2), recreate(onB)),
                Map.of("vm4", "0/3 nodes are available: 1 Insufficient memory, 2 node(s) were unschedulable.")));
        c.add(new Case("every node drained: nothing remains", nodes(node("a"), node("b")), List.of(small), Set.of("a", "b"),
                List.of(recreate(small)), Map.of("vm1", "0/2 nodes are available: 2 node(s) were unschedulable. "
                        + "preemption: 0/2 nodes are available: 2 " + NOT_HELPFUL + ".")));
        // A migration's target may not land beside its source pod (KubeVirt's anti-affinity on kubevirt.io/created-by).
        Pod source = pod("a", "virt-launcher-vm1", "1", "1Gi", p -> p.editMetadata().addToLabels("kubevirt.io/created-by", "uid-vm1").endMetadata());
        c.add(new Case("migration: the target never goes to the source node", nodes(node("a")), List.of(source), Set.of(),
                List.of(migrate(source)), Map.of("vm1", "0/1 nodes are available: 1 node(s) didn't match pod anti-affinity rules.")));
        c.add(new Case("migration: the target goes to another node", nodes(node("a"), node("b")), List.of(source), Set.of(),
                List.of(migrate(source)), Map.of()));
        Node tight = new NodeBuilder(node("b")).editStatus().addToAllocatable("memory", new Quantity("2Gi")).endStatus().build();
        Pod m2 = pod("a", "virt-launcher-vm2", "1", "1Gi", p -> p.editMetadata().addToLabels("kubevirt.io/created-by", "uid-vm2").endMetadata());
        c.add(new Case("migration: the source pod keeps its node's resources while the target starts", nodes(node("a"), tight),
                List.of(source, m2, pod("b", "resident", "1", "1Gi", p -> p)), Set.of("a"), List.of(migrate(source), migrate(m2)),
                Map.of("vm2", "1 Insufficient memory")));
        return c.stream().map(Arguments::of);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    @DisplayName("placement table")
    void decides(Case c) {
        List<PlacementDecision.Stranded> stranded = PlacementDecision.decide(c.nodes(), c.pods(), c.drained(), c.moves());
        assertThat(stranded).extracting(s -> s.move().name()).containsExactlyInAnyOrderElementsOf(c.stranded().keySet());
        for (PlacementDecision.Stranded s : stranded) {
            String expected = c.stranded().get(s.move().name());
            if (expected.startsWith("0/")) {
                assertThat(s.message()).startsWith(expected);
            } else {
                assertThat(s.message()).contains(expected);
            }
        }
    }

    // ---- fixtures: nodes of 4 CPUs and 8Gi, 110 pods

    static List<Node> nodes(Node... nodes) {
        return List.of(nodes);
    }

    static Node node(String name) {
        return new NodeBuilder().withNewMetadata().withName(name).addToLabels("kubernetes.io/hostname", name).endMetadata()
                .withNewSpec().endSpec()
                .withNewStatus().addToAllocatable("cpu", new Quantity("4")).addToAllocatable("memory", new Quantity("8Gi"))
                .addToAllocatable("pods", new Quantity("110")).addNewCondition().withType("Ready").withStatus("True").endCondition()
                .endStatus().build();
    }

    static Node labelled(Node node, String key, String value) {
        node.getMetadata().getLabels().put(key, value);
        return node;
    }

    static Node tainted(Node node, String key, String value, String effect) {
        node.getSpec().setTaints(List.of(new Taint(effect, key, null, value)));
        return node;
    }

    static Pod pod(String node, String name, String cpu, String memory, UnaryOperator<PodBuilder> more) {
        PodBuilder b = new PodBuilder().withNewMetadata().withNamespace("demo").withName(name).withUid("uid-" + name)
                .addToLabels("app", name).endMetadata()
                .withNewSpec().withNodeName(node).addNewContainer().withName("c").withImage("i").withNewResources()
                .addToRequests("cpu", new Quantity(cpu)).addToRequests("memory", new Quantity(memory)).endResources()
                .endContainer().endSpec()
                .withNewStatus().withPhase("Running").endStatus();
        return more.apply(b).build();
    }

    static Pod finished(Pod pod) {
        pod.getStatus().setPhase("Succeeded");
        return pod;
    }

    /** A pod whose controller makes a new one from the same template. */
    static PlacementDecision.Move recreate(Pod pod) {
        return new PlacementDecision.Move(Blocker.POD, "demo", pod.getMetadata().getName(), pod, pod, false);
    }

    /** A VMI migrating: its target pod is its launcher with KubeVirt's anti-affinity to the source pod. */
    static PlacementDecision.Move migrate(Pod source) {
        String vmi = source.getMetadata().getName().replace("virt-launcher-", "");
        Pod target = new PodBuilder(source).editMetadata().withName(source.getMetadata().getName() + "-target").endMetadata()
                .editSpec().withNewAffinity().withNewPodAntiAffinity()
                .addToRequiredDuringSchedulingIgnoredDuringExecution(new PodAffinityTermBuilder()
                        .withLabelSelector(new LabelSelectorBuilder().addToMatchLabels("kubevirt.io/created-by", "uid-" + vmi).build())
                        .withTopologyKey("kubernetes.io/hostname").build()).endPodAntiAffinity().endAffinity().endSpec().build();
        return new PlacementDecision.Move(Blocker.VMI, "demo", vmi, source, target, true);
    }
}
