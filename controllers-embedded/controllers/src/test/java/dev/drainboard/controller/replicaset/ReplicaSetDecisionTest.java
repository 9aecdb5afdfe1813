package dev.drainboard.controller.replicaset;

import static dev.drainboard.controller.replicaset.ReplicaSets.deleting;
import static dev.drainboard.controller.replicaset.ReplicaSets.labels;
import static dev.drainboard.controller.replicaset.ReplicaSets.names;
import static dev.drainboard.controller.replicaset.ReplicaSets.orphan;
import static dev.drainboard.controller.replicaset.ReplicaSets.ownedBy;
import static dev.drainboard.controller.replicaset.ReplicaSets.podTerminating;
import static dev.drainboard.controller.replicaset.ReplicaSets.rs;
import static dev.drainboard.controller.replicaset.ReplicaSets.running;
import static dev.drainboard.controller.replicaset.ReplicaSets.selector;
import static dev.drainboard.controller.replicaset.ReplicaSets.vmi;
import static org.assertj.core.api.Assertions.assertThat;

import dev.drainboard.kubevirt.api.VirtualMachineInstance;
import dev.drainboard.kubevirt.api.VirtualMachineInstanceReplicaSet;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** The replica set's decision, row by row: claims, counts, how many to create or delete, and when not to scale. */
class ReplicaSetDecisionTest {

    private static final int BURST = 250;

    @ParameterizedTest(name = "[{index}] want {0}; ready {1}, not ready {2}, deleting {3}, finished {4}, terminating {5}, "
            + "orphans {6}, foreign {7}, relabelled {8}; caught up {9}, paused {10}, set deleting {11}")
    @CsvSource(nullValues = "-", value = {
            // want ready notReady deleting finished terminating orphans foreign relabel caughtUp paused rsDel | scaling create delete cleanup adopt release active readyCount
            "3,    0,    0,       0,       0,       0,          0,      0,      0,      true,    false, false, true,   3,     0,     0,      0,    0,      0,     0",
            "3,    3,    0,       0,       0,       0,          0,      0,      0,      true,    false, false, true,   0,     0,     0,      0,    0,      3,     3",
            "3,    5,    0,       0,       0,       0,          0,      0,      0,      true,    false, false, true,   0,     2,     0,      0,    0,      5,     5",
            "3,    2,    1,       0,       0,       0,          0,      0,      0,      true,    false, false, true,   0,     0,     0,      0,    0,      3,     2",
            "0,    2,    1,       0,       0,       0,          0,      0,      0,      true,    false, false, true,   0,     3,     0,      0,    0,      3,     2",
            // graceful delete: VMIs shutting down do not count, so replacements start at once
            "3,    2,    0,       2,       0,       0,          0,      0,      0,      true,    false, false, true,   1,     0,     0,      0,    0,      2,     2",
            // finished VMIs do not count and are cleaned up; terminating launcher pods count as finished
            "3,    3,    0,       0,       2,       1,          0,      0,      0,      true,    false, false, true,   0,     0,     3,      0,    0,      3,     3",
            "3,    1,    0,       0,       1,       0,          0,      0,      0,      true,    false, false, true,   2,     0,     1,      0,    0,      1,     1",
            // orphans that match are adopted and count; VMIs of another controller never
            "3,    1,    0,       0,       0,       0,          2,      0,      0,      true,    false, false, true,   0,     0,     0,      2,    0,      3,     3",
            "3,    1,    0,       0,       0,       0,          0,      2,      0,      true,    false, false, true,   2,     0,     0,      0,    0,      1,     1",
            // relabelled VMIs are released and replaced
            "3,    2,    0,       0,       0,       0,          0,      0,      1,      true,    false, false, true,   1,     0,     0,      0,    1,      2,     2",
            // caches not caught up: no scaling, claims and status still
            "3,    1,    0,       0,       0,       0,          1,      0,      1,      false,   false, false, false,  0,     0,     0,      1,    1,      2,     2",
            // paused: no scaling and no cleanup, but adoption and release
            "5,    1,    0,       0,       1,       0,          1,      0,      1,      true,    true,  false, false,  0,     0,     0,      1,    1,      2,     2",
            "0,    3,    0,       0,       0,       0,          0,      0,      0,      true,    true,  false, false,  0,     0,     0,      0,    0,      3,     3",
            // the set is being deleted: nothing adopted, nothing scaled (the garbage collector takes the VMIs)
            "3,    1,    0,       0,       0,       0,          2,      0,      0,      true,    false, true,  false,  0,     0,     0,      0,    0,      1,     1",
    })
    void table(int want, int ready, int notReady, int deletingCount, int finished, int terminating, int orphans, int foreign,
               int relabelled, boolean caughtUp, boolean paused, boolean rsDeleting,
               boolean scaling, int create, int delete, int cleanup, int adopt, int release, int active, int readyCount) {
        VirtualMachineInstanceReplicaSet rs = rs(want);
        rs.getSpec().setPaused(paused);
        if (rsDeleting) {
            rs.getMetadata().setDeletionTimestamp("2025-01-01T03:00:00Z");
        }
        List<VirtualMachineInstance> vmis = new ArrayList<>();
        for (int i = 0; i < ready; i++) {
            vmis.add(running("ready-" + i));
        }
        for (int i = 0; i < notReady; i++) {
            vmis.add(vmi("booting-" + i, "Scheduled", false));
        }
        for (int i = 0; i < deletingCount; i++) {
            vmis.add(deleting(running("deleting-" + i)));
        }
        for (int i = 0; i < finished; i++) {
            vmis.add(vmi("finished-" + i, "Failed", false));
        }
        for (int i = 0; i < terminating; i++) {
            vmis.add(podTerminating(running("terminating-" + i)));
        }
        for (int i = 0; i < orphans; i++) {
            vmis.add(orphan(running("orphan-" + i)));
        }
        for (int i = 0; i < foreign; i++) {
            vmis.add(ownedBy(running("foreign-" + i), "VirtualMachine", "vm-uid-" + i));
        }
        for (int i = 0; i < relabelled; i++) {
            vmis.add(labels(running("relabelled-" + i), Map.of("app", "debugging")));
        }
        vmis.add(orphan(labels(running("unrelated"), Map.of("app", "db"))));

        ReplicaSetPlan plan = ReplicaSetDecision.decide(rs, selector(rs), vmis, caughtUp, BURST);

        assertThat(plan.scaling()).as("scaling").isEqualTo(scaling);
        assertThat(plan.create()).as("create").isEqualTo(create);
        assertThat(plan.delete()).as("delete").hasSize(delete);
        assertThat(plan.cleanup()).as("cleanup").hasSize(cleanup);
        assertThat(plan.adopt()).as("adopt").hasSize(adopt);
        assertThat(names(plan.adopt())).allMatch(n -> n.startsWith("orphan-"));
        assertThat(plan.release()).as("release").hasSize(release);
        assertThat(names(plan.release())).allMatch(n -> n.startsWith("relabelled-"));
        assertThat(plan.active()).as("status.replicas").isEqualTo(active);
        assertThat(plan.ready()).as("status.readyReplicas").isEqualTo(readyCount);
        assertThat(plan.labelSelector()).isEqualTo("app=web");
    }

