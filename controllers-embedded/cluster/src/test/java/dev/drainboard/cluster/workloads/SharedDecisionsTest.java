package dev.drainboard.cluster.workloads;

import static dev.drainboard.cluster.workloads.Fixtures.tree;
import static dev.drainboard.cluster.workloads.Fixtures.yaml;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.drainboard.cluster.apiserver.Json;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.nio.charset.StandardCharsets;

/** The pieces the workload controllers share: claims, hashes, IntOrString scaling, apps/v1 validation. */
class SharedDecisionsTest {

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "owned and selected                    | owner  | app=web   | false | false | OWNED",
            "owned, no longer selected             | owner  | app=db    | false | false | RELEASE",
            "owned, not selected, owner deleting   | owner  | app=db    | true  | false | IGNORE",
            "owned and selected, owner deleting    | owner  | app=web   | true  | false | OWNED",
            "orphan selected                       | ''     | app=web   | false | false | ADOPT",
            "orphan not selected                   | ''     | app=db    | false | false | IGNORE",
            "orphan selected, owner deleting       | ''     | app=web   | true  | false | IGNORE",
            "orphan selected, itself deleting      | ''     | app=web   | false | true  | IGNORE",
            "someone else's                        | other  | app=web   | false | false | IGNORE",
    })
    void claimsFollowTheControllerRefManager(String why, String controller, String label, boolean ownerDeleting, boolean podDeleting,
                                              ClaimDecision.Claim expected) {
        ObjectNode owner = yaml("{metadata: {name: web, namespace: ns, uid: owner}}");
        if (ownerDeleting) {
            Json.metadata(owner).put("deletionTimestamp", "2025-06-01T12:00:00Z");
        }
        ObjectNode pod = yaml("{metadata: {name: p, namespace: ns, uid: p, labels: {%s}}}".formatted(label.replace("=", ": ")));
        if (!controller.isEmpty()) {
            Json.metadata(pod).withArray("ownerReferences").addObject().put("kind", "ReplicaSet").put("apiVersion", "apps/v1")
                    .put("uid", controller).put("controller", true);
        }
        if (podDeleting) {
            Json.metadata(pod).put("deletionTimestamp", "2025-06-01T12:00:00Z");
        }
        assertThat(ClaimDecision.decide(owner, pod, label.equals("app=web"))).as(why).isEqualTo(expected);
    }

    @ParameterizedTest(name = "{0} of {1}, round up {2}: {3}")
    @CsvSource({
            "25%, 4, true, 1",
            "25%, 3, true, 1",
            "25%, 3, false, 0",
            "30%, 10, false, 3",
            "100%, 7, true, 7",
            "2, 10, true, 2",
    })
    void intOrPercentScalesAsKubeDoes(String value, int total, boolean roundUp, int expected) {
        var node = value.endsWith("%") ? Json.NODES.textNode(value) : Json.NODES.numberNode(Integer.parseInt(value));
        assertThat(IntOrPercent.scaled(node, total, roundUp, -1)).isEqualTo(expected);
    }

    @Test
    void intOrPercentFallsBackWhenMissingAndRefusesGarbage() {
        assertThat(IntOrPercent.scaled(null, 4, true, 9)).isEqualTo(9);
        assertThatThrownBy(() -> IntOrPercent.scaled(Json.NODES.textNode("two"), 4, true, 0))
                .hasMessage("invalid value for IntOrString: invalid type: string is not a percentage");
    }

    @Test
    void fnvHashesMatchTheirReferenceVectors() {
        // FNV-1 and FNV-1a, 32 bits: "" → 0x811c9dc5 (the offset basis), "a" → 0x050c5d7e and 0xe40c292c.
        assertThat(TemplateHashes.fnv1a(0x811c9dc5, new byte[0])).isEqualTo(0x811c9dc5);
        assertThat(TemplateHashes.fnv1a(0x811c9dc5, "a".getBytes(StandardCharsets.UTF_8))).isEqualTo(0xe40c292c);
        assertThat(TemplateHashes.fnv1("a".getBytes(StandardCharsets.UTF_8))).isEqualTo(0x050c5d7e);
        assertThat(TemplateHashes.fnv1("foobar".getBytes(StandardCharsets.UTF_8))).isEqualTo(0x31f0b262);
    }

    @Test
    void namesUseKubesSafeAlphabet() {
        // '0'..'9' are 48..57: modulo 27 they land on "4","5","6","7","8","9","b","c","d","f".
        assertThat(TemplateHashes.safeEncode("0123456789")).isEqualTo("456789bcdf");
        String hash = TemplateHashes.podTemplateHash(tree("{metadata: {labels: {app: web}}, spec: {containers: [{name: c, image: x}]}}"), null);
        assertThat(hash).matches("[456789bcdf]{1,10}");
    }

    @Test
    void hashesAreStableAndFollowTheTemplateNotItsKeyOrder() {
        var a = tree("{metadata: {labels: {app: web, tier: front}}, spec: {containers: [{name: c, image: x}]}}");
        var b = tree("{spec: {containers: [{image: x, name: c}]}, metadata: {labels: {tier: front, app: web}}}");
        var c = tree("{metadata: {labels: {app: web, tier: front}}, spec: {containers: [{name: c, image: y}]}}");
        assertThat(TemplateHashes.podTemplateHash(a, null)).isEqualTo(TemplateHashes.podTemplateHash(b, null))
                .isNotEqualTo(TemplateHashes.podTemplateHash(c, null))
                .isNotEqualTo(TemplateHashes.podTemplateHash(a, 1));
        assertThat(TemplateHashes.revisionHash(a)).isEqualTo(TemplateHashes.revisionHash(b)).isNotEqualTo(TemplateHashes.revisionHash(c));
    }

    @Test
    void templatesCompareWithoutTheHashLabelAndEmptyFields() {
        var deployment = tree("{metadata: {labels: {app: web}}, spec: {containers: [{name: c, image: x}]}}");
        var replicaSet = tree("{metadata: {labels: {app: web, pod-template-hash: 5d8f7c9b4}, annotations: {}}, spec: {containers: [{name: c, image: x, env: []}]}}");
        var other = tree("{metadata: {labels: {app: web, pod-template-hash: 5d8f7c9b4}}, spec: {containers: [{name: c, image: y}]}}");
        assertThat(TemplateHashes.equalIgnoringHash(deployment, replicaSet)).isTrue();
        assertThat(TemplateHashes.equalIgnoringHash(deployment, other)).isFalse();
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "fine                      | {kind: Deployment, spec: {replicas: 1, selector: {matchLabels: {app: web}}, template: {metadata: {labels: {app: web, v: '1'}}}}} | ''",
            "no selector               | {kind: Deployment, spec: {template: {metadata: {labels: {app: web}}}}} | spec.selector: Required value",
            "selector misses labels    | {kind: ReplicaSet, spec: {selector: {matchLabels: {app: web}}, template: {metadata: {labels: {app: db, z: '1'}}}}} | spec.template.metadata.labels: Invalid value: map[string]string{\"app\":\"db\", \"z\":\"1\"}: `selector` does not match template `labels`",
            "empty selector            | {kind: DaemonSet, spec: {selector: {}, template: {metadata: {labels: {app: web}}}}} | spec.selector: Invalid value: v1.LabelSelector{MatchLabels:map[string]string(nil), MatchExpressions:[]v1.LabelSelectorRequirement(nil)}: empty selector is invalid for daemonset",
            "negative replicas         | {kind: StatefulSet, spec: {replicas: -1, selector: {matchLabels: {app: web}}, template: {metadata: {labels: {app: web}}}}} | spec.replicas: Invalid value: -1: must be greater than or equal to 0",
            "restartPolicy Never       | {kind: Deployment, spec: {selector: {matchLabels: {app: web}}, template: {metadata: {labels: {app: web}}, spec: {restartPolicy: Never}}}} | spec.template.spec.restartPolicy: Unsupported value: \"Never\": supported values: \"Always\"",
    })
    void appsValidationRefusesWhatKubeApiserverRefuses(String why, String object, String expected) {
        var violations = WorkloadValidation.validate(yaml(object)).stream().map(v -> v.field() + ": " + v.message()).toList();
        assertThat(String.join("; ", violations)).as(why).isEqualTo(expected);
    }

    @Test
    void sameTreatsNumbersOfAnyWidthAlike() {
        assertThat(Pods.same(tree("{a: 1, b: [2]}"), Json.object().put("a", 1L).set("b", Json.NODES.arrayNode().add(2L)))).isTrue();
        assertThat(Pods.same(tree("{a: 1}"), tree("{a: 2}"))).isFalse();
        assertThat(Pods.same(null, tree("{}"))).isFalse();
    }
}
