package dev.drainboard.cluster.workloads.deployment;

import static dev.drainboard.cluster.workloads.Fixtures.NOW;
import static dev.drainboard.cluster.workloads.Fixtures.tree;
import static dev.drainboard.cluster.workloads.Fixtures.yaml;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.drainboard.cluster.apiserver.Json;
import dev.drainboard.cluster.workloads.TemplateHashes;
import dev.drainboard.cluster.workloads.deployment.DeploymentDecision.Action;
import dev.drainboard.cluster.workloads.deployment.DeploymentDecision.CreateReplicaSet;
import dev.drainboard.cluster.workloads.deployment.DeploymentDecision.DeleteReplicaSet;
import dev.drainboard.cluster.workloads.deployment.DeploymentDecision.Event;
import dev.drainboard.cluster.workloads.deployment.DeploymentDecision.UpdateReplicaSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** {@link DeploymentDecision}: one sync of pkg/controller/deployment, scenario by scenario. */
class DeploymentDecisionTest {

    private static ObjectNode deployment(int replicas, String image, String strategy) {
        return yaml("""
                apiVersion: apps/v1
                kind: Deployment
                metadata: {name: web, namespace: ns, uid: d-uid, generation: 1, annotations: {team: shop}}
                spec:
                  replicas: %d
                  selector: {matchLabels: {app: web}}
                  strategy: %s
                  revisionHistoryLimit: 10
                  progressDeadlineSeconds: 600
                  template:
                    metadata: {labels: {app: web}}
                    spec: {containers: [{name: main, image: "%s"}]}
                status: {}
                """.formatted(replicas, strategy, image));
    }

    private static final String ROLLING = "{type: RollingUpdate, rollingUpdate: {maxSurge: 25%, maxUnavailable: 25%}}";

    /** A ReplicaSet of the deployment for this image, with its own figures. */
    private static ObjectNode replicaSet(ObjectNode deployment, String image, int revision, int replicas, int available, long createdAgo) {
        ObjectNode template = (ObjectNode) deployment.path("spec").path("template").deepCopy();
        ((ObjectNode) template.path("spec").path("containers").get(0)).put("image", image);
        String hash = TemplateHashes.podTemplateHash(template, null);
        Json.metadata(template).with("labels").put("pod-template-hash", hash);
        ObjectNode rs = yaml("""
                apiVersion: apps/v1
                kind: ReplicaSet
                metadata:
                  name: web-%s
                  namespace: ns
                  uid: rs-%s
                  generation: 1
                  annotations: {team: shop, deployment.kubernetes.io/revision: "%d", deployment.kubernetes.io/desired-replicas: "%d",
                                deployment.kubernetes.io/max-replicas: "%d"}
                  ownerReferences: [{apiVersion: apps/v1, kind: Deployment, name: web, uid: d-uid, controller: true}]
                spec:
                  replicas: %d
                  selector: {matchLabels: {app: web, pod-template-hash: %s}}
                status: {replicas: %d, readyReplicas: %d, availableReplicas: %d, observedGeneration: 1}
                """.formatted(hash, image, revision, DeploymentDecision.replicas(deployment),
                DeploymentDecision.replicas(deployment) + DeploymentDecision.maxSurge(deployment),
                replicas, hash, replicas, available, available));
        rs.with("spec").set("template", template);
        Json.metadata(rs).put("creationTimestamp", Json.timestamp(NOW.minusSeconds(createdAgo)));
        return rs;
    }

    private static List<String> describe(List<Action> actions) {
        List<String> out = new ArrayList<>();
        for (Action a : actions) {
            out.add(switch (a) {
                case CreateReplicaSet c -> "create " + Json.name(c.replicaSet()) + "=" + c.replicaSet().path("spec").path("replicas").asInt();
                case UpdateReplicaSet u -> "update " + u.name() + "=" + u.replicas();
                case DeleteReplicaSet d -> "delete " + d.name();
                case Event e -> e.reason() + ": " + e.message();
            });
        }
        return out;
    }

    private static List<String> conditions(JsonNode status) {
        List<String> out = new ArrayList<>();
        status.path("conditions").forEach(c -> out.add(c.path("type").asText() + "/" + c.path("status").asText() + "/"
                + c.path("reason").asText() + ": " + c.path("message").asText()));
        return out;
    }

