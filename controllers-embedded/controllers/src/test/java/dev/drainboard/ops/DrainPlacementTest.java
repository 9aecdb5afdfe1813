package dev.drainboard.ops;

import dev.drainboard.kubevirt.api.VirtualMachineInstance;
import dev.drainboard.kubevirt.config.ClusterConfig;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.List;
import java.util.Map;

import static dev.drainboard.ops.DrainPreviewTest.launcher;
import static dev.drainboard.ops.DrainPreviewTest.owned;
import static dev.drainboard.ops.DrainPreviewTest.pod;
import static dev.drainboard.ops.DrainPreviewTest.vmi;
import static org.assertj.core.api.Assertions.assertThat;

/** The preview across nodes drained together: what each pod's outcome moves, placed; blockers where nothing fits. */
class DrainPlacementTest {

    private static final DrainOptions OPTIONS = DrainOptions.defaults().withIgnoreDaemonSets(true).withDeleteEmptyDirData(true);
    private static final String NODE = DrainPreviewTest.NODE;

    @Test
    @DisplayName("a replica set's VMI pinned to the drained node: replaced, but its replacement has nowhere to run")
    void pinnedReplicaStrands() {
        VirtualMachineInstance worker = vmi("workers-abc", "None", true, "VirtualMachineInstanceReplicaSet");
        worker.getSpec().setNodeSelector(Map.of("kubernetes.io/hostname", NODE));
        Pod launcher = launcher("workers-abc");
        List<DrainPreview> previews = DrainPreview.compute(List.of(inputs(NODE, List.of(launcher), List.of(worker), OPTIONS)),
                new PlacementInputs(List.of(node(NODE), node("other")), List.of(launcher)));
        DrainPreview preview = previews.getFirst();
        assertThat(preview.pods().getFirst().outcome()).isEqualTo(PodOutcome.EVICTED_VMI_REPLACED);
        assertThat(preview.pods().getFirst().reason()).endsWith("; but its replacement has nowhere to run (blocker)");
        assertThat(preview.blockers()).containsExactly(new Blocker("VirtualMachineInstance", "demo", "workers-abc",
                "its replacement has nowhere to run: 0/2 nodes are available: 1 node(s) didn't match Pod's node affinity/selector, "
                        + "1 node(s) were unschedulable. preemption: 0/2 nodes are available: 2 Preemption is not helpful for scheduling."));
        assertThat(preview.blocked()).isTrue();
    }

    @Test
    @DisplayName("a migrating VMI whose target fits elsewhere: no blocker; its 4Gi over the default 512Mi/s link take 8 s")
    void migrationThatFits() {
        VirtualMachineInstance db = vmi("db", "LiveMigrate", true, null);
        db.getSpec().setDomain(domain("4Gi"));
        Pod launcher = launcher("db");
        List<DrainPreview> previews = DrainPreview.compute(List.of(inputs(NODE, List.of(launcher), List.of(db), OPTIONS)),
                new PlacementInputs(List.of(node(NODE), node("other")), List.of(launcher)));
        assertThat(previews.getFirst().pods().getFirst().outcome()).isEqualTo(PodOutcome.LIVE_MIGRATION);
        assertThat(previews.getFirst().blockers()).isEmpty();
        assertThat(previews.getFirst().estimateSeconds()).isEqualTo(8.0);
        // The node's link speed knob: 1Gi/s halves it.
        Node fast = new io.fabric8.kubernetes.api.model.NodeBuilder(node(NODE)).editMetadata()
                .addToAnnotations("sim.drainboard.dev/link-speed", "1Gi").endMetadata().build();
        assertThat(DrainPreview.compute(List.of(inputs(NODE, List.of(launcher), List.of(db), OPTIONS)),
                new PlacementInputs(List.of(fast, node("other")), List.of(launcher))).getFirst().estimateSeconds()).isEqualTo(4.0);
    }

