package dev.drainboard.controller.vm;

import dev.drainboard.kubevirt.api.Condition;
import dev.drainboard.kubevirt.api.TemplateMetadata;
import dev.drainboard.kubevirt.api.VirtualMachine;
import dev.drainboard.kubevirt.api.VirtualMachineInstance;
import dev.drainboard.kubevirt.api.VirtualMachineInstanceSpec;
import dev.drainboard.kubevirt.api.VirtualMachineInstanceStatus;
import dev.drainboard.kubevirt.api.VirtualMachineInstanceTemplateSpec;
import dev.drainboard.kubevirt.api.VirtualMachineSpec;
import dev.drainboard.kubevirt.api.VirtualMachineStatus;
import dev.drainboard.kubevirt.api.VirtualMachineStateChangeRequest;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.time.Instant;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** Run strategies and the VM status, row by row. */
class VmDecisionTest {

    private static final Instant NOW = Instant.parse("2025-03-04T05:06:07Z");
    private static final String VM_UID = "vm-uid-1";

    static VirtualMachine vm(String runStrategy, Boolean running) {
        VirtualMachine vm = new VirtualMachine();
        vm.setMetadata(new ObjectMetaBuilder().withName("web").withNamespace("prod").withUid(VM_UID).build());
        VirtualMachineSpec spec = new VirtualMachineSpec();
        spec.setRunStrategy(runStrategy);
        spec.setRunning(running);
        VirtualMachineInstanceTemplateSpec template = new VirtualMachineInstanceTemplateSpec();
        TemplateMetadata meta = new TemplateMetadata();
        meta.setLabels(Map.of("app", "web"));
        meta.setAnnotations(Map.of("descheduler.alpha.kubernetes.io/evict", "true"));
        template.setMetadata(meta);
        VirtualMachineInstanceSpec vmiSpec = new VirtualMachineInstanceSpec();
        vmiSpec.setEvictionStrategy("None");
        vmiSpec.setAdditionalProperty("networks", List.of(Map.of("name", "default", "pod", Map.of())));
        template.setSpec(vmiSpec);
        spec.setTemplate(template);
        vm.setSpec(spec);
        return vm;
    }

    static VirtualMachineInstance vmi(String phase, boolean deleting, String ownerUid) {
        VirtualMachineInstance vmi = new VirtualMachineInstance();
        vmi.setMetadata(new ObjectMetaBuilder().withName("web").withNamespace("prod").withUid("vmi-uid")
                .withOwnerReferences(new OwnerReferenceBuilder().withKind("VirtualMachine").withName("web")
                        .withUid(ownerUid).withController(true).build())
                .build());
        if (deleting) {
            vmi.getMetadata().setDeletionTimestamp("2025-03-04T05:00:00Z");
        }
        VirtualMachineInstanceStatus status = new VirtualMachineInstanceStatus();
        status.setPhase(phase);
        vmi.setStatus(status);
        return vmi;
    }

