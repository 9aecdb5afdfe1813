package dev.drainboard.cluster.workloads.daemonset;

import static dev.drainboard.cluster.workloads.Fixtures.NOW;
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
import java.util.Map;
import java.util.Set;

/** {@link DaemonSetDecision}: pkg/controller/daemon, row by row. */
class DaemonSetDecisionTest {

    private static ObjectNode ds(String strategy) {
        return yaml("""
                apiVersion: apps/v1
                kind: DaemonSet
                metadata: {name: agent, namespace: ns, uid: ds-uid, generation: 2, annotations: {deprecated.daemonset.template.generation: "2"}}
                spec:
                  selector: {matchLabels: {app: agent}}
                  updateStrategy: %s
                  template:
                    metadata: {labels: {app: agent}}
                    spec:
                      nodeSelector: {role: worker}
                      tolerations: [{key: dedicated, operator: Equal, value: infra, effect: NoSchedule}]
                      containers: [{name: agent, image: "agent:2"}]
                """.formatted(strategy));
    }

    private static final String ONE_UNAVAILABLE = "{type: RollingUpdate, rollingUpdate: {maxUnavailable: 1, maxSurge: 0}}";

    private static ObjectNode node(String name, String taints, boolean worker) {
        ObjectNode node = yaml("{apiVersion: v1, kind: Node, metadata: {name: %s, labels: {kubernetes.io/hostname: %s}}, spec: {taints: %s}}"
                .formatted(name, name, taints));
        if (worker) {
            Json.metadata(node).with("labels").put("role", "worker");
        }
        return node;
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "a worker                                   | []                                                        | true  | true  | true",
            "not a worker (node selector)               | []                                                        | false | false | false",
            "cordoned (the unschedulable taint)          | [{key: node.kubernetes.io/unschedulable, effect: NoSchedule}] | true | true | true",
            "not ready (NoExecute, tolerated)           | [{key: node.kubernetes.io/not-ready, effect: NoExecute}]   | true  | true  | true",
            "memory pressure (tolerated)                | [{key: node.kubernetes.io/memory-pressure, effect: NoSchedule}] | true | true | true",
            "a tolerated custom taint                   | [{key: dedicated, value: infra, effect: NoSchedule}]       | true  | true  | true",
            "an untolerated NoSchedule taint            | [{key: gpu, value: 'yes', effect: NoSchedule}]             | true  | false | true",
            "an untolerated NoExecute taint             | [{key: gpu, value: 'yes', effect: NoExecute}]              | true  | false | false",
            "an untolerated PreferNoSchedule taint      | [{key: gpu, value: 'yes', effect: PreferNoSchedule}]       | true  | true  | true",
    })
    void whereDaemonPodsRun(String why, String taints, boolean worker, boolean shouldRun, boolean shouldContinueRunning) {
        DaemonSetDecision.Fit fit = DaemonSetDecision.fit(ds(ONE_UNAVAILABLE), node("n", taints, worker));
        assertThat(fit).as(why).isEqualTo(new DaemonSetDecision.Fit(shouldRun, shouldContinueRunning));
    }

    @Test
    void aDaemonPodIsPinnedToItsNodeByAffinityAndToleratesNodeProblems() {
        ObjectNode ds = ds(ONE_UNAVAILABLE);
        ((ObjectNode) ds.path("spec").path("template").path("spec")).put("hostNetwork", true);
        ((ObjectNode) ds.path("spec").path("template").path("spec")).set("affinity", yaml("""
                nodeAffinity:
                  requiredDuringSchedulingIgnoredDuringExecution:
                    nodeSelectorTerms: [{matchExpressions: [{key: role, operator: In, values: [worker]}]}]
                """));

        ObjectNode pod = DaemonSetDecision.podFor(ds, "5d8f7c9b4", "node02");

        assertThat(pod.path("metadata").path("generateName").asText()).isEqualTo("agent-");
        assertThat(pod.path("metadata").path("labels").toString())
                .isEqualTo(tree("{app: agent, pod-template-generation: '2', controller-revision-hash: 5d8f7c9b4}").toString());
        assertThat(pod.path("spec").path("affinity").toString()).isEqualTo(tree("""
                nodeAffinity:
                  requiredDuringSchedulingIgnoredDuringExecution:
                    nodeSelectorTerms: [{matchFields: [{key: metadata.name, operator: In, values: [node02]}]}]
                """).toString());
        List<String> tolerations = new ArrayList<>();
        pod.path("spec").path("tolerations").forEach(t -> tolerations.add(t.path("key").asText() + ":" + t.path("effect").asText()));
        assertThat(tolerations).containsExactly("dedicated:NoSchedule", "node.kubernetes.io/not-ready:NoExecute",
                "node.kubernetes.io/unreachable:NoExecute", "node.kubernetes.io/disk-pressure:NoSchedule",
                "node.kubernetes.io/memory-pressure:NoSchedule", "node.kubernetes.io/pid-pressure:NoSchedule",
                "node.kubernetes.io/unschedulable:NoSchedule", "node.kubernetes.io/network-unavailable:NoSchedule");
        assertThat(DaemonSetDecision.targetNode(pod)).isEqualTo("node02");
        // Adding them again changes nothing.
        assertThat(DaemonSetDecision.withDaemonTolerations(pod.path("spec"))).hasSize(8);
    }

    /** A daemon pod on a node: state R running and ready (at the current generation), O running at an old one, T terminating, F failed, S succeeded, U unbound. */
    private static ObjectNode pod(String name, String node, char state, long createdAgo) {
        ObjectNode pod = yaml("""
                apiVersion: v1
                kind: Pod
                metadata:
                  name: %s
                  namespace: ns
                  labels: {app: agent, pod-template-generation: "%s"}
                  ownerReferences: [{apiVersion: apps/v1, kind: DaemonSet, name: agent, uid: ds-uid, controller: true}]
                spec: {nodeName: %s, containers: [{name: agent, image: "agent:2"}]}
                status: {phase: %s}
                """.formatted(name, state == 'O' ? "1" : "2", node,
                switch (state) {
                    case 'F' -> "Failed";
                    case 'S' -> "Succeeded";
                    case 'U' -> "Pending";
                    default -> "Running";
                }));
        Json.metadata(pod).put("creationTimestamp", Json.timestamp(NOW.minusSeconds(createdAgo)));
        if (state == 'R' || state == 'O' || state == 'T') {
            pod.with("status").withArray("conditions").addObject().put("type", "Ready").put("status", "True")
                    .put("lastTransitionTime", "2025-06-01T11:00:00Z");
        }
        if (state == 'T') {
            Json.metadata(pod).put("deletionTimestamp", "2025-06-01T12:00:30Z");
        }
        if (state == 'U') {
            ((ObjectNode) pod.path("spec")).remove("nodeName");
            ((ObjectNode) pod.path("spec")).set("affinity", DaemonSetDecision.podFor(ds(ONE_UNAVAILABLE), "", node).path("spec").path("affinity"));
        }
        return pod;
    }

    /** Pods as "node:state…" per node, e.g. {@code w1:R w2:RR w3:}; w* are workers, x* are not. */
    private static Map<String, List<ObjectNode>> pods(String spec) {
        List<ObjectNode> all = new ArrayList<>();
        for (String entry : spec.trim().split(" ")) {
            String[] parts = entry.split(":", -1);
            String states = parts[1];
            for (int i = 0; i < states.length(); i++) {
                all.add(pod("agent-" + parts[0] + "-" + i, parts[0], states.charAt(i), 100 - i));
            }
        }
        return DaemonSetDecision.byNode(all);
    }

    private static List<JsonNode> nodes(String spec) {
        List<JsonNode> nodes = new ArrayList<>();
        for (String entry : spec.trim().split(" ")) {
            String name = entry.split(":")[0];
            if (!name.startsWith("gone")) {
                nodes.add(node(name, "[]", name.startsWith("w")));
            }
        }
        return nodes;
    }

    @ParameterizedTest(name = "{0} → create on [{1}], delete [{2}]")
    @CsvSource(delimiter = '|', value = {
            "w1:R w2: w3:R         | w2 | ''",
            "w1:R w2:T             | '' | ''",
            "w1:R w2:F             | '' | agent-w2-0",
            "w1:R w2:S             | '' | agent-w2-0",
            "w1:RR                 | '' | agent-w1-1",
            "w1:R x1:R             | '' | agent-x1-0",
            "w1:R gone1:U          | '' | agent-gone1-0",
            "w1:U                  | '' | ''",
    })
    void oneDaemonPodPerNodeThatShouldRunIt(String layout, String create, String delete) {
        DaemonSetDecision.Plan plan = DaemonSetDecision.manage(ds(ONE_UNAVAILABLE), nodes(layout), pods(layout), "hash", NOW, Set.of());
        assertThat(String.join(",", plan.createOn())).isEqualTo(create);
        assertThat(String.join(",", plan.delete())).isEqualTo(delete);
    }

    @Test
    void aFailedPodIsDeletedWithAnEventOrWaitsForItsNodesBackoff() {
        String layout = "w1:R w2:F";
        DaemonSetDecision.Plan plan = DaemonSetDecision.manage(ds(ONE_UNAVAILABLE), nodes(layout), pods(layout), "hash", NOW, Set.of());
        assertThat(plan.events()).containsExactly(new DaemonSetDecision.Event("Warning", "FailedDaemonPod",
                "Found failed daemon pod ns/agent-w2-0 on node w2, will try to kill it"));
        assertThat(plan.failedOn()).containsExactly("w2");

        DaemonSetDecision.Plan later = DaemonSetDecision.manage(ds(ONE_UNAVAILABLE), nodes(layout), pods(layout), "hash", NOW, Set.of("w2"));
        assertThat(later.delete()).isEmpty();
        assertThat(later.backingOff()).isTrue();
    }

    @ParameterizedTest(name = "{0} with {1} → create on [{2}], delete [{3}]")
    @CsvSource(delimiter = '|', value = {
            "w1:O w2:O w3:O | " + ONE_UNAVAILABLE + "                                               | '' | agent-w1-0",
            "w1:R w2:O w3:O | {type: RollingUpdate, rollingUpdate: {maxUnavailable: 2, maxSurge: 0}} | '' | agent-w2-0,agent-w3-0",
            "w1:U w2:O w3:O | " + ONE_UNAVAILABLE + "                                               | '' | ''",
            "w1: w2:O w3:O  | " + ONE_UNAVAILABLE + "                                               | '' | ''",
            "w1:R w2:R w3:R | " + ONE_UNAVAILABLE + "                                               | '' | ''",
            "w1:O w2:O w3:O | {type: RollingUpdate, rollingUpdate: {maxUnavailable: 0, maxSurge: 1}} | w1 | ''",
            "w1:OR w2:O     | {type: RollingUpdate, rollingUpdate: {maxUnavailable: 0, maxSurge: 1}} | w2 | agent-w1-0",
            "w1:OU w2:O     | {type: RollingUpdate, rollingUpdate: {maxUnavailable: 0, maxSurge: 1}} | '' | ''",
            "w1:O w2:O      | {type: OnDelete}                                                       | '' | ''",
    })
    void rollingUpdatesReplaceOldPodsWithinTheBudget(String layout, String strategy, String create, String delete) {
        ObjectNode ds = ds(strategy);
        DaemonSetDecision.Plan plan = strategy.contains("OnDelete")
                ? new DaemonSetDecision.Plan(List.of(), List.of(), List.of(), List.of(), false)
                : DaemonSetDecision.rollingUpdate(ds, nodes(layout), pods(layout), "hash", NOW);
        assertThat(String.join(",", plan.createOn())).isEqualTo(create);
        assertThat(String.join(",", plan.delete())).isEqualTo(delete);
    }

    @Test
    void statusCountsPerNodeAndLeavesZerosOut() {
        String layout = "w1:R w2:O w3: x1:R";
        ObjectNode status = DaemonSetDecision.status(ds(ONE_UNAVAILABLE), nodes(layout), pods(layout), "hash", NOW, true);
        assertThat(status.toString()).isEqualTo(tree("""
                {currentNumberScheduled: 2, numberMisscheduled: 1, desiredNumberScheduled: 3, numberReady: 2, observedGeneration: 2,
                 updatedNumberScheduled: 1, numberAvailable: 2, numberUnavailable: 1}""").toString());
        String done = "w1:R";
        assertThat(DaemonSetDecision.status(ds(ONE_UNAVAILABLE), nodes(done), pods(done), "hash", NOW, true).toString()).isEqualTo(tree("""
                {currentNumberScheduled: 1, numberMisscheduled: 0, desiredNumberScheduled: 1, numberReady: 1, observedGeneration: 2,
                 updatedNumberScheduled: 1, numberAvailable: 1}""").toString());
    }
}