    @Test
    @DisplayName("recent migrations that took longer than their transfer add that overhead to each migration; a dirtying guest takes its passes")
    void estimateCountsObservedOverheadAndDirtyRate() {
        VirtualMachineInstance db = vmi("db", "LiveMigrate", true, null);
        db.getSpec().setDomain(domain("4Gi"));
        VirtualMachineInstance web = vmi("web", "LiveMigrate", true, null);
        web.getSpec().setDomain(domain("1Gi"));
        Pod launcher = launcher("db");
        // web moved earlier: Scheduling → Succeeded 3 s for a 2 s transfer (1Gi at 512Mi/s): 1 s more than its transfer.
        var done = MigrationOverheadTest.succeeded("web", "other", "2025-01-01T00:00:00Z", "2025-01-01T00:00:03Z");
        var running = MigrationOverheadTest.succeeded("db", "other", "2025-01-01T00:00:10Z", "2025-01-01T00:00:30Z");
        running.getStatus().setPhase("Running"); // not finished: not looked at
        DrainInputs in = new DrainInputs(NODE, List.of(launcher), List.of(db, web), List.of(), List.of(), ClusterConfig.defaults(),
                OPTIONS, Instant.parse("2025-01-01T00:01:00Z"), List.of(done, running));
        List<DrainPreview> previews = DrainPreview.compute(List.of(in), new PlacementInputs(List.of(node(NODE), node("other")), List.of(launcher)));
        assertThat(previews.getFirst().estimateSeconds()).isEqualTo(9.0);

        // The guest dirties 256Mi/s of its 4Gi: passes of 8, 4, 2 and 1 s; the 256Mi dirtied in the last one take
        // 0.5 s at 512Mi/s, within KubeVirt's default 900 ms downtime.
        db.getMetadata().setAnnotations(Map.of("sim.drainboard.dev/memory-dirty-rate", "256Mi"));
        assertThat(DrainPreview.compute(List.of(inputs(NODE, List.of(launcher), List.of(db), OPTIONS)),
                new PlacementInputs(List.of(node(NODE), node("other")), List.of(launcher))).getFirst().estimateSeconds())
                .isCloseTo(15.0, org.assertj.core.api.Assertions.within(1e-9));
    }

    @Test
    @DisplayName("a MigrationPolicy that matches the VMI sets its migration's bandwidth: 4Gi at its 1Gi/s take 4 s")
    void estimateFollowsTheMatchingMigrationPolicy() {
        VirtualMachineInstance db = vmi("db", "LiveMigrate", true, null);
        db.getSpec().setDomain(domain("4Gi"));
        db.getMetadata().setLabels(Map.of("tier", "db"));
        Pod launcher = launcher("db");
        dev.drainboard.kubevirt.api.MigrationPolicy fast = io.fabric8.kubernetes.client.utils.Serialization.unmarshal("""
                {"apiVersion":"migrations.kubevirt.io/v1alpha1","kind":"MigrationPolicy","metadata":{"name":"fast-db"},
                 "spec":{"bandwidthPerMigration":"1Gi","selectors":{"virtualMachineInstanceSelector":{"tier":"db"}}}}""",
                dev.drainboard.kubevirt.api.MigrationPolicy.class);
        var nodes = List.of(node(NODE), node("other"));
        assertThat(DrainPreview.compute(List.of(inputs(NODE, List.of(launcher), List.of(db), OPTIONS)),
                new PlacementInputs(nodes, List.of(launcher), List.of(fast), Map.of("demo", Map.of()))).getFirst().estimateSeconds())
                .isEqualTo(4.0);
        // A VMI the policy does not select migrates at the node's link (512Mi/s by default): 8 s.
        db.getMetadata().setLabels(Map.of("tier", "web"));
        assertThat(DrainPreview.compute(List.of(inputs(NODE, List.of(launcher), List.of(db), OPTIONS)),
                new PlacementInputs(nodes, List.of(launcher), List.of(fast), Map.of("demo", Map.of()))).getFirst().estimateSeconds())
                .isEqualTo(8.0);
    }

    @Test
    @DisplayName("two nodes drained together: the VMIs of both compete for the one node left, in order")
    void drainedTogether() {
        VirtualMachineInstance a = vmi("a", "LiveMigrate", true, null);
        a.getSpec().setDomain(domain("5Gi"));
        VirtualMachineInstance b = vmi("b", "LiveMigrate", true, null);
        b.getSpec().setDomain(domain("5Gi"));
        b.getStatus().setNodeName("node02");
        Pod la = withRequest(launcher("a"), "5Gi");
        Pod lb = new PodBuilder(withRequest(launcher("b"), "5Gi")).editSpec().withNodeName("node02").endSpec().build();
        List<DrainPreview> previews = DrainPreview.compute(List.of(inputs(NODE, List.of(la), List.of(a), OPTIONS),
                        inputs("node02", List.of(lb), List.of(b), OPTIONS)),
                new PlacementInputs(List.of(node(NODE), node("node02"), node("node03")), List.of(la, lb)));
        assertThat(previews.get(0).blockers()).isEmpty();
        assertThat(previews.get(1).blockers()).extracting(Blocker::name).containsExactly("b");
        assertThat(previews.get(1).blockers().getFirst().reason()).startsWith("no node can take its migration target pod: 0/3 nodes are available: "
                + "1 Insufficient memory, 2 node(s) were unschedulable.");
        // Drained alone, each fits.
        assertThat(DrainPreview.compute(List.of(inputs("node02", List.of(lb), List.of(b), OPTIONS)),
                new PlacementInputs(List.of(node(NODE), node("node02"), node("node03")), List.of(la, lb))).getFirst().blockers()).isEmpty();
    }

