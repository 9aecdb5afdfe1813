package dev.drainboard.controller.evacuation;

import static org.assertj.core.api.Assertions.assertThat;

import dev.drainboard.kubevirt.KubeVirtConditions;
import dev.drainboard.kubevirt.api.Condition;
import dev.drainboard.kubevirt.api.VirtualMachineInstance;
import dev.drainboard.kubevirt.api.VirtualMachineInstanceMigration;
import dev.drainboard.kubevirt.api.VirtualMachineInstanceMigrationSpec;
import dev.drainboard.kubevirt.api.VirtualMachineInstanceSpec;
import dev.drainboard.kubevirt.api.VirtualMachineInstanceStatus;
import dev.drainboard.kubevirt.config.ClusterConfig;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

@DisplayName("evacuation decision (KubeVirt's sync, with the throttle of v1.8 and earlier)")
class EvacuationDecisionTest {

    private static final Instant NOW = Instant.parse("2025-01-01T00:00:00Z");
    private static final ClusterConfig CONFIG = ClusterConfig.defaults();

    static Node node(String name, boolean drainTaint) {
        NodeBuilder b = new NodeBuilder().withNewMetadata().withName(name).endMetadata();
        if (drainTaint) {
            b.withNewSpec().addNewTaint().withKey("kubevirt.io/drain").withEffect("NoSchedule").endTaint().endSpec();
        }
        return b.build();
    }

    static VirtualMachineInstance vmi(String name, String node, String strategy, boolean migratable, boolean marked) {
        VirtualMachineInstance vmi = new VirtualMachineInstance();
        vmi.setMetadata(new ObjectMetaBuilder().withNamespace("default").withName(name).withUid("uid-" + name).build());
        VirtualMachineInstanceSpec spec = new VirtualMachineInstanceSpec();
        spec.setEvictionStrategy(strategy);
        vmi.setSpec(spec);
        VirtualMachineInstanceStatus status = new VirtualMachineInstanceStatus();
        status.setPhase("Running");
        status.setNodeName(node);
        status.setConditions(List.of(new Condition(KubeVirtConditions.LIVE_MIGRATABLE, migratable ? "True" : "False", null, null)));
        if (marked) {
            status.setEvacuationNodeName(node);
        }
        vmi.setStatus(status);
        return vmi;
    }

    static VirtualMachineInstanceMigration vmim(String vmiName, String phase) {
        VirtualMachineInstanceMigration m = new VirtualMachineInstanceMigration();
        m.setMetadata(new ObjectMetaBuilder().withNamespace("default").withName("m-" + vmiName).withUid("m-uid-" + vmiName).build());
        m.setSpec(new VirtualMachineInstanceMigrationSpec(vmiName));
        if (phase != null) {
            var status = new dev.drainboard.kubevirt.api.VirtualMachineInstanceMigrationStatus();
            status.setPhase(phase);
            m.setStatus(status);
        }
        return m;
    }

    /** {@code marked} VMIs on node01, {@code fromHere} and {@code elsewhere} migrations in flight. */
    static EvacuationDecision.Plan decide(int marked, int fromHere, int elsewhere) {
        return decideAmongRivals(marked, fromHere, "", elsewhere);
    }

    @ParameterizedTest(name = "{0} marked, {1} from this node, {2} elsewhere → {3} created, waiting {4}")
    @CsvSource({
            // marked, in flight from here, in flight elsewhere, created, waits for a slot
            "12, 0, 0, 2, false",
            "12, 2, 0, 0, true",
            "12, 0, 5, 0, true",
            "12, 1, 3, 1, false",
            " 1, 0, 0, 1, false",
            " 0, 0, 0, 0, false",
    })
    @DisplayName("creates as many VMIMs as MigrationSlots leaves free (Pending ones in flight too), else waits for a slot")
    void freeSlots(int marked, int fromHere, int elsewhere, int created, boolean waits) {
        EvacuationDecision.Plan plan = decide(marked, fromHere, elsewhere);
        assertThat(migrated(plan)).isEqualTo(firstInNameOrder(created));
        assertThat(plan.warn()).isEmpty();
        assertThat(plan.waitForSlot()).isEqualTo(waits);
        assertThat(plan.requeueAfter()).isEqualTo(waits ? Duration.ofSeconds(5) : null);
        assertThat(plan.yieldTo()).isEmpty();
    }

