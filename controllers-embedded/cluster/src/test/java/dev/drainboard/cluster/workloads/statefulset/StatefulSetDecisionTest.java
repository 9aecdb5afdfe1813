package dev.drainboard.cluster.workloads.statefulset;

import static dev.drainboard.cluster.workloads.Fixtures.NOW;
import static dev.drainboard.cluster.workloads.Fixtures.tree;
import static dev.drainboard.cluster.workloads.Fixtures.yaml;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.drainboard.cluster.apiserver.Json;
import dev.drainboard.cluster.workloads.statefulset.StatefulSetDecision.Action;
import dev.drainboard.cluster.workloads.statefulset.StatefulSetDecision.CreatePod;
import dev.drainboard.cluster.workloads.statefulset.StatefulSetDecision.DeletePod;
import dev.drainboard.cluster.workloads.statefulset.StatefulSetDecision.LabelPod;
import dev.drainboard.cluster.workloads.statefulset.StatefulSetDecision.Revisions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.ArrayList;
import java.util.List;

/** {@link StatefulSetDecision}: pkg/controller/statefulset/stateful_set_control.go, case by case. */
class StatefulSetDecisionTest {

    private static final Revisions AT_A = new Revisions("db-aaa", null, "db-aaa");

    private static ObjectNode set(int replicas, String policy) {
        return yaml("""
                apiVersion: apps/v1
                kind: StatefulSet
                metadata: {name: db, namespace: ns, uid: sts-uid, generation: 3}
                spec:
                  replicas: %d
                  serviceName: db-headless
                  podManagementPolicy: %s
                  selector: {matchLabels: {app: db}}
                  updateStrategy: {type: RollingUpdate, rollingUpdate: {partition: 0}}
                  template:
                    metadata: {labels: {app: db}}
                    spec: {containers: [{name: postgres, image: "postgres:17"}]}
                """.formatted(replicas, policy));
    }

    /** A member pod: {@code state} Running (ready), Pending, Terminating (running, ready), Failed. */
    private static ObjectNode pod(int ordinal, String state, String revision) {
        String phase = state.equals("Terminating") ? "Running" : state;
        ObjectNode pod = yaml("""
                apiVersion: v1
                kind: Pod
                metadata:
                  name: db-%d
                  namespace: ns
                  uid: uid-%d
                  labels: {app: db, controller-revision-hash: %s, statefulset.kubernetes.io/pod-name: db-%d, apps.kubernetes.io/pod-index: "%d"}
                  ownerReferences: [{apiVersion: apps/v1, kind: StatefulSet, name: db, uid: sts-uid, controller: true}]
                spec: {nodeName: node01, containers: [{name: postgres, image: "postgres:17"}]}
                status: {phase: %s}
                """.formatted(ordinal, ordinal, revision, ordinal, ordinal, phase));
        if (phase.equals("Running")) {
            pod.with("status").withArray("conditions").addObject().put("type", "Ready").put("status", "True")
                    .put("lastTransitionTime", "2025-06-01T11:00:00Z");
        }
        if (state.equals("Terminating")) {
            Json.metadata(pod).put("deletionTimestamp", "2025-06-01T12:00:30Z");
        }
        return pod;
    }

    private static List<String> describe(List<Action> actions) {
        List<String> out = new ArrayList<>();
        for (Action a : actions) {
            out.add(switch (a) {
                case CreatePod c -> "create " + Json.name(c.pod());
                case DeletePod d -> "delete " + d.name() + " (" + d.why() + ")";
                case LabelPod l -> "label " + l.name() + " " + l.labels();
            });
        }
        return out;
    }

