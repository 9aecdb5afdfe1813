package dev.drainboard.cluster.virtapi;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.drainboard.cluster.apiserver.Json;

import java.util.List;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The VMI create admitter's drain-relevant checks, one row per spec: KubeVirt's causes, in its order. */
class VmiSpecValidationTest {

    private static JsonNode spec(String yaml) {
        try {
            return Json.YAML.readTree(yaml);
        } catch (Exception e) {
            throw new IllegalArgumentException(e);
        }
    }

    private static final String POD = "networks: [{name: default, pod: {}}]";
    private static final String MASQ = "interfaces: [{name: default, masquerade: {}}]";

    @ParameterizedTest(name = "[{index}] {0}")
    @CsvSource(delimiter = '|', nullValues = "-", value = {
            "valid                          | {domain: {memory: {guest: 1Gi}, devices: {" + MASQ + "}}, " + POD + "} | -",
            "unknown eviction strategy      | {evictionStrategy: Sometimes, domain: {memory: {guest: 1Gi}}} | FieldValueInvalid spec.evictionStrategy: spec.evictionStrategy is set with an unrecognized option: Sometimes",
            "no memory at all               | {domain: {}} | FieldValueRequired -: no memory requested, at least one of 'spec.domain.memory.guest', 'spec.domain.memory.hugepages.pageSize' or 'spec.domain.resources.requests.memory' must be set",
            "hugepages are memory enough    | {domain: {memory: {hugepages: {pageSize: 2Mi}}}} | -",
            "request negative               | {domain: {resources: {requests: {memory: -1Gi}}, memory: {guest: 1Gi}}} | FieldValueInvalid spec.domain.resources.requests.memory: spec.domain.resources.requests.memory '-1Gi': must be greater than or equal to 0.",
            "request under 1M               | {domain: {resources: {requests: {memory: 512Ki}}}} | FieldValueInvalid spec.domain.resources.requests.memory: spec.domain.resources.requests.memory '512Ki': must be greater than or equal to 1M.",
            "request over the limit         | {domain: {resources: {requests: {memory: 2Gi}, limits: {memory: 1Gi}}}} | FieldValueInvalid spec.domain.resources.requests.memory: spec.domain.resources.requests.memory '2Gi' is greater than spec.domain.resources.limits.memory '1Gi'",
            "interface without its network  | {domain: {memory: {guest: 1Gi}, devices: {interfaces: [{name: eth0, masquerade: {}}]}}, " + POD + "} | FieldValueInvalid spec.domain.devices.interfaces[0].name: Masquerade interface only implemented with pod network; FieldValueRequired spec.networks[0].name: spec.networks[0].name 'default' not found.; FieldValueInvalid spec.domain.devices.interfaces[0].name: spec.domain.devices.interfaces[0].name 'eth0' not found.",
            "two pod networks               | {domain: {memory: {guest: 1Gi}, devices: {interfaces: [{name: a, masquerade: {}}, {name: b, masquerade: {}}]}}, networks: [{name: a, pod: {}}, {name: b, pod: {}}]} | FieldValueDuplicate spec.interfaces: more than one interface is connected to a pod network in spec.interfaces",
            "two bindings                   | {domain: {memory: {guest: 1Gi}, devices: {interfaces: [{name: default, masquerade: {}, bridge: {}}]}}, " + POD + "} | FieldValueInvalid spec.domain.devices.interfaces[0]: logical default interface must have exactly one binding method or binding plugin",
            "network without a source       | {domain: {memory: {guest: 1Gi}, devices: {interfaces: [{name: x, bridge: {}}]}}, networks: [{name: x}]} | FieldValueRequired spec.networks[0]: should have a network type",
            "multus without networkName     | {domain: {memory: {guest: 1Gi}, devices: {interfaces: [{name: x, bridge: {}}]}}, networks: [{name: x, multus: {}}]} | FieldValueRequired spec.networks[0]: CNI delegating plugin must have a networkName",
            "duplicate names                | {domain: {memory: {guest: 1Gi}, devices: {interfaces: [{name: x, bridge: {}}, {name: x, bridge: {}}]}}, networks: [{name: x, multus: {networkName: n}}, {name: x, multus: {networkName: m}}]} | FieldValueDuplicate spec.networks[1].name: Network with name \"x\" already exists, every network must have a unique name; FieldValueDuplicate spec.domain.devices.interfaces[1].name: Only one interface can be connected to one specific network",
            "bad interface name and model   | {domain: {memory: {guest: 1Gi}, devices: {interfaces: [{name: a.b, masquerade: {}, model: vmxnet3}]}}, networks: [{name: a.b, pod: {}}]} | FieldValueInvalid spec.domain.devices.interfaces[0].name: Network interface name can only contain alphabetical characters, numbers, dashes (-) or underscores (_); FieldValueNotSupported spec.domain.devices.interfaces[0].model: interface spec.domain.devices.interfaces[0].name uses model vmxnet3 that is not supported.",
    })
    void vmiCreate(String description, String spec, String expected) {
        JsonNode s = spec(spec);
        List<Cause> causes = new java.util.ArrayList<>(VmiSpecValidation.validate("spec", s, VirtApiConfig.defaults()));
        causes.addAll(VmiSpecValidation.mandatory("spec", s));
        assertThat(render(causes)).isEqualTo(expected == null ? "" : expected);
    }

    @ParameterizedTest(name = "[{index}] {0}")
    @CsvSource(delimiter = '|', value = {
            "bridge not permitted on the pod network | true  | LiveUpdate | FieldValueInvalid spec.domain.devices.interfaces[0].name: Bridge on pod network configuration is not enabled under kubevirt-config",
            "guest over the limit, Stage rollout     | false | Stage      | FieldValueInvalid spec.domain.memory.guest: spec.domain.memory.guest '2Gi' must be equal to or less than the memory limit spec.domain.resources.limits.memory '1Gi'",
    })
    void clusterConfiguration(String description, boolean bridge, String rollout, String expected) {
        JsonNode s = spec(bridge
                ? "{domain: {memory: {guest: 1Gi}, devices: {interfaces: [{name: default, bridge: {}}]}}, " + POD + "}"
                : "{domain: {memory: {guest: 2Gi}, resources: {limits: {memory: 1Gi}}}}");
        VirtApiConfig config = new VirtApiConfig("None", "bridge", !bridge, rollout);
        assertThat(render(VmiSpecValidation.validate("spec", s, config))).isEqualTo(expected);
        assertThat(VmiSpecValidation.validate("spec", s, VirtApiConfig.defaults())).as("by default").isEmpty();
    }

    /** The VM admitter's paths: the same checks under spec.template.spec. */
    @ParameterizedTest(name = "[{index}] {0}")
    @CsvSource(delimiter = '|', value = {
            "template eviction strategy | {evictionStrategy: Never, domain: {}} | FieldValueInvalid spec.template.spec.evictionStrategy: spec.template.spec.evictionStrategy is set with an unrecognized option: Never",
    })
    void vmTemplate(String description, String spec, String expected) {
        assertThat(render(VmiSpecValidation.validate("spec.template.spec", spec(spec), VirtApiConfig.defaults()))).isEqualTo(expected);
    }

    private static String render(List<Cause> causes) {
        return String.join("; ", causes.stream().map(c -> c.type() + " " + (c.field() == null ? "-" : c.field()) + ": " + c.message()).toList());
    }
}