    @Test
    void aNewDeploymentCreatesItsFirstReplicaSetAtFullSize() {
        ObjectNode d = deployment(3, "app:v1", ROLLING);
        DeploymentDecision.Result result = DeploymentDecision.sync(d, List.of(), Map.of(), NOW);

        String hash = TemplateHashes.podTemplateHash(d.path("spec").path("template"), null);
        assertThat(describe(result.actions())).containsExactly(
                "create web-" + hash + "=3",
                "ScalingReplicaSet: Scaled up replica set web-" + hash + " from 0 to 3");
        ObjectNode rs = ((CreateReplicaSet) result.actions().getFirst()).replicaSet();
        assertThat(rs.path("metadata").path("labels").toString()).isEqualTo(tree("{app: web, pod-template-hash: " + hash + "}").toString());
        assertThat(rs.path("spec").path("selector").toString())
                .isEqualTo(tree("{matchLabels: {app: web, pod-template-hash: " + hash + "}}").toString());
        assertThat(rs.path("metadata").path("annotations").toString()).isEqualTo(tree("""
                {team: shop, deployment.kubernetes.io/revision: "1", deployment.kubernetes.io/desired-replicas: "3",
                 deployment.kubernetes.io/max-replicas: "4"}""").toString());
        assertThat(rs.path("metadata").path("ownerReferences").get(0).path("uid").asText()).isEqualTo("d-uid");
        assertThat(result.revision()).isEqualTo("1");
        assertThat(conditions(result.status())).containsExactly(
                "Progressing/True/NewReplicaSetCreated: Created new replica set \"web-" + hash + "\"",
                "Available/False/MinimumReplicasUnavailable: Deployment does not have minimum availability.");
        assertThat(result.status().path("observedGeneration").asLong()).isEqualTo(1);
        assertThat(result.status().path("unavailableReplicas").asInt()).isEqualTo(3);
    }

    @Test
    void aFullyAvailableReplicaSetCompletesTheRollout() {
        ObjectNode d = deployment(3, "app:v1", ROLLING);
        ObjectNode rs = replicaSet(d, "app:v1", 1, 3, 3, 60);
        d.set("status", yaml("""
                observedGeneration: 1
                replicas: 3
                updatedReplicas: 3
                readyReplicas: 2
                availableReplicas: 2
                unavailableReplicas: 1
                conditions:
                - {type: Available, status: "True", lastUpdateTime: "2025-06-01T11:59:00Z", lastTransitionTime: "2025-06-01T11:59:00Z",
                   reason: MinimumReplicasAvailable, message: Deployment has minimum availability.}
                - {type: Progressing, status: "True", lastUpdateTime: "2025-06-01T11:59:00Z", lastTransitionTime: "2025-06-01T11:58:00Z",
                   reason: ReplicaSetUpdated, message: "ReplicaSet \\"x\\" is progressing."}
                """));
        Json.metadata(d).with("annotations").put(DeploymentDecision.REVISION, "1");

        DeploymentDecision.Result result = DeploymentDecision.sync(d, List.of(rs), Map.of(), NOW);

        assertThat(result.actions()).isEmpty();
        assertThat(result.revision()).isNull();
        assertThat(result.status().toString()).isEqualTo(tree("""
                observedGeneration: 1
                replicas: 3
                updatedReplicas: 3
                readyReplicas: 3
                availableReplicas: 3
                conditions:
                - {type: Available, status: "True", lastUpdateTime: "2025-06-01T11:59:00Z", lastTransitionTime: "2025-06-01T11:59:00Z",
                   reason: MinimumReplicasAvailable, message: Deployment has minimum availability.}
                - {type: Progressing, status: "True", lastUpdateTime: "2025-06-01T12:00:00Z", lastTransitionTime: "2025-06-01T11:58:00Z",
                   reason: NewReplicaSetAvailable, message: "ReplicaSet \\"%s\\" has successfully progressed."}
                """.formatted(Json.name(rs))).toString());
        assertThat(DeploymentDecision.deploymentComplete(d, result.status())).isTrue();
    }

    @Test
    void aNewTemplateSurgesOneNewPodAndTakesOneOldAway() {
        ObjectNode d = deployment(4, "app:v2", ROLLING);
        ObjectNode old = replicaSet(d, "app:v1", 1, 4, 4, 600);
        Json.metadata(d).with("annotations").put(DeploymentDecision.REVISION, "1");

        DeploymentDecision.Result result = DeploymentDecision.sync(d, List.of(old), Map.of(), NOW);

        String hash = TemplateHashes.podTemplateHash(d.path("spec").path("template"), null);
        // maxSurge 25% of 4 = 1 over 4; maxUnavailable 25% of 4 = 1 below 4.
        assertThat(describe(result.actions())).containsExactly(
                "create web-" + hash + "=1",
                "ScalingReplicaSet: Scaled up replica set web-" + hash + " from 0 to 1",
                "update " + Json.name(old) + "=3",
                "ScalingReplicaSet: Scaled down replica set " + Json.name(old) + " from 4 to 3");
        assertThat(result.revision()).isEqualTo("2");
        assertThat(((CreateReplicaSet) result.actions().getFirst()).replicaSet().path("metadata").path("annotations")
                .path(DeploymentDecision.REVISION).asText()).isEqualTo("2");
    }

