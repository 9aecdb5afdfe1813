package dev.drainboard.controller.migration;

import static org.assertj.core.api.Assertions.assertThat;

import dev.drainboard.kubevirt.api.MigrationState;
import dev.drainboard.kubevirt.api.VirtualMachineInstanceMigration;
import dev.drainboard.kubevirt.api.VirtualMachineInstanceMigrationSpec;
import dev.drainboard.kubevirt.api.VirtualMachineInstanceMigrationStatus;
import dev.drainboard.kubevirt.config.MigrationConfig;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.List;
import java.util.Map;
import java.util.Set;

@DisplayName("migration slots: what takes a slot, where it leaves from, how many are free")
class MigrationSlotsTest {

    private static final MigrationSlots.Limits DEFAULTS = MigrationSlots.Limits.of(MigrationConfig.defaults());

    static VirtualMachineInstanceMigration vmim(String vmiName, String phase) {
        VirtualMachineInstanceMigration m = new VirtualMachineInstanceMigration();
        m.setMetadata(new ObjectMetaBuilder().withNamespace("default").withName("m-" + vmiName).withUid("uid-" + vmiName).build());
        m.setSpec(new VirtualMachineInstanceMigrationSpec(vmiName));
        if (phase != null) {
            VirtualMachineInstanceMigrationStatus status = new VirtualMachineInstanceMigrationStatus();
            status.setPhase(phase);
            m.setStatus(status);
        }
        return m;
    }

    @Test
    @DisplayName("KubeVirt's defaults: 5 in the cluster, 2 from one node")
    void defaults() {
        assertThat(DEFAULTS).isEqualTo(new MigrationSlots.Limits(5, 2));
    }

    @ParameterizedTest(name = "{0} from this node, {1} elsewhere → {2} free")
    @CsvSource({
            // in flight from the node, in flight elsewhere, free
            "0, 0,  2",
            "1, 0,  1",
            "2, 0,  0",
            "0, 3,  2",
            "0, 4,  1",
            "0, 5,  0",
            "1, 3,  1",
            "1, 4,  0",
            "3, 0, -1",
            "0, 6, -1",
    })
    @DisplayName("free slots = min(5 − in flight in the cluster, 2 − in flight from the node)")
    void freeSlots(int fromNode, int elsewhere, int free) {
        assertThat(DEFAULTS.free(new MigrationSlots.InFlight(fromNode + elsewhere, fromNode))).isEqualTo(free);
    }

    @ParameterizedTest(name = "phase {0}, target pod {1} → {2}")
    @CsvSource({
            // phase (empty: none yet), target pod created, standing
            "               , false, QUEUED",
            "               , true,  STARTED",
            "Pending        , false, QUEUED",
            "Pending        , true,  STARTED",
            "Scheduling     , false, STARTED",
            "Scheduled      , false, STARTED",
            "PreparingTarget, false, STARTED",
            "TargetReady    , false, STARTED",
            "Running        , false, STARTED",
            "WaitingForSync , false, QUEUED",
            "Synchronizing  , true,  QUEUED",
            "Succeeded      , false, FINISHED",
            "Failed         , true,  FINISHED",
    })
    @DisplayName("standing: started once past Pending or with its target pod created; finished when final")
    void standing(String phase, boolean targetPod, MigrationSlots.Standing standing) {
        assertThat(MigrationSlots.standing(vmim("vm", phase), m -> targetPod)).isEqualTo(standing);
    }

    @Test
    @DisplayName("a migration about to start counts the started ones; the evacuation counts every unfinished one")
    void whatTakesASlot() {
        List<VirtualMachineInstanceMigration> all = List.of(vmim("new", null), vmim("queued", "Pending"),
                vmim("targeted", "Pending"), vmim("running", "Running"), vmim("sync", "WaitingForSync"),
                vmim("done", "Succeeded"), vmim("failed", "Failed"));
        Set<String> withTargetPod = Set.of("uid-targeted");

        assertThat(MigrationSlots.started(all, m -> withTargetPod.contains(m.getMetadata().getUid())))
                .extracting(m -> m.getSpec().getVmiName()).containsExactly("targeted", "running");
        assertThat(MigrationSlots.unfinished(all))
                .extracting(m -> m.getSpec().getVmiName()).containsExactly("new", "queued", "targeted", "running", "sync");
    }

    @Test
    @DisplayName("a migration leaves from the source node of its migration state, else from its VMI's node")
    void sourceNode() {
        Map<String, String> vmiNodes = Map.of("default/a", "node01", "default/b", "node02", "default/c", "node01");
        VirtualMachineInstanceMigration handedOff = vmim("c", "Running");
        MigrationState state = new MigrationState();
        state.setSourceNode("node03"); // c has already moved to node01: its migration left node03
        handedOff.getStatus().setMigrationState(state);
        List<VirtualMachineInstanceMigration> holding = List.of(vmim("a", "Running"), vmim("b", "Pending"), handedOff,
                vmim("unknown", "Running"));

        assertThat(MigrationSlots.sourceNode(handedOff, vmiNodes::get)).isEqualTo("node03");
        assertThat(MigrationSlots.sourceNode(vmim("unknown", "Running"), vmiNodes::get)).isNull();
        assertThat(MigrationSlots.inFlight(holding, "node01", vmiNodes::get)).isEqualTo(new MigrationSlots.InFlight(4, 1));
        assertThat(MigrationSlots.fromNode(holding, "node03", vmiNodes::get)).isEqualTo(1);
        assertThat(MigrationSlots.fromNode(holding, null, vmiNodes::get)).isZero();
    }