    /** The VMIs a plan migrates, in order, each with the cause its VMIM will record. */
    static List<String> migrated(EvacuationDecision.Plan plan) {
        return plan.migrate().stream().map(c -> c.vmi().getMetadata().getName() + " (" + c.cause() + ")").toList();
    }

    /** The first {@code n} marked VMIs of node01 in name order, as {@link #migrated} renders them. */
    static List<String> firstInNameOrder(int n) {
        List<String> names = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            names.add("vm-%02d (API eviction)".formatted(i));
        }
        return names;
    }

    /**
     * node01 with {@code candidates} marked VMIs and {@code fromHere} migrations in flight; rivals given as
     * {@code node:candidates:inFlight} separated by spaces; {@code elsewhere} more migrations in flight from node09.
     */
    static EvacuationDecision.Plan decideAmongRivals(int candidates, int fromHere, String rivals, int elsewhere) {
        List<VirtualMachineInstance> onNode = new ArrayList<>();
        List<VirtualMachineInstanceMigration> unfinished = new ArrayList<>();
        Map<String, String> vmiNodes = new HashMap<>();
        for (int i = 0; i < candidates; i++) {
            onNode.add(vmi("vm-%02d".formatted(i), "node01", "LiveMigrate", true, true));
        }
        for (int i = 0; i < fromHere; i++) {
            onNode.add(vmi("busy-" + i, "node01", "LiveMigrate", true, true));
            unfinished.add(vmim("busy-" + i, "Running"));
            vmiNodes.put("default/busy-" + i, "node01");
        }
        List<EvacuationDecision.Rival> list = new ArrayList<>();
        for (String rival : rivals.isBlank() ? new String[0] : rivals.trim().split(" +")) {
            String[] parts = rival.split(":");
            list.add(new EvacuationDecision.Rival(parts[0], Integer.parseInt(parts[1])));
            for (int i = 0; i < Integer.parseInt(parts[2]); i++) {
                unfinished.add(vmim(parts[0] + "-busy-" + i, "Running"));
                vmiNodes.put("default/" + parts[0] + "-busy-" + i, parts[0]);
            }
        }
        for (int i = 0; i < elsewhere; i++) {
            unfinished.add(vmim("other-" + i, "Pending")); // Pending holds a slot too
            vmiNodes.put("default/other-" + i, "node09");
        }
        return EvacuationDecision.decide(new EvacuationDecision.Input(node("node01", false), onNode, unfinished, vmiNodes,
                Map.of(), CONFIG, Map.of(), NOW, list));
    }

    @ParameterizedTest(name = "node01 {0} left, {1} in flight; rivals [{2}], {3} elsewhere → starts {4}, yields to [{5}]")
    @CsvSource(delimiter = '|', value = {
            // node01 left | in flight | rivals (node:left:inFlight) | elsewhere | started | yields to
            "20 | 0 | ''                                  | 0 | 2 | ''",
            "20 | 0 | 'node02:20:0 node03:20:0 node04:20:0' | 0 | 2 | ''",
            "19 | 0 | 'node02:20:0 node03:20:0 node04:20:0' | 0 | 1 | 'node02 node03 node04'",
            "10 | 1 | 'node02:15:1 node03:12:1'             | 1 | 0 | 'node02'",
            "15 | 1 | 'node02:10:1 node03:12:1'             | 1 | 1 | ''",
            "12 | 1 | 'node02:12:1'                         | 2 | 1 | ''",
            "12 | 1 | 'node02:12:0'                         | 2 | 1 | ''",
            "12 | 1 | 'node02:12:0'                         | 3 | 0 | 'node02'",
            " 5 | 1 | 'node02:9:2'                          | 0 | 1 | ''",
            " 5 | 1 | 'node02:9:2 node03:9:1'               | 0 | 0 | 'node03'",
            " 3 | 0 | 'node02:9:1 node03:0:0'               | 0 | 2 | ''",
            " 1 | 0 | 'node02:9:0 node03:9:0 node04:9:0'    | 0 | 0 | 'node02 node03 node04'",
            " 1 | 0 | 'node02:9:0 node03:9:0'               | 0 | 1 | ''",
            " 1 | 0 | 'node02:9:1 node03:9:1 node04:9:1'    | 1 | 0 | 'node02'",
    })
    @DisplayName("fair share: free cluster slots go to the nodes with the most VMIs left, so a multi-node drain ends together")
    void fairShare(int left, int fromHere, String rivals, int elsewhere, int started, String yieldsTo) {
        EvacuationDecision.Plan plan = decideAmongRivals(left, fromHere, rivals, elsewhere);
        assertThat(migrated(plan)).isEqualTo(firstInNameOrder(started));
        assertThat(plan.warn()).isEmpty();
        assertThat(plan.yieldTo()).containsExactlyInAnyOrder(yieldsTo.isBlank() ? new String[0] : yieldsTo.split(" "));
        assertThat(plan.waitForSlot()).isEqualTo(started < Math.min(left, 2 - fromHere));
    }

    @Test
    @DisplayName("fair share over a whole drain of four nodes: every node ends within one round of the others")
    void fairShareOverAWholeDrain() {
        // Four nodes of 20 VMIs, 5 cluster slots, 2 per node; one migration ends per step, in the order they started.
        Map<String, Integer> left = new java.util.TreeMap<>(Map.of("node01", 20, "node02", 20, "node03", 20, "node04", 20));
        Map<String, Integer> inFlight = new HashMap<>(Map.of("node01", 0, "node02", 0, "node03", 0, "node04", 0));
        java.util.ArrayDeque<String> running = new java.util.ArrayDeque<>();
        Map<String, Integer> lastStep = new HashMap<>();
        for (int step = 0; step < 1000 && (running.size() > 0 || left.values().stream().anyMatch(n -> n > 0)); step++) {
            // Every node gets a pass in name order, as slotFreed would queue them.
            for (String node : left.keySet()) {
                List<EvacuationDecision.Claim> claims = new ArrayList<>();
                for (String n : left.keySet()) {
                    claims.add(new EvacuationDecision.Claim(n, left.get(n), inFlight.get(n), 2));
                }
                EvacuationDecision.shareOut(claims, 5 - running.size());
                int given = claims.stream().filter(c -> c.node.equals(node)).findFirst().orElseThrow().given;
                for (int i = 0; i < given; i++) {
                    left.merge(node, -1, Integer::sum);
                    inFlight.merge(node, 1, Integer::sum);
                    running.add(node);
                }
            }
            assertThat(running.size()).isLessThanOrEqualTo(5);
            assertThat(inFlight.values()).allSatisfy(n -> assertThat(n).isLessThanOrEqualTo(2));
            if (left.values().stream().anyMatch(n -> n > 0)) {
                assertThat(running).as("step %d: every slot is used while VMIs wait", step).hasSize(5);
            }
            String done = running.poll();
            if (done != null) {
                inFlight.merge(done, -1, Integer::sum);
                lastStep.put(done, step);
            }
        }
        int first = lastStep.values().stream().mapToInt(Integer::intValue).min().orElseThrow();
        int last = lastStep.values().stream().mapToInt(Integer::intValue).max().orElseThrow();
        assertThat(last - first).as("steps between the first and the last node finishing: %s", lastStep).isLessThanOrEqualTo(5);
    }

    @ParameterizedTest(name = "{0}, migratable {1}, marked {2}, tainted {3} → migrate {4}, warn {5}")
    @CsvSource({
            // strategy, LiveMigratable, marked, drain taint, migrated, warned
            "LiveMigrate,           true,  true,  false, true,  false",
            "LiveMigrate,           false, true,  false, false, true",
            "LiveMigrateIfPossible, true,  true,  false, true,  false",
            "LiveMigrateIfPossible, false, true,  false, false, false",
            "External,              true,  true,  false, false, false",
            "None,                  true,  true,  false, false, false",
            "LiveMigrate,           true,  false, false, false, false",
            "LiveMigrate,           true,  false, true,  true,  false",
            "None,                  true,  false, true,  false, false",
    })
    @DisplayName("candidates: marked or under the drain taint; migratable on eviction; warned when LiveMigrate cannot move")
    void candidates(String strategy, boolean migratable, boolean marked, boolean tainted, boolean migrated, boolean warned) {
        VirtualMachineInstance vmi = vmi("vm", "node01", strategy, migratable, marked);
        EvacuationDecision.Plan plan = EvacuationDecision.decide(new EvacuationDecision.Input(node("node01", tainted),
                List.of(vmi), List.of(), Map.of(), Map.of(), CONFIG, Map.of(), NOW));
        assertThat(migrated(plan)).isEqualTo(migrated ? List.of("vm (" + (marked ? "API eviction" : "node drain taint") + ")") : List.of());
        assertThat(plan.warn()).extracting(v -> v.getMetadata().getName()).isEqualTo(warned ? List.of("vm") : List.of());
        assertThat(plan.waitForSlot()).isFalse();
        assertThat(plan.requeueAfter()).as("a warned VMI is looked at again in a minute").isEqualTo(warned ? Duration.ofMinutes(1) : null);
    }

    @Test
    @DisplayName("a VMI with an unfinished VMIM, or with two active pods, is not migrated again")
    void alreadyMigrating() {
        VirtualMachineInstance a = vmi("a", "node01", "LiveMigrate", true, true);
        VirtualMachineInstance b = vmi("b", "node01", "LiveMigrate", true, true);
        VirtualMachineInstance c = vmi("c", "node01", "LiveMigrate", true, true);
        EvacuationDecision.Plan plan = EvacuationDecision.decide(new EvacuationDecision.Input(node("node01", false),
                List.of(a, b, c), List.of(vmim("a", "Running")), Map.of("default/a", "node01"),
                Map.of("default/b", 2), CONFIG, Map.of(), NOW));
        assertThat(plan.migrate()).extracting(cand -> cand.vmi().getMetadata().getName()).containsExactly("c");
    }

    @Test
    @DisplayName("the not-migrateable warning is refreshed once a minute, not on every pass")
    void warningOncePerMinute() {
        VirtualMachineInstance vmi = vmi("stuck", "node01", "LiveMigrate", false, true);
        var recently = Map.of("default/stuck", NOW.minusSeconds(30));
        var longAgo = Map.of("default/stuck", NOW.minusSeconds(61));
        assertThat(EvacuationDecision.decide(new EvacuationDecision.Input(node("node01", false), List.of(vmi), List.of(),
                Map.of(), Map.of(), CONFIG, recently, NOW)).warn()).isEmpty();
        EvacuationDecision.Plan plan = EvacuationDecision.decide(new EvacuationDecision.Input(node("node01", false), List.of(vmi),
                List.of(), Map.of(), Map.of(), CONFIG, longAgo, NOW));
        assertThat(plan.warn()).hasSize(1);
        assertThat(plan.requeueAfter()).isEqualTo(Duration.ofMinutes(1));
    }

    @Test
    @DisplayName("the VMIM: generateName, evacuation annotation, cause, vmi-name label, finalizer, priority")
    void newMigration() {
        VirtualMachineInstanceMigration m = EvacuationController.newMigration(vmi("vm", "node01", "LiveMigrate", true, true),
                "node01", "API eviction", true);
        assertThat(m.getMetadata().getGenerateName()).isEqualTo("kubevirt-evacuation-");
        assertThat(m.getMetadata().getAnnotations()).containsEntry("kubevirt.io/evacuationMigration", "node01")
                .containsEntry("drainboard.dev/migration-cause", "API eviction");
        assertThat(m.getMetadata().getLabels()).containsEntry("kubevirt.io/vmi-name", "vm");
        assertThat(m.getMetadata().getFinalizers()).containsExactly("kubevirt.io/migrationJobFinalize");
        assertThat(m.getSpec().getVmiName()).isEqualTo("vm");
        assertThat(m.getSpec().getPriority()).isEqualTo("system-critical");
    }

    @Test
    @DisplayName("an evacuation the descheduler's eviction started: cause and priority say so")
    void deschedulerEvacuation() {
        VirtualMachineInstance vmi = vmi("vm", "node01", "LiveMigrate", true, true);
        vmi.getMetadata().setAnnotations(Map.of("kubevirt.io/eviction-source", "descheduler"));
        assertThat(EvacuationDecision.cause(vmi, false)).isEqualTo("descheduler eviction");
        assertThat(EvacuationController.newMigration(vmi, "node01", "descheduler eviction", true).getSpec().getPriority())
                .isEqualTo("system-maintenance");
    }

    @Test
    @DisplayName("without the priority queue the VMIM has no priority (KubeVirt ≤ 1.8 with the gate off)")
    void noPriorityWithoutTheQueue() {
        VirtualMachineInstance vmi = vmi("vm", "node01", "LiveMigrate", true, true);
        assertThat(EvacuationController.newMigration(vmi, "node01", "API eviction", false).getSpec().getPriority()).isNull();
        vmi.getMetadata().setAnnotations(Map.of("kubevirt.io/eviction-source", "descheduler"));
        assertThat(EvacuationController.newMigration(vmi, "node01", "descheduler eviction", false).getSpec().getPriority()).isNull();
    }

    static ClusterConfig profile(dev.drainboard.kubevirt.KubeVirtProfile profile, boolean gate) {
        return new ClusterConfig(dev.drainboard.kubevirt.api.EvictionStrategy.NONE, dev.drainboard.kubevirt.config.MigrationConfig.defaults(),
                gate ? java.util.Set.of("MigrationPriorityQueue") : java.util.Set.of(), java.util.Optional.empty()).withProfile(profile);
    }

    @ParameterizedTest(name = "{0}, gate {1}: 12 marked, {2} from here, {3} elsewhere → {4} created")
    @CsvSource({
            // profile, gate, in flight from here, elsewhere, created
            "V1_9,  false, 0, 0, 12",
            "V1_9,  false, 2, 5, 12",
            "V1_7,  true,  2, 5, 12",
            "V1_7,  false, 0, 0,  2",
            "V1_7,  false, 2, 0,  0",
            "SEEDS, true,  0, 0,  2",
    })
    @DisplayName("with the priority queue on, no throttle: a VMIM for every candidate at once, whatever is in flight")
    void priorityQueueCreatesAll(dev.drainboard.kubevirt.KubeVirtProfile profile, boolean gate, int fromHere, int elsewhere, int created) {
        List<VirtualMachineInstance> onNode = new ArrayList<>();
        List<VirtualMachineInstanceMigration> unfinished = new ArrayList<>();
        Map<String, String> vmiNodes = new HashMap<>();
        for (int i = 0; i < 12 + fromHere; i++) {
            String name = "vm-%02d".formatted(i);
            onNode.add(vmi(name, "node01", "LiveMigrate", true, true));
            vmiNodes.put("default/" + name, "node01");
        }
        for (int i = 12; i < 12 + fromHere; i++) {
            unfinished.add(vmim("vm-%02d".formatted(i), "Running"));
        }
        for (int i = 0; i < elsewhere; i++) {
            unfinished.add(vmim("other-" + i, "Running"));
            vmiNodes.put("default/other-" + i, "node09");
        }
        VirtualMachineInstance stuck = vmi("stuck", "node01", "LiveMigrate", false, true);
        onNode.add(stuck);
        EvacuationDecision.Plan plan = EvacuationDecision.decide(new EvacuationDecision.Input(node("node01", false), onNode,
                unfinished, vmiNodes, Map.of(), profile(profile, gate), Map.of(), NOW));
        assertThat(migrated(plan)).isEqualTo(firstInNameOrder(created));
        boolean queue = created == 12;
        assertThat(plan.waitForSlot()).as("waits only when the throttle leaves no slot").isEqualTo(created == 0);
        if (queue) {
            assertThat(plan.warn()).as("the queue path records no \"not migrateable\" warning").isEmpty();
            assertThat(plan.requeueAfter()).isNull();
        }
    }

    @ParameterizedTest(name = "marked={0}, node tainted={1}, node known={2} → {3}")
    @CsvSource({
            "false, false, true,  false",
            "false, true,  true,  true",
            "true,  false, true,  true",
            "true,  false, false, true",
            "false, false, false, false",
    })
    @DisplayName("a VMI change concerns its node's pass only when the VMI is marked or the node carries the drain taint")
    void whichVmiChangesConcernEvacuation(boolean marked, boolean tainted, boolean known, boolean concerns) {
        VirtualMachineInstance vmi = vmi("vm", "node-1", "LiveMigrate", true, marked);
        Node node = known ? node("node-1", tainted) : null;
        assertThat(EvacuationDecision.concernsEvacuation(vmi, node, CONFIG.migrations().nodeDrainTaintKey())).isEqualTo(concerns);
    }
}
