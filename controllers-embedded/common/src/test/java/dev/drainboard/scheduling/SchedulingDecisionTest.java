package dev.drainboard.scheduling;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/** The scheduling decision, one row per rule: which node a pod lands on, or kube-scheduler's message. */
class SchedulingDecisionTest {

    // --- fixtures --------------------------------------------------------------------------------------------

    private static final ObjectMapper YAML = new YAMLMapper();

    static ObjectNode yaml(String text) {
        try {
            return (ObjectNode) YAML.readTree(text);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException(e);
        }
    }

    /** A Ready node with 4 CPUs, 8Gi and room for 10 pods, labelled with its hostname and zone. */
    static ObjectNode node(String name, String zone) {
        return yaml("""
                metadata:
                  name: %1$s
                  labels: {kubernetes.io/hostname: %1$s, zone: %2$s, disk: ssd}
                spec: {}
                status:
                  allocatable: {cpu: "4", memory: 8Gi, pods: "10"}
                  conditions: [{type: Ready, status: "True"}]
                """.formatted(name, zone));
    }

    static ObjectNode node(String name) {
        return node(name, "a");
    }

    static ObjectNode pod(String name, String specYaml) {
        ObjectNode pod = yaml("""
                metadata: {name: %s, namespace: default, labels: {app: web}}
                spec:
                  containers: [{name: main, image: app}]
                """.formatted(name));
        ObjectNode extra = yaml(specYaml.isBlank() ? "{}" : specYaml);
        extra.fields().forEachRemaining(e -> pod.with("spec").set(e.getKey(), e.getValue()));
        return pod;
    }

    static ObjectNode requesting(String name, String cpu, String memory) {
        return pod(name, "containers: [{name: main, image: app, resources: {requests: {cpu: \"%s\", memory: %s}}}]"
                .formatted(cpu, memory));
    }

    static ObjectNode with(ObjectNode node, String path, String yamlValue) {
        ObjectNode copy = node.deepCopy();
        String[] parts = path.split("\\.");
        ObjectNode target = copy;
        for (int i = 0; i < parts.length - 1; i++) {
            target = target.with(parts[i]);
        }
        target.set(parts[parts.length - 1], yaml("v: " + yamlValue).get("v"));
        return copy;
    }

    static NodeState state(JsonNode node, JsonNode... pods) {
        return NodeState.of(node, List.of(pods));
    }

    static String decide(JsonNode pod, NodeState... nodes) {
        return switch (SchedulingDecision.decide(pod, List.of(nodes))) {
            case SchedulingDecision.Bind b -> b.nodeName();
            case SchedulingDecision.Unschedulable u -> u.message();
        };
    }

    // --- the table -----------------------------------------------------------------------------------------