    @Test
    @DisplayName("a ReplicaSet's pod is recreated from the same spec: it strands when no node takes it; an unmanaged pod is not placed")
    void replicaSetPods() {
        Pod web = new PodBuilder(owned(pod("web-1", "web"), "ReplicaSet", "web")).editSpec()
                .withNodeSelector(Map.of("kubernetes.io/hostname", NODE)).endSpec().build();
        Pod lonely = pod("lonely", "x");
        List<DrainPreview> previews = DrainPreview.compute(List.of(inputs(NODE, List.of(web, lonely), List.of(), OPTIONS.withForce(true))),
                new PlacementInputs(List.of(node(NODE), node("other")), List.of(web, lonely)));
        assertThat(previews.getFirst().blockers()).extracting(Blocker::kind, Blocker::name).containsExactly(
                org.assertj.core.groups.Tuple.tuple("Pod", "web-1"));
    }

    @Test
    @DisplayName("strategy External is a blocker that says what happens, unless the operator says it is handled")
    void external() {
        VirtualMachineInstance appliance = vmi("appliance", "External", true, null);
        Pod launcher = launcher("appliance");
        PlacementInputs cluster = new PlacementInputs(List.of(node(NODE), node("other")), List.of(launcher));
        DrainPreview blocked = DrainPreview.compute(List.of(inputs(NODE, List.of(launcher), List.of(appliance), OPTIONS)), cluster).getFirst();
        assertThat(blocked.pods().getFirst().outcome()).isEqualTo(PodOutcome.EXTERNAL_EVACUATION);
        assertThat(blocked.blockers()).containsExactly(new Blocker("VirtualMachineInstance", "demo", "appliance",
                "eviction strategy External: the drain marks VMI appliance for evacuation and waits until something outside "
                        + "KubeVirt removes it; nothing in KubeVirt migrates it (--external-handled if that is taken care of)", Blocker.Cause.EXTERNAL));
        DrainPreview handled = DrainPreview.compute(List.of(inputs(NODE, List.of(launcher), List.of(appliance),
                OPTIONS.withExternalHandled(true))), cluster).getFirst();
        assertThat(handled.blockers()).isEmpty();
    }

    @Test
    @DisplayName("a LiveMigrate VMI that is not live-migratable is a blocker with the webhook's refusal, External handled or not")
    void notMigratable() {
        VirtualMachineInstance ledger = vmi("ledger", "LiveMigrate", false, null);
        Pod launcher = launcher("ledger");
        PlacementInputs cluster = new PlacementInputs(List.of(node(NODE), node("other")), List.of(launcher));
        for (DrainOptions options : List.of(OPTIONS, OPTIONS.withExternalHandled(true))) {
            DrainPreview preview = DrainPreview.compute(List.of(inputs(NODE, List.of(launcher), List.of(ledger), options)), cluster).getFirst();
            assertThat(preview.blocked()).isTrue();
            assertThat(preview.blockers()).singleElement().satisfies(b -> {
                assertThat(b.kind()).isEqualTo("VirtualMachineInstance");
                assertThat(b.key()).isEqualTo("demo/ledger");
                assertThat(b.cause()).isEqualTo(Blocker.Cause.NOT_MIGRATABLE);
                assertThat(b.reason()).contains("has eviction strategy LiveMigrate but is not live-migratable",
                        "every eviction is refused");
            });
        }
        assertThat(DrainRules.refusalForBlockers(DrainPreview.compute(List.of(inputs(NODE, List.of(launcher), List.of(ledger),
                OPTIONS)), cluster).getFirst(), List.of(), OPTIONS.withAllowStranded(true))).isNull();
    }

    static DrainInputs inputs(String node, List<Pod> pods, List<VirtualMachineInstance> vmis, DrainOptions options) {
        return new DrainInputs(node, pods, vmis, List.of(), List.of(), ClusterConfig.defaults(), options,
                Instant.parse("2025-01-01T00:00:00Z"));
    }

    static Node node(String name) {
        return PlacementDecisionTest.node(name);
    }

    static dev.drainboard.kubevirt.api.DomainSpec domain(String memory) {
        dev.drainboard.kubevirt.api.DomainSpec domain = new dev.drainboard.kubevirt.api.DomainSpec();
        dev.drainboard.kubevirt.api.DomainSpec.Resources resources = new dev.drainboard.kubevirt.api.DomainSpec.Resources();
        resources.setRequests(Map.of("memory", new Quantity(memory)));
        domain.setResources(resources);
        return domain;
    }

    static Pod withRequest(Pod pod, String memory) {
        pod.getSpec().getContainers().getFirst().setResources(new io.fabric8.kubernetes.api.model.ResourceRequirementsBuilder()
                .addToRequests("memory", new Quantity(memory)).build());
        return pod;
    }
}
