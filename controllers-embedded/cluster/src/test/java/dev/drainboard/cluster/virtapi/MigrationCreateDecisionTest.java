package dev.drainboard.cluster.virtapi;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.drainboard.cluster.apiserver.Json;

import java.util.List;
import java.util.Optional;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** virt-api's migration create admitter, one row per situation, with kube-apiserver's wording of the denial. */
class MigrationCreateDecisionTest {

    private static JsonNode yaml(String text) {
        try {
            return text == null ? null : Json.YAML.readTree(text);
        } catch (Exception e) {
            throw new IllegalArgumentException(e);
        }
    }

    private static final String DENIED = "admission webhook \"migration-create-validator.kubevirt.io\" denied the request: ";
    private static final String RUNNING = "{status: {phase: Running, conditions: [{type: LiveMigratable, status: 'True'}]}}";

    @ParameterizedTest(name = "[{index}] {0}")
    @CsvSource(delimiter = '|', nullValues = "-", value = {
            "migratable, nothing in flight | {vmiName: vm} | " + RUNNING + " | - | - | -",
            "no vmiName                    | {} | - | - | - | 422 vmiName is missing",
            "VMI missing                   | {vmiName: ghost} | - | - | - | 400 the VMI \"prod/ghost\" does not exist",
            "VMI Succeeded                 | {vmiName: vm} | {status: {phase: Succeeded}} | - | - | 400 Cannot migrate VMI in finalized state.",
            "VMI Failed                    | {vmiName: vm} | {status: {phase: Failed}} | - | - | 400 Cannot migrate VMI in finalized state.",
            "VMI still Pending: accepted   | {vmiName: vm} | {status: {phase: Pending}} | - | - | -",
            "disks not migratable          | {vmiName: vm} | {status: {phase: Running, conditions: [{type: LiveMigratable, status: 'False', reason: DisksNotLiveMigratable, message: 'cannot migrate VMI: PVC d is not shared'}]}} | - | - | 400 Cannot migrate VMI, Reason: DisksNotLiveMigratable, Message: cannot migrate VMI: PVC d is not shared",
            "interface not migratable      | {vmiName: vm} | {status: {phase: Running, conditions: [{type: LiveMigratable, status: 'False', reason: InterfaceNotLiveMigratable, message: m}]}} | - | - | 400 Cannot migrate VMI, Reason: InterfaceNotLiveMigratable, Message: m",
            "decentralized tolerates disks | {vmiName: vm, sendTo: {migrationID: x}} | {status: {phase: Running, conditions: [{type: LiveMigratable, status: 'False', reason: DisksNotLiveMigratable, message: m}]}} | - | gate | -",
            "decentralized needs the gate  | {vmiName: vm, sendTo: {migrationID: x}} | " + RUNNING + " | - | - | 422 DecentralizedLiveMigration feature gate is not enabled in kubevirt resource",
            "another in flight             | {vmiName: vm} | " + RUNNING + " | {metadata: {uid: u-1}, spec: {vmiName: vm}, status: {phase: Running}} | - | 400 in-flight migration detected. Active migration job (u-1) is currently already in progress for VMI vm.",
            "another not started yet       | {vmiName: vm} | " + RUNNING + " | {metadata: {uid: u-2}, spec: {vmiName: vm}} | - | 400 in-flight migration detected. Active migration job (u-2) is currently already in progress for VMI vm.",
            "earlier ones finished         | {vmiName: vm} | " + RUNNING + " | {metadata: {uid: u-3}, spec: {vmiName: vm}, status: {phase: Failed}} | - | -",
    })
    void create(String description, String spec, String vmi, String other, String gate, String expected) {
        JsonNode migration = yaml("{metadata: {name: m, namespace: prod}, spec: " + spec + "}");
        List<JsonNode> others = other == null ? List.of() : List.of(yaml(other));
        Optional<Denial> denial = MigrationCreateDecision.decide(migration, yaml(vmi), others, true, gate != null);
        assertThat(denial.map(d -> d.code() + " " + d.message()).orElse(null)).isEqualTo(expected);
        denial.ifPresent(d -> assertThat(d.toApiException().getMessage()).isEqualTo(DENIED + d.message()));
    }

    @ParameterizedTest(name = "[{index}] priority set by {0}")
    @CsvSource(delimiter = '|', value = {"virt-controller | true | ''", "a user | false | Migration priority queue, only virt-controller is allowed to set priority field"})
    void priority(String who, boolean allowed, String expected) {
        var denial = MigrationCreateDecision.decide(yaml("{metadata: {namespace: prod}, spec: {vmiName: vm, priority: system-critical}}"),
                yaml(RUNNING), List.of(), allowed, false);
        assertThat(denial.map(Denial::message).orElse("")).isEqualTo(expected);
    }

    @ParameterizedTest(name = "[{index}] {0}, from virt-controller {1} → {2}")
    @CsvSource(delimiter = '|', value = {
            "NO_FIELD        | false | ''",
            "GATE_OFF        | true  | MigrationPriorityQueue feature gate is not enabled in kubevirt resource",
            "GATE_OFF        | false | MigrationPriorityQueue feature gate is not enabled in kubevirt resource",
            "CONTROLLER_ONLY | true  | ''",
            "CONTROLLER_ONLY | false | Migration priority queue, only virt-controller is allowed to set priority field",
    })
    @DisplayName("spec.priority by release: no check before 1.7, gate first in 1.7–1.8, then virt-controller only")
    void priorityByRelease(MigrationCreateDecision.PriorityRule rule, boolean fromController, String expected) {
        var denial = MigrationCreateDecision.decide(yaml("{metadata: {namespace: prod}, spec: {vmiName: vm, priority: system-critical}}"),
                yaml(RUNNING), List.of(), rule, fromController, false);
        assertThat(denial.map(Denial::message).orElse("")).isEqualTo(expected);
        var none = MigrationCreateDecision.decide(yaml("{metadata: {namespace: prod}, spec: {vmiName: vm}}"),
                yaml(RUNNING), List.of(), rule, fromController, false);
        assertThat(none).as("no priority, no check").isEmpty();
    }

    @ParameterizedTest(name = "[{index}] {0} in {1} → {2}")
    @CsvSource(delimiter = '|', value = {
            "system:serviceaccount:kubevirt:kubevirt-controller          | kubevirt | true",
            "system:serviceaccount:kubevirt:kubevirt-handler             | kubevirt | false",
            "system:serviceaccount:kubevirt:kubevirt-synchronization-controller | kubevirt | false",
            "system:serviceaccount:other:kubevirt-controller             | kubevirt | false",
            "system:serviceaccount:cnv:kubevirt-controller               | cnv      | true",
            "drainboard-admin                                            | kubevirt | false",
            "kubevirt-controller                                         | kubevirt | false",
    })
    @DisplayName("virt-controller is KubeVirt's controller service account of the install namespace, no one else")
    void virtController(String username, String namespace, boolean expected) {
        assertThat(MigrationCreateDecision.isVirtController(username, namespace)).isEqualTo(expected);
    }
}