    static Stream<Arguments> rows() {
        ObjectNode plain = pod("p", "");
        ObjectNode n1 = node("n1");
        ObjectNode n2 = node("n2");
        ObjectNode cordoned = with(node("n1"), "spec.unschedulable", "true");
        ObjectNode tainted = with(node("n1"), "spec.taints", "[{key: dedicated, value: gpu, effect: NoSchedule}]");
        ObjectNode drainTainted = with(node("n1"), "spec.taints", "[{key: kubevirt.io/drain, effect: NoSchedule}]");
        ObjectNode preferTainted = with(node("n1"), "spec.taints", "[{key: soft, effect: PreferNoSchedule}]");
        ObjectNode notReady = with(node("n1"), "status.conditions", "[{type: Ready, status: \"False\"}]");
        ObjectNode unknown = with(node("n1"), "status.conditions", "[{type: Ready, status: Unknown}]");
        ObjectNode full = with(node("n1"), "status.allocatable.pods", "\"1\"");
        ObjectNode neighbour = pod("neighbour", "");
        ObjectNode launcherA = yaml("{metadata: {name: src, namespace: default, labels: {kubevirt.io/created-by: uid-1}}, spec: {containers: [{name: c}]}}");
        ObjectNode antiAffine = pod("target", """
                affinity:
                  podAntiAffinity:
                    requiredDuringSchedulingIgnoredDuringExecution:
                    - labelSelector: {matchLabels: {kubevirt.io/created-by: uid-1}}
                      topologyKey: kubernetes.io/hostname
                """);
        ObjectNode zoneAntiAffine = with(antiAffine, "spec.affinity.podAntiAffinity.requiredDuringSchedulingIgnoredDuringExecution",
                "[{labelSelector: {matchLabels: {kubevirt.io/created-by: uid-1}}, topologyKey: zone}]");
        ObjectNode loner = yaml("""
                metadata: {name: loner, namespace: default, labels: {app: db}}
                spec:
                  containers: [{name: c}]
                  affinity:
                    podAntiAffinity:
                      requiredDuringSchedulingIgnoredDuringExecution:
                      - labelSelector: {matchLabels: {app: web}}
                        topologyKey: kubernetes.io/hostname
                """);

        return Stream.of(
                Arguments.of("a plain pod goes to the only node", plain, List.of(state(n1)), "n1"),
                Arguments.of("no nodes at all", plain, List.of(), "no nodes available to schedule pods"),
                Arguments.of("least requested: the emptier node", requesting("p", "1", "1Gi"),
                        List.of(state(n1, requesting("a", "2", "4Gi")), state(n2)), "n2"),
                Arguments.of("pods without requests spread too (scoring defaults)", plain,
                        List.of(state(n1, neighbour), state(n2)), "n2"),
                Arguments.of("a cordoned node is skipped", plain, List.of(state(cordoned), state(n2)), "n2"),
                Arguments.of("cordoned only", plain, List.of(state(cordoned)),
                        "0/1 nodes are available: 1 node(s) were unschedulable. "
                                + "preemption: 0/1 nodes are available: 1 Preemption is not helpful for scheduling."),
                Arguments.of("tolerating the unschedulable taint passes a cordon",
                        pod("p", "tolerations: [{key: node.kubernetes.io/unschedulable, operator: Exists, effect: NoSchedule}]"),
                        List.of(state(cordoned)), "n1"),
                Arguments.of("an untolerated taint", plain, List.of(state(tainted)),
                        "0/1 nodes are available: 1 node(s) had untolerated taint {dedicated: gpu}. "
                                + "preemption: 0/1 nodes are available: 1 Preemption is not helpful for scheduling."),
                Arguments.of("the drain taint, value-less", plain, List.of(state(drainTainted)),
                        "0/1 nodes are available: 1 node(s) had untolerated taint {kubevirt.io/drain: }. "
                                + "preemption: 0/1 nodes are available: 1 Preemption is not helpful for scheduling."),
                Arguments.of("a tolerated taint", pod("p", "tolerations: [{key: dedicated, value: gpu, effect: NoSchedule}]"),
                        List.of(state(tainted)), "n1"),
                Arguments.of("tolerate everything", pod("p", "tolerations: [{operator: Exists}]"), List.of(state(tainted)), "n1"),
                Arguments.of("PreferNoSchedule does not filter", plain, List.of(state(preferTainted)), "n1"),
                Arguments.of("a not-ready node carries the not-ready taint", plain, List.of(state(notReady)),
                        "0/1 nodes are available: 1 node(s) had untolerated taint {node.kubernetes.io/not-ready: }. "
                                + "preemption: 0/1 nodes are available: 1 Preemption is not helpful for scheduling."),
                Arguments.of("an unknown node is unreachable", plain, List.of(state(unknown)),
                        "0/1 nodes are available: 1 node(s) had untolerated taint {node.kubernetes.io/unreachable: }. "
                                + "preemption: 0/1 nodes are available: 1 Preemption is not helpful for scheduling."),
                Arguments.of("nodeSelector", pod("p", "nodeSelector: {zone: b}"),
                        List.of(state(n1), state(node("n2", "b"))), "n2"),
                Arguments.of("nodeSelector matching nothing", pod("p", "nodeSelector: {zone: c}"), List.of(state(n1)),
                        "0/1 nodes are available: 1 node(s) didn't match Pod's node affinity/selector. "
                                + "preemption: 0/1 nodes are available: 1 Preemption is not helpful for scheduling."),
                Arguments.of("node affinity In", affinity("{key: zone, operator: In, values: [b, c]}"),
                        List.of(state(n1), state(node("n2", "b"))), "n2"),
                Arguments.of("node affinity NotIn", affinity("{key: zone, operator: NotIn, values: [a]}"),
                        List.of(state(n1), state(node("n2", "b"))), "n2"),
                Arguments.of("node affinity Exists", affinity("{key: disk, operator: Exists}"), List.of(state(n1)), "n1"),
                Arguments.of("node affinity DoesNotExist", affinity("{key: disk, operator: DoesNotExist}"), List.of(state(n1)),
                        "0/1 nodes are available: 1 node(s) didn't match Pod's node affinity/selector. "
                                + "preemption: 0/1 nodes are available: 1 Preemption is not helpful for scheduling."),
                Arguments.of("node affinity Gt", affinity("{key: gen, operator: Gt, values: [\"3\"]}"),
                        List.of(state(with(node("n1"), "metadata.labels.gen", "\"3\"")), state(with(node("n2"), "metadata.labels.gen", "\"4\""))),
                        "n2"),
                Arguments.of("node affinity Lt", affinity("{key: gen, operator: Lt, values: [\"4\"]}"),
                        List.of(state(with(node("n1"), "metadata.labels.gen", "\"3\"")), state(with(node("n2"), "metadata.labels.gen", "\"4\""))),
                        "n1"),
                Arguments.of("node affinity by field metadata.name",
                        pod("p", "affinity: {nodeAffinity: {requiredDuringSchedulingIgnoredDuringExecution: {nodeSelectorTerms: "
                                + "[{matchFields: [{key: metadata.name, operator: In, values: [n2]}]}]}}}"),
                        List.of(state(n1), state(n2)), "n2"),
                Arguments.of("terms are ORed", pod("p", "affinity: {nodeAffinity: {requiredDuringSchedulingIgnoredDuringExecution: {nodeSelectorTerms: "
                                + "[{matchExpressions: [{key: zone, operator: In, values: [x]}]}, {matchExpressions: [{key: zone, operator: In, values: [b]}]}]}}}"),
                        List.of(state(n1), state(node("n2", "b"))), "n2"),
                Arguments.of("insufficient memory", requesting("p", "1", "6Gi"), List.of(state(n1, requesting("a", "1", "4Gi"))),
                        "0/1 nodes are available: 1 Insufficient memory. "
                                + "preemption: 0/1 nodes are available: 1 No preemption victims found for incoming pod."),
                Arguments.of("insufficient cpu and memory on one node", requesting("p", "3", "6Gi"),
                        List.of(state(n1, requesting("a", "2", "4Gi"))),
                        "0/1 nodes are available: 1 Insufficient cpu, 1 Insufficient memory. "
                                + "preemption: 0/1 nodes are available: 1 No preemption victims found for incoming pod."),
                Arguments.of("exactly full still fits", requesting("p", "2", "4Gi"), List.of(state(n1, requesting("a", "2", "4Gi"))), "n1"),
                Arguments.of("finished pods are not counted (the caller leaves them out)", requesting("p", "4", "8Gi"), List.of(state(n1)), "n1"),
                Arguments.of("too many pods", plain, List.of(state(full, neighbour)),
                        "0/1 nodes are available: 1 Too many pods. "
                                + "preemption: 0/1 nodes are available: 1 No preemption victims found for incoming pod."),
                Arguments.of("anti-affinity keeps a migration target off the source's node", antiAffine,
                        List.of(state(n1, launcherA), state(n2)), "n2"),
                Arguments.of("anti-affinity with nowhere else to go", antiAffine, List.of(state(n1, launcherA)),
                        "0/1 nodes are available: 1 node(s) didn't match pod anti-affinity rules. "
                                + "preemption: 0/1 nodes are available: 1 No preemption victims found for incoming pod."),
                Arguments.of("anti-affinity by zone", zoneAntiAffine,
                        List.of(state(n1, launcherA), state(node("n2", "a")), state(node("n3", "b"))), "n3"),
                Arguments.of("anti-affinity only within its namespace", antiAffine,
                        List.of(state(n1, with(launcherA, "metadata.namespace", "other"))), "n1"),
                Arguments.of("an existing pod's anti-affinity keeps matching pods away", plain,
                        List.of(state(n1, loner), state(n2)), "n2"),
                Arguments.of("an existing pod's anti-affinity, nowhere else", plain, List.of(state(n1, loner)),
                        "0/1 nodes are available: 1 node(s) didn't satisfy existing pods anti-affinity rules. "
                                + "preemption: 0/1 nodes are available: 1 No preemption victims found for incoming pod."),
                Arguments.of("preemptionPolicy Never", pod("p", "preemptionPolicy: Never"), List.of(state(cordoned)),
                        "0/1 nodes are available: 1 node(s) were unschedulable. preemption: not eligible due to preemptionPolicy=Never.")
        );
    }

