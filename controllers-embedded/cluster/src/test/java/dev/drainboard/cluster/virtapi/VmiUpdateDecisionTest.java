package dev.drainboard.cluster.virtapi;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.drainboard.cluster.apiserver.Json;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** A VMI's spec is fixed once created; its metadata and status are not. */
class VmiUpdateDecisionTest {

    private static final String OLD = "{metadata: {name: vm, labels: {a: b}}, spec: {evictionStrategy: None, domain: {devices: {interfaces: [{name: default, bridge: {}}]}}, nodeSelector: {}}, status: {phase: Running}}";

    private static JsonNode yaml(String text) {
        try {
            return Json.YAML.readTree(text);
        } catch (Exception e) {
            throw new IllegalArgumentException(e);
        }
    }

    @ParameterizedTest(name = "[{index}] {0}")
    @CsvSource(delimiter = '|', value = {
            "a label added              | {metadata: {name: vm, labels: {a: b, c: d}}, spec: {evictionStrategy: None, domain: {devices: {interfaces: [{name: default, bridge: {}}]}}, nodeSelector: {}}, status: {phase: Running}} | true",
            "status changed             | {metadata: {name: vm, labels: {a: b}}, spec: {evictionStrategy: None, domain: {devices: {interfaces: [{name: default, bridge: {}}]}}, nodeSelector: {}}, status: {phase: Failed, evacuationNodeName: n}} | true",
            "empty map dropped          | {metadata: {name: vm, labels: {a: b}}, spec: {evictionStrategy: None, domain: {devices: {interfaces: [{name: default, bridge: {}}]}}}, status: {phase: Running}} | true",
            "null field written         | {metadata: {name: vm, labels: {a: b}}, spec: {evictionStrategy: None, domain: {devices: {interfaces: [{name: default, bridge: {}}]}}, nodeSelector: {}, affinity: null}, status: {phase: Running}} | true",
            "eviction strategy changed  | {metadata: {name: vm, labels: {a: b}}, spec: {evictionStrategy: LiveMigrate, domain: {devices: {interfaces: [{name: default, bridge: {}}]}}, nodeSelector: {}}, status: {phase: Running}} | false",
            "binding changed            | {metadata: {name: vm, labels: {a: b}}, spec: {evictionStrategy: None, domain: {devices: {interfaces: [{name: default, masquerade: {}}]}}, nodeSelector: {}}, status: {phase: Running}} | false",
            "binding removed            | {metadata: {name: vm, labels: {a: b}}, spec: {evictionStrategy: None, domain: {devices: {interfaces: [{name: default}]}}, nodeSelector: {}}, status: {phase: Running}} | false",
    })
    void update(String description, String updated, boolean allowed) {
        var denial = VmiUpdateDecision.decide(yaml(updated), yaml(OLD));
        assertThat(denial.isEmpty()).isEqualTo(allowed);
        denial.ifPresent(d -> {
            assertThat(d.toApiException().getMessage()).isEqualTo(
                    "admission webhook \"virtualmachineinstances-update-validator.kubevirt.io\" denied the request: update of VMI object is restricted");
            assertThat(d.code()).isEqualTo(422);
            assertThat(d.toApiException().toStatus().path("details").path("causes").toString())
                    .isEqualTo("[{\"reason\":\"FieldValueNotSupported\",\"message\":\"update of VMI object is restricted\"}]");
        });
    }
}