    @ParameterizedTest(name = "{0} replicas, maxSurge {1}, maxUnavailable {2}: surge {3}, unavailable {4}")
    @CsvSource({
            "4, 25%, 25%, 1, 1",
            "3, 25%, 25%, 1, 0",
            "1, 25%, 25%, 1, 0",
            "10, 30%, 30%, 3, 3",
            "10, 0, 0, 0, 1",
            "2, 0, 50%, 0, 1",
            "0, 25%, 25%, 0, 0",
    })
    void surgeAndUnavailabilityResolveAsKubesFenceposts(int replicas, String surge, String unavailable, int maxSurge, int maxUnavailable) {
        ObjectNode d = deployment(replicas, "app", "{type: RollingUpdate, rollingUpdate: {maxSurge: %s, maxUnavailable: %s}}"
                .formatted(surge.endsWith("%") ? "\"" + surge + "\"" : surge, unavailable.endsWith("%") ? "\"" + unavailable + "\"" : unavailable));
        assertThat(DeploymentDecision.maxSurge(d)).isEqualTo(maxSurge);
        assertThat(DeploymentDecision.maxUnavailable(d)).isEqualTo(maxUnavailable);
    }

    @Test
    void scalingTheDeploymentResizesItsOnlyActiveReplicaSet() {
        ObjectNode d = deployment(5, "app:v1", ROLLING);
        ObjectNode rs = replicaSet(deployment(3, "app:v1", ROLLING), "app:v1", 1, 3, 3, 60);
        Json.metadata(d).with("annotations").put(DeploymentDecision.REVISION, "1");

        DeploymentDecision.Result result = DeploymentDecision.sync(d, List.of(rs), Map.of(), NOW);

        assertThat(describe(result.actions())).containsExactly(
                "update " + Json.name(rs) + "=5",
                "ScalingReplicaSet: Scaled up replica set " + Json.name(rs) + " from 3 to 5");
        assertThat(((UpdateReplicaSet) result.actions().getFirst()).annotations())
                .containsEntry(DeploymentDecision.DESIRED_REPLICAS, "5").containsEntry(DeploymentDecision.MAX_REPLICAS, "7");
    }

    @Test
    void scalingInTheMiddleOfARolloutSpreadsTheNewReplicasProportionally() {
        // 10 replicas, surge 3: old 8 + new 5 = 13 = 10 + 3. Scaled to 20 (surge 6): 26 allowed, 13 to add.
        ObjectNode before = deployment(10, "app:v2", "{type: RollingUpdate, rollingUpdate: {maxSurge: 30%, maxUnavailable: 30%}}");
        ObjectNode old = replicaSet(before, "app:v1", 1, 8, 8, 600);
        ObjectNode current = replicaSet(before, "app:v2", 2, 5, 0, 60);
        ObjectNode d = deployment(20, "app:v2", "{type: RollingUpdate, rollingUpdate: {maxSurge: 30%, maxUnavailable: 30%}}");
        Json.metadata(d).with("annotations").put(DeploymentDecision.REVISION, "2");

        DeploymentDecision.Result result = DeploymentDecision.sync(d, List.of(old, current), Map.of(), NOW);

        // Each keeps its share of the new max (26) over the old one (13): 8 → 16, 5 → 10; the larger set goes first.
        assertThat(describe(result.actions())).containsExactly(
                "update " + Json.name(old) + "=16",
                "ScalingReplicaSet: Scaled up replica set " + Json.name(old) + " from 8 to 16",
                "update " + Json.name(current) + "=10",
                "ScalingReplicaSet: Scaled up replica set " + Json.name(current) + " from 5 to 10");
        assertThat(((UpdateReplicaSet) result.actions().getFirst()).annotations())
                .containsEntry(DeploymentDecision.DESIRED_REPLICAS, "20").containsEntry(DeploymentDecision.MAX_REPLICAS, "26");
    }