    private static ObjectNode affinity(String expression) {
        return pod("p", "affinity: {nodeAffinity: {requiredDuringSchedulingIgnoredDuringExecution: {nodeSelectorTerms: [{matchExpressions: [%s]}]}}}"
                .formatted(expression));
    }

    @ParameterizedTest(name = "[{index}] {0}")
    @MethodSource("rows")
    void decides(String description, JsonNode pod, List<NodeState> nodes, String expected) {
        assertThat(decide(pod, nodes.toArray(NodeState[]::new))).isEqualTo(expected);
    }

    @Test
    void reasonsAreCountedPerNodeAndSortedAsKubeSchedulerSortsThem() {
        List<NodeState> nodes = new ArrayList<>();
        nodes.add(state(with(node("n1"), "spec.unschedulable", "true")));
        for (String name : List.of("n2", "n3", "n4")) {
            nodes.add(state(node(name), requesting("big-" + name, "1", "7Gi")));
        }
        assertThat(decide(requesting("p", "1", "2Gi"), nodes.toArray(NodeState[]::new))).isEqualTo(
                "0/4 nodes are available: 1 node(s) were unschedulable, 3 Insufficient memory. "
                        + "preemption: 0/4 nodes are available: 1 Preemption is not helpful for scheduling, "
                        + "3 No preemption victims found for incoming pod.");
    }

    @Test
    void theFirstFailingFilterDecidesANodesReason() {
        // Cordoned and tainted and too small: kube-scheduler stops at NodeUnschedulable.
        ObjectNode everything = with(with(node("n1"), "spec.unschedulable", "true"), "spec.taints", "[{key: x, effect: NoSchedule}]");
        assertThat(decide(requesting("p", "64", "1Ti"), state(everything))).startsWith("0/1 nodes are available: 1 node(s) were unschedulable.");
    }

    @Test
    void aBoundPodCountsForTheNextDecisionOfThePass() {
        NodeState n1 = state(node("n1"));
        NodeState after = n1.with(requesting("a", "3", "1Gi"));
        assertThat(decide(requesting("b", "2", "1Gi"), after)).contains("Insufficient cpu");
    }
}