    /**
     * Pods as "ordinal:state" (state R running and ready, P pending, T terminating, F failed), separated by spaces.
     */
    @ParameterizedTest(name = "{0} replicas, {1}, pods [{2}] → {3}")
    @CsvSource(delimiter = '|', value = {
            "3 | OrderedReady | ''                | create db-0",
            "3 | Parallel     | ''                | create db-0, create db-1, create db-2",
            "3 | OrderedReady | 0:R               | create db-1",
            "3 | OrderedReady | 0:P               | ''",
            "3 | OrderedReady | 0:R 1:T 2:R       | ''",
            "3 | Parallel     | 0:R 1:T           | create db-2",
            "3 | OrderedReady | 0:R 2:R           | create db-1",
            "3 | OrderedReady | 0:R 1:F 2:R       | delete db-1 (finished)",
            "1 | OrderedReady | 0:R 1:R 2:R       | delete db-2 (scale down)",
            "1 | OrderedReady | 0:R 1:R 2:T       | ''",
            "1 | Parallel     | 0:R 1:R 2:R       | delete db-2 (scale down), delete db-1 (scale down)",
            "1 | OrderedReady | 0:P 1:R           | ''",
    })
    void podsComeAndGoInOrder(int replicas, String policy, String pods, String expected) {
        List<ObjectNode> current = new ArrayList<>();
        for (String p : pods.isBlank() ? new String[0] : pods.trim().split(" ")) {
            String[] parts = p.split(":");
            String state = switch (parts[1]) {
                case "R" -> "Running";
                case "P" -> "Pending";
                case "T" -> "Terminating";
                default -> "Failed";
            };
            current.add(pod(Integer.parseInt(parts[0]), state, "db-aaa"));
        }
        StatefulSetDecision.Result result = StatefulSetDecision.sync(set(replicas, policy), current, AT_A, NOW);
        assertThat(String.join(", ", describe(result.actions()))).isEqualTo(expected);
    }

    @Test
    void aNewPodHasItsIdentityRevisionAndClaims() {
        ObjectNode set = set(2, "OrderedReady");
        set.with("spec").withArray("volumeClaimTemplates").add(yaml("""
                metadata: {name: data, labels: {tier: storage}}
                spec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 1Gi}}}
                """));

        CreatePod create = (CreatePod) StatefulSetDecision.sync(set, List.of(), AT_A, NOW).actions().getFirst();

        ObjectNode pod = create.pod();
        assertThat(pod.path("metadata").toString()).isEqualTo(tree("""
                generateName: db-
                namespace: ns
                labels: {app: db, statefulset.kubernetes.io/pod-name: db-0, apps.kubernetes.io/pod-index: "0", controller-revision-hash: db-aaa}
                ownerReferences: [{apiVersion: apps/v1, kind: StatefulSet, name: db, uid: sts-uid, controller: true, blockOwnerDeletion: true}]
                name: db-0
                """).toString());
        assertThat(pod.path("spec").path("hostname").asText()).isEqualTo("db-0");
        assertThat(pod.path("spec").path("subdomain").asText()).isEqualTo("db-headless");
        assertThat(pod.path("spec").path("volumes").toString()).isEqualTo(tree("[{name: data, persistentVolumeClaim: {claimName: data-db-0}}]").toString());
        assertThat(create.claims()).singleElement().satisfies(claim -> {
            assertThat(Json.name(claim)).isEqualTo("data-db-0");
            assertThat(claim.path("metadata").path("labels").toString()).isEqualTo(tree("{tier: storage, app: db}").toString());
            assertThat(claim.path("spec").path("resources").path("requests").path("storage").asText()).isEqualTo("1Gi");
        });
    }

    @Test
    void aPodMissingItsIdentityLabelsGetsThem() {
        ObjectNode bare = pod(0, "Running", "db-aaa");
        ObjectNode labels = (ObjectNode) bare.path("metadata").path("labels");
        labels.remove("statefulset.kubernetes.io/pod-name");
        labels.remove("apps.kubernetes.io/pod-index");
        assertThat(describe(StatefulSetDecision.sync(set(1, "OrderedReady"), List.of(bare), AT_A, NOW).actions()))
                .containsExactly("label db-0 {statefulset.kubernetes.io/pod-name=db-0, apps.kubernetes.io/pod-index=0}");
    }