    @Test
    @DisplayName("scale down deletes not-ready VMIs before ready ones")
    void scaleDownPicksNotReadyFirst() {
        List<VirtualMachineInstance> vmis = List.of(running("a"), vmi("b", "Running", false), running("c"));
        ReplicaSetPlan plan = ReplicaSetDecision.decide(rs(2), selector(rs(2)), vmis, true, BURST);
        assertThat(names(plan.delete())).containsExactly("b");
    }

    @Test
    @DisplayName("at most 250 creates or deletes per pass")
    void burst() {
        assertThat(ReplicaSetDecision.decide(rs(600), selector(rs(600)), List.of(), true, BURST).create()).isEqualTo(250);
        List<VirtualMachineInstance> many = new ArrayList<>();
        for (int i = 0; i < 300; i++) {
            many.add(running("vmi-" + i));
        }
        ReplicaSetPlan down = ReplicaSetDecision.decide(rs(0), selector(rs(0)), many, true, BURST);
        assertThat(down.delete()).hasSize(250);
        assertThat(down.active()).isEqualTo(300);
    }

    @Test
    @DisplayName("no spec.replicas means 1, as in KubeVirt")
    void replicasDefaultToOne() {
        ReplicaSetPlan plan = ReplicaSetDecision.decide(rs(null), selector(rs(null)), List.of(), true, BURST);
        assertThat(plan.wanted()).isEqualTo(1);
        assertThat(plan.create()).isEqualTo(1);
    }

    @Test
    @DisplayName("a VMI controlled by an earlier set of the same name (other uid) is not this set's")
    void sameNameOtherUid() {
        VirtualMachineInstance stale = ownedBy(running("stale"), "VirtualMachineInstanceReplicaSet", "old-uid");
        ReplicaSetPlan plan = ReplicaSetDecision.decide(rs(1), selector(rs(1)), List.of(stale), true, BURST);
        assertThat(plan.active()).isZero();
        assertThat(plan.adopt()).isEmpty();
        assertThat(plan.create()).isEqualTo(1);
    }

    @Test
    @DisplayName("an orphan being deleted is not adopted")
    void deletingOrphan() {
        ReplicaSetPlan plan = ReplicaSetDecision.decide(rs(1), selector(rs(1)), List.of(deleting(orphan(running("o")))), true, BURST);
        assertThat(plan.adopt()).isEmpty();
        assertThat(plan.create()).isEqualTo(1);
    }
}
