package dev.drainboard.cluster.workloads.replicaset;

import static dev.drainboard.cluster.workloads.Fixtures.NOW;
import static dev.drainboard.cluster.workloads.Fixtures.pod;
import static dev.drainboard.cluster.workloads.Fixtures.tree;
import static dev.drainboard.cluster.workloads.Fixtures.yaml;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.drainboard.cluster.apiserver.Json;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.ArrayList;
import java.util.List;

/** {@link ReplicaSetDecision}, row by row against pkg/controller/replicaset and controller_utils.go. */
class ReplicaSetDecisionTest {

    private static ObjectNode rs(int replicas, int minReadySeconds) {
        return yaml("""
                apiVersion: apps/v1
                kind: ReplicaSet
                metadata: {name: web, namespace: ns, uid: rs-uid, generation: 2}
                spec:
                  replicas: %d
                  minReadySeconds: %d
                  selector: {matchLabels: {app: web}}
                  template: {metadata: {labels: {app: web, tier: front}}, spec: {containers: [{name: main, image: app}]}}
                """.formatted(replicas, minReadySeconds));
    }

    private static List<ObjectNode> running(int count) {
        List<ObjectNode> pods = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            pods.add(pod("p" + i, "node01", "Running", 100, 200 + i, "rs-uid"));
        }
        return pods;
    }

    @ParameterizedTest(name = "{0} wanted, {1} active: create {2}, delete {3}")
    @CsvSource({
            "3, 0, 3, 0",
            "3, 1, 2, 0",
            "3, 3, 0, 0",
            "3, 5, 0, 2",
            "0, 2, 0, 2",
            "700, 0, 500, 0",
    })
    void createsOrDeletesTheDifference(int replicas, int active, int create, int delete) {
        ReplicaSetDecision.Plan plan = ReplicaSetDecision.manage(rs(replicas, 0), running(active), List.of(), NOW);
        assertThat(plan.create()).isEqualTo(create);
        assertThat(plan.delete()).hasSize(delete);
    }

    /**
     * Two pods that differ in one respect: the one named first is deleted first. Columns: what differs, then for each
     * pod node ("" unscheduled), phase, ready since (s, -1 not ready), created (s ago), deletion cost, restarts.
     */
    @ParameterizedTest(name = "{0}")
    @CsvSource({
            "unassigned before assigned,           '',     Pending, -1, 10, 0, 0,   node02, Pending, -1, 10, 0, 0",
            "pending before running,               node01, Pending, -1, 10, 0, 0,   node02, Running, -1, 10, 0, 0",
            "unknown before running,               node01, Unknown, -1, 10, 0, 0,   node02, Running, -1, 10, 0, 0",
            "not ready before ready,               node01, Running, -1, 10, 0, 0,   node02, Running, 5,  10, 0, 0",
            "lower deletion cost first,            node01, Running, 5,  10, -5, 0,  node02, Running, 5,  10, 0, 0",
            "doubled up on a node first,           node03, Running, 5,  10, 0, 0,   node02, Running, 5,  10, 0, 0",
            "ready for less time first,            node01, Running, 10, 500, 0, 0,  node02, Running, 1000, 1000, 0, 0",
            "more restarts first,                  node01, Running, 64, 500, 0, 3,  node02, Running, 64, 500, 0, 0",
            "newer first,                          node01, Pending, -1, 10, 0, 0,   node02, Pending, -1, 5000, 0, 0",
    })
    void deletionOrderFollowsKubesRanking(String why, String nodeA, String phaseA, long readyA, long createdA, int costA, int restartsA,
                                          String nodeB, String phaseB, long readyB, long createdB, int costB, int restartsB) {
        ObjectNode a = ranked("a", nodeA, phaseA, readyA, createdA, costA, restartsA);
        ObjectNode b = ranked("b", nodeB, phaseB, readyB, createdB, costB, restartsB);
        // node03 holds two pods of the family, node01 and node02 one each.
        List<JsonNode> related = List.of(a, b, pod("other", "node03", "Running", 5, 10, "rs-uid"));
        for (List<ObjectNode> order : List.of(List.of(a, b), List.of(b, a))) {
            assertThat(ReplicaSetDecision.podsToDelete(order, related, 1, NOW)).extracting(Json::name).as(why).containsExactly("a");
        }
    }

    private static ObjectNode ranked(String name, String node, String phase, long ready, long created, int cost, int restarts) {
        ObjectNode pod = pod(name, node, phase, ready, created, "rs-uid");
        if (cost != 0) {
            Json.metadata(pod).with("annotations").put(ReplicaSetDecision.DELETION_COST, Integer.toString(cost));
        }
        pod.with("status").withArray("containerStatuses").addObject().put("name", "main").put("restartCount", restarts);
        return pod;
    }

    @Test
    void readyTimesInTheSamePowerOfTwoTieOnTheUid() {
        // 100 s and 110 s ago are both 2^46…2^47 ns old: a tie, broken by uid.
        ObjectNode b = pod("b", "node01", "Running", 100, 500, "rs-uid");
        ObjectNode a = pod("a", "node02", "Running", 110, 500, "rs-uid");
        assertThat(ReplicaSetDecision.podsToDelete(List.of(b, a), List.of(), 1, NOW)).extracting(Json::name).containsExactly("a");
    }

    @Test
    void statusCountsFullyLabelledReadyAndAvailablePodsAndLeavesZerosOut() {
        ObjectNode labelled = pod("labelled", "node01", "Running", 100, 200, "rs-uid");
        Json.metadata(labelled).with("labels").put("tier", "front");
        ObjectNode justReady = pod("just-ready", "node01", "Running", 5, 200, "rs-uid");
        ObjectNode pending = pod("pending", "", "Pending", -1, 1, "rs-uid");

        ObjectNode status = ReplicaSetDecision.status(rs(3, 30), List.of(labelled, justReady, pending), null, NOW);

        assertThat(status.toString()).isEqualTo(tree("{replicas: 3, fullyLabeledReplicas: 1, readyReplicas: 2, availableReplicas: 1, observedGeneration: 2}").toString());
        assertThat(ReplicaSetDecision.status(rs(0, 0), List.of(), null, NOW).toString()).isEqualTo(tree("{replicas: 0, observedGeneration: 2}").toString());
        assertThat(ReplicaSetDecision.nextAvailability(rs(3, 30), List.of(labelled, justReady, pending), NOW))
                .isEqualTo(NOW.plusSeconds(25));
    }

    @Test
    void aFailedCreateAddsReplicaFailureOnceAndASuccessfulSyncRemovesIt() {
        ObjectNode rs = rs(2, 0);
        ReplicaSetDecision.Failure failure = new ReplicaSetDecision.Failure("FailedCreate", "pods \"web-x\" is forbidden: quota");
        ObjectNode failed = ReplicaSetDecision.status(rs, List.of(), failure, NOW);
        assertThat(failed.path("conditions").toString()).isEqualTo(tree("""
                [{type: ReplicaFailure, status: "True", lastTransitionTime: "2025-06-01T12:00:00Z", reason: FailedCreate,
                  message: "pods \\"web-x\\" is forbidden: quota"}]
                """).toString());

        rs.set("status", failed);
        ObjectNode again = ReplicaSetDecision.status(rs, List.of(),
                new ReplicaSetDecision.Failure("FailedCreate", "another message"), NOW.plusSeconds(60));
        assertThat(again.path("conditions")).isEqualTo(failed.path("conditions"));

        rs.set("status", again);
        assertThat(ReplicaSetDecision.status(rs, List.of(), null, NOW).has("conditions")).isFalse();
    }
}