    @Test
    void recreateScalesTheOldReplicaSetDownAndWaitsForItsPodsBeforeCreatingTheNewOne() {
        ObjectNode d = deployment(2, "app:v2", "{type: Recreate}");
        ObjectNode old = replicaSet(d, "app:v1", 1, 2, 2, 600);
        Json.metadata(d).with("annotations").put(DeploymentDecision.REVISION, "1");

        DeploymentDecision.Result first = DeploymentDecision.sync(d, List.of(old), Map.of(), NOW);
        assertThat(describe(first.actions())).containsExactly(
                "update " + Json.name(old) + "=0",
                "ScalingReplicaSet: Scaled down replica set " + Json.name(old) + " from 2 to 0");

        // Scaled down, one pod still terminating: nothing new yet.
        old.with("spec").put("replicas", 0);
        old.with("status").put("replicas", 0);
        ObjectNode terminating = yaml("{metadata: {name: p, deletionTimestamp: \"2025-06-01T12:00:30Z\"}, status: {phase: Running}}");
        DeploymentDecision.Result waiting = DeploymentDecision.sync(d, List.of(old), Map.of("rs-app:v1", List.of(terminating)), NOW);
        assertThat(waiting.actions()).isEmpty();

        DeploymentDecision.Result gone = DeploymentDecision.sync(d, List.of(old), Map.of("rs-app:v1", List.of()), NOW);
        String hash = TemplateHashes.podTemplateHash(d.path("spec").path("template"), null);
        assertThat(describe(gone.actions())).containsExactly(
                "create web-" + hash + "=2",
                "ScalingReplicaSet: Scaled up replica set web-" + hash + " from 0 to 2");
    }

    @Test
    void noProgressForLongerThanTheDeadlineTimesTheRolloutOut() {
        ObjectNode d = deployment(2, "app:v2", ROLLING);
        ObjectNode old = replicaSet(d, "app:v1", 1, 1, 1, 3600);
        ObjectNode stuck = replicaSet(d, "app:v2", 2, 2, 0, 3600);
        Json.metadata(d).with("annotations").put(DeploymentDecision.REVISION, "2");
        d.set("status", yaml("""
                observedGeneration: 1
                replicas: 3
                updatedReplicas: 2
                readyReplicas: 1
                availableReplicas: 1
                unavailableReplicas: 2
                conditions:
                - {type: Available, status: "False", lastUpdateTime: "2025-06-01T11:00:00Z", lastTransitionTime: "2025-06-01T11:00:00Z",
                   reason: MinimumReplicasUnavailable, message: Deployment does not have minimum availability.}
                - {type: Progressing, status: "True", lastUpdateTime: "2025-06-01T11:49:00Z", lastTransitionTime: "2025-06-01T11:00:00Z",
                   reason: ReplicaSetUpdated, message: "ReplicaSet \\"x\\" is progressing."}
                """));

        DeploymentDecision.Result result = DeploymentDecision.sync(d, List.of(old, stuck), Map.of(), NOW);

        assertThat(conditions(result.status())).contains(
                "Progressing/False/ProgressDeadlineExceeded: ReplicaSet \"" + Json.name(stuck) + "\" has timed out progressing.");

        // Nine minutes after the last progress, it looks again when the deadline passes.
        ((ObjectNode) d.path("status").path("conditions").get(1)).put("lastUpdateTime", "2025-06-01T11:51:00Z");
        DeploymentDecision.Result early = DeploymentDecision.sync(d, List.of(old, stuck), Map.of(), NOW);
        assertThat(early.status()).isNull();
        assertThat(early.requeueAfter()).hasSeconds(61);
    }

    @Test
    void idleReplicaSetsBeyondTheHistoryLimitAreDeletedOldestRevisionFirst() {
        ObjectNode d = deployment(1, "app:v13", ROLLING);
        d.with("spec").put("revisionHistoryLimit", 10);
        List<ObjectNode> sets = new ArrayList<>();
        for (int revision = 1; revision <= 12; revision++) {
            sets.add(replicaSet(d, "app:v" + revision, revision, 0, 0, 10_000 - revision));
        }
        ObjectNode current = replicaSet(d, "app:v13", 13, 1, 1, 60);
        sets.add(current);
        Json.metadata(d).with("annotations").put(DeploymentDecision.REVISION, "13");
        d.set("status", yaml("{observedGeneration: 1, replicas: 1, updatedReplicas: 1, readyReplicas: 1, availableReplicas: 1}"));

        DeploymentDecision.Result result = DeploymentDecision.sync(d, sets, Map.of(), NOW);

        assertThat(describe(result.actions())).containsExactly("delete " + Json.name(sets.get(0)), "delete " + Json.name(sets.get(1)));
    }
}