    @Test
    void aRollingUpdateReplacesTheHighestOrdinalFirstAndOnlyOnceTheOthersAreHealthy() {
        ObjectNode set = set(3, "OrderedReady");
        Revisions toB = new Revisions("db-aaa", set.path("spec").path("template"), "db-bbb");
        List<ObjectNode> atA = List.of(pod(0, "Running", "db-aaa"), pod(1, "Running", "db-aaa"), pod(2, "Running", "db-aaa"));

        StatefulSetDecision.Result first = StatefulSetDecision.sync(set, atA, toB, NOW);
        assertThat(describe(first.actions())).containsExactly("delete db-2 (update)");
        assertThat(first.status().path("currentReplicas").asInt()).isEqualTo(2);
        assertThat(first.status().path("currentRevision").asText()).isEqualTo("db-aaa");

        // db-2 is back at B but not ready yet: db-1 waits.
        List<ObjectNode> waiting = List.of(pod(0, "Running", "db-aaa"), pod(1, "Running", "db-aaa"), pod(2, "Pending", "db-bbb"));
        assertThat(StatefulSetDecision.sync(set, waiting, toB, NOW).actions()).isEmpty();

        List<ObjectNode> next = List.of(pod(0, "Running", "db-aaa"), pod(1, "Running", "db-aaa"), pod(2, "Running", "db-bbb"));
        assertThat(describe(StatefulSetDecision.sync(set, next, toB, NOW).actions())).containsExactly("delete db-1 (update)");

        List<ObjectNode> done = List.of(pod(0, "Running", "db-bbb"), pod(1, "Running", "db-bbb"), pod(2, "Running", "db-bbb"));
        StatefulSetDecision.Result complete = StatefulSetDecision.sync(set, done, toB, NOW);
        assertThat(complete.actions()).isEmpty();
        assertThat(complete.status().toString()).isEqualTo(tree("""
                {observedGeneration: 3, replicas: 3, readyReplicas: 3, currentReplicas: 3, updatedReplicas: 3,
                 currentRevision: db-bbb, updateRevision: db-bbb, collisionCount: 0, availableReplicas: 3}""").toString());
    }

    @Test
    void belowThePartitionAMissingPodComesBackAtTheCurrentRevision() {
        ObjectNode set = set(3, "OrderedReady");
        ((ObjectNode) set.path("spec").path("updateStrategy").path("rollingUpdate")).put("partition", 2);
        ObjectNode oldTemplate = set.path("spec").path("template").deepCopy();
        ((ObjectNode) oldTemplate.path("spec").path("containers").get(0)).put("image", "postgres:16");
        Revisions toB = new Revisions("db-aaa", oldTemplate, "db-bbb");

        List<ObjectNode> pods = List.of(pod(1, "Running", "db-aaa"), pod(2, "Running", "db-bbb"));
        CreatePod create = (CreatePod) StatefulSetDecision.sync(set, pods, toB, NOW).actions().getFirst();

        assertThat(Json.name(create.pod())).isEqualTo("db-0");
        assertThat(create.pod().path("metadata").path("labels").path("controller-revision-hash").asText()).isEqualTo("db-aaa");
        assertThat(create.pod().path("spec").path("containers").get(0).path("image").asText()).isEqualTo("postgres:16");

        // Healthy, all there: above the partition everything is at B already; nothing below it is touched.
        List<ObjectNode> all = List.of(pod(0, "Running", "db-aaa"), pod(1, "Running", "db-aaa"), pod(2, "Running", "db-bbb"));
        assertThat(StatefulSetDecision.sync(set, all, toB, NOW).actions()).isEmpty();
    }

    @ParameterizedTest(name = "{1} of set {0}: {2}")
    @CsvSource({
            "db, db-0, 0",
            "db, db-12, 12",
            "db, db-x, -1",
            "db, web-0, -1",
            "db, db-abc-1, -1",
            "db-abc, db-abc-1, 1",
            "db, db-, -1",
    })
    void ordinalsComeFromTheName(String set, String pod, int ordinal) {
        assertThat(StatefulSetDecision.ordinalOf(set, pod)).isEqualTo(ordinal);
    }
}