    /** {@code key:priority:created:node[:arrival]} separated by spaces. */
    static List<MigrationSlots.Queued> queued(String spec) {
        return java.util.Arrays.stream(spec.trim().split("\\s+"))
                .map(q -> q.split(":"))
                .map(f -> new MigrationSlots.Queued(f[0], Integer.parseInt(f[1]), f[2],
                        f.length > 4 ? Long.parseLong(f[4]) : 0, f[3]))
                .toList();
    }

    /** The turns rendered {@code key=RUNS} etc. in queue order. */
    static String turns(String queued, int started, Map<String, Integer> startedFromNode, MigrationSlots.Limits limits) {
        return String.join(" ", MigrationSlots.turns(queued(queued), started, startedFromNode, limits).stream()
                .map(t -> t.vmim().key() + "=" + t.reason()).toList());
    }

    @ParameterizedTest(name = "[{index}] {0}")
    @CsvSource(delimiter = '|', textBlock = """
            # queued (key:priority:created:node)                  | started (node:n …) | turns in queue order
            a:100:t1:n1 b:100:t2:n1 c:100:t3:n1                   | -                  | a=RUNS b=RUNS c=SOURCE_NODE_LIMIT
            low:20:t0:n1 hi:100:t9:n1 mid:50:t5:n1                | -                  | hi=RUNS mid=RUNS low=SOURCE_NODE_LIMIT
            a:100:t1:n1 b:100:t2:n1 c:100:t3:n2 d:100:t4:n2 e:0:t0:n3 f:0:t1:n3 | - | a=RUNS b=RUNS c=RUNS d=RUNS e=RUNS f=CLUSTER_LIMIT
            a:100:t1:n1 b:100:t2:n2                               | n1:2               | a=SOURCE_NODE_LIMIT b=RUNS
            a:100:t1:n1 b:100:t2:n2                               | n3:2 n4:2 n5:1     | a=CLUSTER_LIMIT b=CLUSTER_LIMIT
            b:100:t1:n1 a:100:t1:n1                               | n2:4               | a=RUNS b=CLUSTER_LIMIT
            b:100:t1:n1:1 a:100:t1:n1:2                           | n2:4               | b=RUNS a=CLUSTER_LIMIT
            a:100:t2:n1:1 b:100:t1:n1:2                           | n2:4               | b=RUNS a=CLUSTER_LIMIT
            """)
    @DisplayName("priority queue turns: by priority, then age, then arrival, then name; 5 in the cluster and 2 per source node; a full node does not hold back others")
    void turns(String queued, String started, String expected) {
        Map<String, Integer> fromNode = new java.util.HashMap<>();
        int inCluster = 0;
        if (!started.equals("-")) {
            for (String s : started.trim().split("\\s+")) {
                String[] f = s.split(":");
                fromNode.put(f[0], Integer.parseInt(f[1]));
                inCluster += Integer.parseInt(f[1]);
            }
        }
        assertThat(turns(queued, inCluster, fromNode, DEFAULTS)).isEqualTo(expected);
    }

    @Test
    @DisplayName("twelve evacuations of one node with 5/2: the first two in creation order run, the rest wait for the node")
    void twelveFromOneNode() {
        StringBuilder spec = new StringBuilder();
        for (int i = 0; i < 12; i++) {
            spec.append("m%02d:100:t%02d:n1 ".formatted(i, 11 - i)); // created in reverse name order
        }
        List<MigrationSlots.Turn> turns = MigrationSlots.turns(queued(spec.toString()), 0, Map.of(), DEFAULTS);
        assertThat(turns.stream().filter(MigrationSlots.Turn::runs).map(t -> t.vmim().key())).containsExactly("m11", "m10");
        assertThat(turns.get(5).ahead()).isEqualTo(2);
        assertThat(turns.get(5).position()).isEqualTo(5);
    }

    @Test
    @DisplayName("a freed slot re-enqueues the first parallelMigrationsPerCluster Pending VMIMs by priority")
    void nextInQueue() {
        assertThat(MigrationSlots.nextInQueue(queued("a:0:t1:n1 b:100:t5:n1 c:20:t0:n2 d:100:t2:n3 e:50:t9:n1 f:0:t0:n1"), 3))
                .containsExactly("d", "b", "e");
        assertThat(MigrationSlots.nextInQueue(queued("a:0:t1:n1"), 5)).containsExactly("a");
    }

    @ParameterizedTest(name = "[{index}] {0}")
    @CsvSource(delimiter = '|', textBlock = """
            # each node's migrations, nodes separated by spaces | in turns
            a1,a2,a3 b1,b2                                      | a1 b1 a2 b2 a3
            a1 b1,b2,b3 c1,c2                                   | a1 b1 c1 b2 c2 b3
            a1,a2                                               | a1 a2
            """)
    @DisplayName("interleaved: one of each node in turn, each node's own order kept, until every node's are out")
    void interleaved(String byNode, String expected) {
        List<List<String>> nodes = java.util.Arrays.stream(byNode.trim().split("\\s+"))
                .map(n -> List.of(n.split(","))).toList();
        assertThat(String.join(" ", MigrationSlots.interleaved(nodes))).isEqualTo(expected);
    }
}
