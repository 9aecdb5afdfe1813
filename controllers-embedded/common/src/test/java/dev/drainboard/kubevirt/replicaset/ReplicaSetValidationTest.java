package dev.drainboard.kubevirt.replicaset;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.drainboard.kubevirt.api.VirtualMachineInstanceReplicaSet;
import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.client.utils.Serialization;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** What a VMIRS must satisfy to be stored, and how a selector is read and printed, row by row. */
class ReplicaSetValidationTest {

    static VirtualMachineInstanceReplicaSet parse(String specYaml) {
        return Serialization.unmarshal("""
                apiVersion: kubevirt.io/v1
                kind: VirtualMachineInstanceReplicaSet
                metadata: {name: web, namespace: prod}
                spec:
                %s
                """.formatted(specYaml.indent(2)), VirtualMachineInstanceReplicaSet.class);
    }

    @ParameterizedTest(name = "[{index}] {0} → {1}")
    @CsvSource(delimiter = '|', quoteCharacter = '~', value = {
            "replicas: 2\\nselector: {matchLabels: {app: web}}\\ntemplate: {metadata: {labels: {app: web}}, spec: {}} | ",
            "selector: {matchLabels: {app: web}}\\ntemplate: {metadata: {labels: {app: web, tier: a}}, spec: {}} | ",
            "replicas: 0\\nselector: {matchExpressions: [{key: app, operator: In, values: [web, api]}]}\\ntemplate: {metadata: {labels: {app: api}}} | ",
            "replicas: -1\\nselector: {matchLabels: {app: web}}\\ntemplate: {metadata: {labels: {app: web}}} | spec.replicas: Invalid value: -1: must be greater than or equal to 0",
            "replicas: 1\\nselector: {matchLabels: {app: web}} | spec.template: Required value: missing virtual machine template.",
            "replicas: 1\\ntemplate: {metadata: {labels: {app: web}}} | spec.selector: Required value",
            "selector: {matchLabels: {app: web}}\\ntemplate: {metadata: {labels: {app: db}}} | spec.selector: Invalid value: \"app=web\": selector does not match labels. (template labels: app=db)",
            "selector: {matchLabels: {app: web}}\\ntemplate: {spec: {}} | spec.selector: Invalid value: \"app=web\": selector does not match labels. (template labels: none)",
            "selector: {}\\ntemplate: {metadata: {labels: {app: web}}} | spec.selector: Invalid value: {}: empty selector is invalid for a VirtualMachineInstanceReplicaSet (it would select every VMI of the namespace)",
            "selector: {matchExpressions: [{key: app, operator: Has}]}\\ntemplate: {metadata: {labels: {app: web}}} | spec.selector: matchExpressions[0].operator: Invalid value: \"Has\": not a valid selector operator",
            "selector: {matchExpressions: [{key: app, operator: In}]}\\ntemplate: {metadata: {labels: {app: web}}} | spec.selector: matchExpressions[0].values: Required value: must be specified when `operator` is 'In' or 'NotIn'",
            "selector: {matchLabels: {'bad key!': x}}\\ntemplate: {metadata: {labels: {app: web}}} | spec.selector: matchLabels: Invalid value: \"bad key!\": name part must consist of alphanumeric characters, '-', '_' or '.', must start and end with an alphanumeric character and be at most 63 characters",
            "replicas: -3 | [spec.replicas: Invalid value: -3: must be greater than or equal to 0, spec.selector: Required value, spec.template: Required value: missing virtual machine template.]",
    })
    void validate(String spec, String expected) {
        var errors = ReplicaSetValidation.validate(parse(spec.replace("\\n", "\n")));
        if (expected == null) {
            assertThat(errors).isEmpty();
        } else {
            assertThat(ReplicaSetValidation.describe(errors)).isEqualTo(expected);
        }
    }

    @ParameterizedTest(name = "[{index}] {0} → \"{1}\"")
    @CsvSource(delimiter = '|', quoteCharacter = '~', value = {
            "{matchLabels: {tier: a, app: web}} | app=web,tier=a",
            "{matchExpressions: [{key: app, operator: In, values: [web, api]}]} | app in (api,web)",
            "{matchExpressions: [{key: app, operator: In, values: [web]}]} | app in (web)",
            "{matchExpressions: [{key: app, operator: NotIn, values: [db]}, {key: canary, operator: DoesNotExist}]} | app notin (db),!canary",
            "{matchLabels: {app: web}, matchExpressions: [{key: kubevirt.io/domain, operator: Exists}]} | app=web,kubevirt.io/domain",
    })
    @DisplayName("status.labelSelector is the canonical text kube-apiserver prints")
    void canonicalText(String selector, String text) throws Exception {
        assertThat(ReplicaSetSelector.parse(selector(selector)).toString()).isEqualTo(text);
    }

    @ParameterizedTest(name = "[{index}] {0} matches {1}: {2}")
    @CsvSource(delimiter = '|', quoteCharacter = '~', value = {
            "{matchLabels: {app: web}} | {app: web, x: y} | true",
            "{matchLabels: {app: web}} | {app: db} | false",
            "{matchLabels: {app: web}} | {} | false",
            "{matchExpressions: [{key: app, operator: NotIn, values: [db]}]} | {} | true",
            "{matchExpressions: [{key: app, operator: Exists}]} | {app: ''} | true",
            "{matchExpressions: [{key: app, operator: DoesNotExist}]} | {app: x} | false",
    })
    void matches(String selector, String labels, boolean matches) throws Exception {
        VirtualMachineInstanceReplicaSet rs = parse("template: {metadata: {labels: " + labels + "}}");
        assertThat(ReplicaSetSelector.parse(selector(selector)).matches(rs.getSpec().getTemplate().getMetadata().getLabels())).isEqualTo(matches);
    }

    /** A flow-style YAML selector, read as the spec of a set reads it. */
    static LabelSelector selector(String yaml) {
        return parse("selector: " + yaml).getSpec().getSelector();
    }

    @org.junit.jupiter.api.Test
    void nullSelectorIsRefused() {
        assertThatThrownBy(() -> ReplicaSetSelector.parse(null)).hasMessage("Required value");
    }
}