    @ParameterizedTest(name = "[{index}] runStrategy={0} running={1}, VMI {2} → create={3} delete={4}, {5}")
    @CsvSource(nullValues = "-", value = {
            // strategy      running VMI          create delete printable
            "Always,         -,      none,        true,  false, Starting",
            "Always,         -,      Pending,     false, false, Starting",
            "Always,         -,      Running,     false, false, Running",
            "Always,         -,      Failed,      false, true,  Starting",
            "Always,         -,      Succeeded,   false, true,  Starting",
            "Always,         -,      deleting,    false, false, Stopping",
            "RerunOnFailure, -,      none,        true,  false, Starting",
            "RerunOnFailure, -,      Running,     false, false, Running",
            "RerunOnFailure, -,      Failed,      false, true,  Starting",
            "RerunOnFailure, -,      Succeeded,   false, false, Stopped",
            "Manual,         -,      none,        false, false, Stopped",
            "Manual,         -,      Running,     false, false, Running",
            "Manual,         -,      Failed,      false, false, Stopped",
            "Halted,         -,      none,        false, false, Stopped",
            "Halted,         -,      Running,     false, true,  Stopping",
            "Halted,         -,      Succeeded,   false, true,  Stopped",
            "Halted,         -,      deleting,    false, false, Stopping",
            "Once,           -,      none,        true,  false, Starting",
            "Once,           -,      Succeeded,   false, false, Stopped",
            "-,              true,   none,        true,  false, Starting",
            "-,              true,   Failed,      false, true,  Starting",
            "-,              false,  Running,     false, true,  Stopping",
            "-,              -,      none,        false, false, Stopped",
            "-,              -,      foreign,     false, false, Stopped",
            "Always,         -,      foreign,     false, false, Starting",
    })
    void runStrategies(String strategy, Boolean running, String vmiState, boolean create, boolean delete, String printable) {
        VirtualMachine vm = vm(strategy, running);
        VirtualMachineInstance vmi = switch (vmiState) {
            case "none" -> null;
            case "deleting" -> vmi("Running", true, VM_UID);
            case "foreign" -> vmi("Running", false, "someone-else");
            default -> vmi(vmiState, false, VM_UID);
        };

        VmPlan plan = VmDecision.decide(vm, vmi, NOW);

        assertThat(plan.vmiToCreate() != null).as("create").isEqualTo(create);
        assertThat(plan.deleteVmi()).as("delete").isEqualTo(delete);
        assertThat(plan.status().printableStatus()).isEqualTo(printable);
        assertThat(plan.status().created()).isEqualTo(vmi != null && !"foreign".equals(vmiState));
    }

    /** virt-api's start/stop/restart queue {@code status.stateChangeRequests}; the controller acts on the first. */
    @ParameterizedTest(name = "[{index}] {0}, VMI {1}, requests {2} → create={3} delete={4}, requests after {5}, {6}")
    @CsvSource(nullValues = "-", delimiter = '|', value = {
            // strategy    | VMI      | requests            | create | delete | after           | printable
            "Manual         | none     | Start               | true   | false  | -               | Starting",
            "Manual         | Running  | Start               | false  | false  | ''              | Running",
            "Manual         | Running  | Stop:vmi-uid        | false  | true   | -               | Stopping",
            "Manual         | none     | Stop:vmi-uid,Start  | false  | false  | Start           | Stopped",
            "Manual         | Running  | Stop:old-uid,Start  | false  | false  | Start           | Running",
            "Always         | Running  | Stop:vmi-uid,Start  | false  | true   | -               | Stopping",
            "Always         | none     | Stop:vmi-uid,Start  | true   | false  | Start           | Starting",
            "RerunOnFailure | Running  | Stop:vmi-uid        | false  | true   | -               | Stopping",
            "RerunOnFailure | none     | ''                  | false  | false  | -               | Stopped",
            "RerunOnFailure | none     | Start               | true   | false  | -               | Starting",
            "RerunOnFailure | Failed   | ''                  | false  | true   | Start           | Starting",
    })
    void stateChangeRequests(String strategy, String vmiState, String requests, boolean create, boolean delete, String after,
                             String printable) {
        VirtualMachine vm = vm(strategy, null);
        VirtualMachineStatus status = new VirtualMachineStatus();
        status.setRunStrategy(strategy);
        status.setStateChangeRequests(requests.isEmpty() ? List.of() : java.util.Arrays.stream(requests.split(",")).map(r -> {
            String[] parts = r.split(":");
            return new VirtualMachineStateChangeRequest(parts[0], parts.length > 1 ? parts[1] : null);
        }).toList());
        vm.setStatus(status);
        VirtualMachineInstance vmi = vmiState.equals("none") ? null : vmi(vmiState, false, VM_UID);

        VmPlan plan = VmDecision.decide(vm, vmi, NOW);

        assertThat(plan.vmiToCreate() != null).as("create").isEqualTo(create);
        assertThat(plan.deleteVmi()).as("delete").isEqualTo(delete);
        assertThat(plan.stateChangeRequests() == null ? null : String.join(",", plan.stateChangeRequests().stream()
                .map(r -> r.getAction() + (r.getUid() == null ? "" : ":" + r.getUid())).toList())).as("after").isEqualTo(after);
        assertThat(plan.status().printableStatus()).isEqualTo(printable);
    }

    @Test
    void aDeletedVmIsLeftToTheGarbageCollector() {
        VirtualMachine vm = vm("Always", null);
        vm.getMetadata().setDeletionTimestamp("2025-03-04T05:00:00Z");
        VmPlan plan = VmDecision.decide(vm, null, NOW);
        assertThat(plan.vmiToCreate()).isNull();
        assertThat(plan.status().printableStatus()).isEqualTo("Terminating");
    }

    @Test
    void theNewVmiIsTheTemplateNamedAfterAndControlledByTheVm() {
        VirtualMachineInstance vmi = VmDecision.decide(vm("Always", null), null, NOW).vmiToCreate();

        assertThat(vmi.getMetadata().getName()).isEqualTo("web");
        assertThat(vmi.getMetadata().getNamespace()).isEqualTo("prod");
        assertThat(vmi.getMetadata().getLabels()).containsExactlyEntriesOf(Map.of("app", "web"));
        assertThat(vmi.getMetadata().getAnnotations()).containsEntry("descheduler.alpha.kubernetes.io/evict", "true");
        assertThat(vmi.getMetadata().getOwnerReferences()).singleElement().satisfies(ref -> {
            assertThat(ref.getApiVersion()).isEqualTo("kubevirt.io/v1");
            assertThat(ref.getKind()).isEqualTo("VirtualMachine");
            assertThat(ref.getUid()).isEqualTo(VM_UID);
            assertThat(ref.getController()).isTrue();
            assertThat(ref.getBlockOwnerDeletion()).isTrue();
        });
        assertThat(vmi.getSpec().getEvictionStrategy()).isEqualTo("None");
        assertThat(vmi.getSpec().getNetworks()).as("the template's networks, copied").isNotEmpty();
    }

    @ParameterizedTest(name = "[{index}] VMI {0}, its Ready {1} → ready={2}, condition {3}/{4}")
    @CsvSource(nullValues = "-", value = {
            "none,    -,     false, False, VMINotExists",
            "Pending, -,     false, False, VMIConditionMissing",
            "Running, False, false, False, -",
            "Running, True,  true,  True,  -",
    })
    void readyFollowsTheVmi(String vmiState, String vmiReady, boolean ready, String status, String reason) {
        VirtualMachineInstance vmi = vmiState.equals("none") ? null : vmi(vmiState, false, VM_UID);
        if (vmiReady != null) {
            vmi.getStatus().setConditions(List.of(new Condition("Ready", vmiReady, null, null)));
        }
        VmStatusFields status0 = VmDecision.decide(vm("Always", null), vmi, NOW).status();
        assertThat(status0.ready()).isEqualTo(ready);
        assertThat(status0.readyCondition().getStatus()).isEqualTo(status);
        assertThat(status0.readyCondition().getReason()).isEqualTo(reason);
        assertThat(status0.runStrategy()).isEqualTo("Always");
    }

    @Test
    void statusPatchWritesOnlyWhatDiffers() {
        VirtualMachine vm = vm("Always", null);
        VmStatusFields desired = VmDecision.decide(vm, null, NOW).status();
        String first = VmController.statusPatch(null, desired);
        assertThat(first).contains("\"created\":false", "\"printableStatus\":\"Starting\"", "\"runStrategy\":\"Always\"",
                "\"reason\":\"VMINotExists\"");

        VirtualMachineStatus written = new VirtualMachineStatus();
        written.setCreated(false);
        written.setReady(false);
        written.setPrintableStatus("Starting");
        written.setRunStrategy("Always");
        written.setConditions(List.of(desired.readyCondition()));
        vm.setStatus(written);
        assertThat(VmController.statusPatch(written, VmDecision.decide(vm, null, NOW.plusSeconds(60)).status())).isNull();
    }
}
