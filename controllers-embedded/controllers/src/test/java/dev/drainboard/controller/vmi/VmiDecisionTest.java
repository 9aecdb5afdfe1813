package dev.drainboard.controller.vmi;

import dev.drainboard.kubevirt.KubeVirtProfile;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.drainboard.kubevirt.api.Condition;
import dev.drainboard.kubevirt.api.PhaseTransitionTimestamp;
import dev.drainboard.kubevirt.api.VirtualMachineInstance;
import dev.drainboard.kubevirt.api.VirtualMachineInstanceMigration;
import dev.drainboard.kubevirt.api.VirtualMachineInstanceMigrationStatus;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodConditionBuilder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The VMI phase machine of KubeVirt's {@code pkg/virt-controller/watch/vmi/lifecycle.go}, row by row. */
class VmiDecisionTest {

    private static final Instant NOW = Instant.parse("2025-03-04T05:06:07.890Z");

    private static List<Pod> pods(String state, String node) {
        return switch (state) {
            case "none" -> List.of();
            case "pending" -> List.of(Fixtures.pod("virt-launcher-db-01-abcde", node, "Pending", false, false));
            case "ready" -> List.of(Fixtures.pod("virt-launcher-db-01-abcde", node, "Running", true, false));
            case "terminating" -> List.of(Fixtures.pod("virt-launcher-db-01-abcde", node, "Running", true, true));
            case "failed" -> List.of(Fixtures.pod("virt-launcher-db-01-abcde", node, "Failed", false, false));
            case "succeeded" -> List.of(Fixtures.pod("virt-launcher-db-01-abcde", node, "Succeeded", false, false));
            default -> throw new IllegalArgumentException(state);
        };
    }

    @ParameterizedTest(name = "[{index}] {0}, deleted={1}, pod {2}, migration={3} → {4}, create={5}, delete={6}")
    @CsvSource(nullValues = "unset", value = {
            // phase     deleted pod          migration next phase  create delete
            "unset,      false,  none,        false,    Pending,    true,  0",
            "Pending,    false,  none,        false,    Pending,    true,  0",
            "Pending,    false,  none,        true,     Pending,    false, 0",
            "unset,      false,  pending,     false,    Scheduling, false, 0",
            "Pending,    false,  ready,       false,    Scheduling, false, 0",
            "Pending,    true,   none,        false,    Failed,     false, 0",
            "Pending,    true,   pending,     false,    Scheduling, false, 1",
            "Scheduling, false,  pending,     false,    Scheduling, false, 0",
            "Scheduling, false,  ready,       false,    Scheduled,  false, 0",
            "Scheduling, true,   ready,       false,    Scheduling, false, 1",
            "Scheduling, false,  none,        false,    Failed,     false, 0",
            "Scheduling, false,  terminating, false,    Failed,     false, 0",
            "Scheduling, false,  failed,      false,    Failed,     false, 0",
            "Scheduled,  false,  ready,       false,    Scheduled,  false, 0",
            "Scheduled,  false,  none,        false,    Failed,     false, 0",
            "Scheduled,  false,  failed,      false,    Failed,     false, 0",
            "Running,    false,  ready,       false,    Running,    false, 0",
            "Running,    false,  terminating, false,    Running,    false, 0",
            "Running,    false,  none,        false,    Failed,     false, 0",
            "Running,    false,  failed,      false,    Failed,     false, 0",
            "Running,    true,   ready,       false,    Running,    false, 1",
            "Running,    true,   terminating, false,    Running,    false, 0",
            "Failed,     false,  ready,       false,    Failed,     false, 1",
            "Failed,     false,  none,        false,    Failed,     false, 0",
            "Succeeded,  false,  succeeded,   false,    Succeeded,  false, 0",
    })
    void phaseTransitions(String phase, boolean deleted, String podState, boolean migration, String next,
                          boolean create, int deletes) {
        boolean placed = "Scheduled".equals(phase) || "Running".equals(phase);
        VirtualMachineInstance vmi = Fixtures.vmi(phase, deleted, placed ? "node01" : null, null);

        VmiPlan plan = VmiDecision.decide(vmi, pods(podState, "node01"), migration, NOW);

        String expectedChange = next.equals(phase) ? null : next;
        assertThat(plan.change().phase()).as("new phase").isEqualTo(expectedChange);
        assertThat(plan.podToCreate() != null).as("creates a pod").isEqualTo(create);
        assertThat(plan.podsToDelete()).as("pods deleted").hasSize(deletes);
        assertThat(plan.blockedByMigration()).isEqualTo(migration && !create && "none".equals(podState) && !deleted);
        if (expectedChange != null) {
            assertThat(plan.change().phaseTransitionTimestamps()).last()
                    .satisfies(t -> {
                        assertThat(t.getPhase()).isEqualTo(next);
                        assertThat(t.getPhaseTransitionTimestamp()).isEqualTo("2025-03-04T05:06:07Z");
                    });
        } else {
            assertThat(plan.change().phaseTransitionTimestamps()).isNull();
        }
    }

    /** An evicted source launcher ends Failed at the switch-over, a moment before the target node moves nodeName. */
    @org.junit.jupiter.params.ParameterizedTest(name = "migration started={0}, failed={1}, target={2} → {3}")
    @org.junit.jupiter.params.provider.CsvSource({
            "true,  false, node02, -",
            "false, false, node02, Failed",
            "true,  true,  node02, Failed",
            "true,  false, node01, Failed",
    })
    void aFailedSourcePodDuringASwitchOverDoesNotFailTheVmi(boolean started, boolean failed, String target, String expected) {
        VirtualMachineInstance vmi = Fixtures.vmi("Running", false, "node01", null);
        var state = new dev.drainboard.kubevirt.api.MigrationState();
        state.setTargetNode(target);
        state.setStartTimestamp(started ? "2025-01-01T00:00:00Z" : null);
        state.setFailed(failed ? Boolean.TRUE : null);
        vmi.getStatus().setMigrationState(state);

        VmiPlan plan = VmiDecision.decide(vmi, List.of(Fixtures.pod("source", "node01", "Failed", false, false)), false, NOW);

        assertThat(plan.change().phase() == null ? "-" : plan.change().phase()).isEqualTo(expected);
    }

    @org.junit.jupiter.params.ParameterizedTest(name = "pod reason {0}, exit code {1} → {2}")
    @org.junit.jupiter.params.provider.CsvSource({
            "Evicted, 0,   -",
            "Evicted, 137, Failed",
            "'',      0,   Failed",
    })
    void anEvictedPodWhoseLauncherExitedCleanlyLeavesTheEndToTheNodeHandler(String reason, int exitCode, String expected) {
        VirtualMachineInstance vmi = Fixtures.vmi("Running", false, "node01", null);
        Pod pod = Fixtures.pod("source", "node01", "Failed", false, false);
        pod.getStatus().setReason(reason.isEmpty() ? null : reason);
        pod.getStatus().setContainerStatuses(List.of(new io.fabric8.kubernetes.api.model.ContainerStatusBuilder().withName("compute")
                .withNewState().withNewTerminated().withExitCode(exitCode).endTerminated().endState().build()));

        VmiPlan plan = VmiDecision.decide(vmi, List.of(pod), false, NOW);

        assertThat(plan.change().phase() == null ? "-" : plan.change().phase()).isEqualTo(expected);
    }

    /**
     * The guest's interface follows its launcher pod's IP: reported when the VMI is placed, again after a migration
     * moved it to a pod with another IP (same MAC), never for a pod without an IP or a VMI on its way out.
     */
    @ParameterizedTest(name = "[{index}] {0} on {1}, pod {2} with IP {3}, VMI reports {4} → {5}")
    @CsvSource(nullValues = "-", delimiter = '|', value = {
            // phase   | node   | pod state  | pod IP      | VMI reports  | written
            "Scheduling | -      | ready      | 10.244.1.7  | -            | 10.244.1.7",
            "Scheduling | -      | pending    | -           | -            | -",
            "Scheduled  | node03 | ready      | 10.244.1.7  | -            | 10.244.1.7",
            "Running    | node03 | ready      | 10.244.1.7  | 10.244.1.7   | -",
            "Running    | node03 | ready      | 10.244.9.9  | 10.244.1.7   | 10.244.9.9",
            "Running    | node03 | ready      | -           | -            | -",
            "Running    | node03 | failed     | 10.244.9.9  | 10.244.1.7   | -",
            "Succeeded  | node03 | ready      | 10.244.9.9  | 10.244.1.7   | -",
    })
    void theGuestInterfaceFollowsTheLauncherPodsIp(String phase, String node, String podState, String podIp, String reported,
                                                   String written) {
        VirtualMachineInstance vmi = Fixtures.vmi(phase, false, node, null);
        if (reported != null) {
            var iface = new dev.drainboard.kubevirt.api.VirtualMachineInstanceStatus.NetworkInterface();
            iface.setName("default");
            iface.setIpAddress(reported);
            iface.setMac("02:aa:bb:cc:dd:ee");
            vmi.getStatus().setInterfaces(List.of(iface));
        }
        List<Pod> pods = pods(podState, "node03");
        pods.forEach(p -> p.getStatus().setPodIP(podIp));

        var interfaces = VmiDecision.decide(vmi, pods, false, NOW).change().interfaces();

        if (written == null) {
            assertThat(interfaces).isNull();
        } else {
            assertThat(interfaces).singleElement().satisfies(i -> {
                assertThat(i.getName()).isEqualTo("default");
                assertThat(i.getIpAddress()).isEqualTo(written);
                assertThat(i.getIpAddresses()).containsExactly(written);
                assertThat(i.getMac()).isEqualTo(reported != null ? "02:aa:bb:cc:dd:ee" : VmiDecision.macFor(Fixtures.UID));
            });
        }
    }

    private static Pod unschedulable(String message) {
        Pod pod = Fixtures.pod("virt-launcher-db-01-abcde", null, "Pending", false, false);
        pod.getStatus().setConditions(List.of(new PodConditionBuilder().withType("PodScheduled").withStatus("False")
                .withReason("Unschedulable").withMessage(message).withLastTransitionTime("2025-01-01T00:00:05Z").build()));
        return pod;
    }

    private static Condition podScheduled(String message) {
        Condition c = new Condition("PodScheduled", "False", "Unschedulable", message);
        c.setLastTransitionTime("2025-01-01T00:00:05Z");
        return c;
    }

    @Test
    void aVmiWaitingInSchedulingCarriesItsPodsUnschedulableConditionUntilThePodIsScheduled() {
        String why = "0/4 nodes are available: 1 node(s) were unschedulable, 3 node(s) didn't match Pod's node affinity/selector.";
        VirtualMachineInstance vmi = Fixtures.vmi("Scheduling", false, null, null);

        List<Condition> written = VmiDecision.decide(vmi, List.of(unschedulable(why)), false, NOW).change().conditions();
        assertThat(written).singleElement().satisfies(c -> {
            assertThat(c.getType()).isEqualTo("PodScheduled");
            assertThat(c.getStatus()).isEqualTo("False");
            assertThat(c.getReason()).isEqualTo("Unschedulable");
            assertThat(c.getMessage()).isEqualTo(why);
            assertThat(c.getLastTransitionTime()).isEqualTo("2025-01-01T00:00:05Z");
        });

        // Already there with the same words: nothing to write. A new message from the scheduler replaces it.
        vmi.getStatus().setConditions(List.of(podScheduled(why)));
        assertThat(VmiDecision.decide(vmi, List.of(unschedulable(why)), false, NOW).change().conditions()).isNull();
        assertThat(VmiDecision.decide(vmi, List.of(unschedulable("0/5 nodes are available")), false, NOW).change().conditions())
                .singleElement().satisfies(c -> assertThat(c.getMessage()).isEqualTo("0/5 nodes are available"));

        // Scheduled and Ready: the VMI moves on and the condition goes.
        VmiPlan scheduled = VmiDecision.decide(vmi, pods("ready", "node03"), false, NOW);
        assertThat(scheduled.change().phase()).isEqualTo("Scheduled");
        assertThat(scheduled.change().conditions()).isEmpty();
    }

    @Test
    void theUnschedulableConditionSitsBesideEvictionRequested() {
        VirtualMachineInstance vmi = Fixtures.vmi("Scheduling", false, null, "node01");
        assertThat(VmiDecision.decide(vmi, List.of(unschedulable("no room")), false, KubeVirtProfile.V1_7, NOW).change().conditions())
                .extracting(Condition::getType).containsExactlyInAnyOrder("EvictionRequested", "PodScheduled");
    }

    @Test
    void theMacMadeFromTheUidIsALocallyAdministeredUnicastAddressThatStays() {
        assertThat(VmiDecision.macFor(Fixtures.UID)).matches("02(:[0-9a-f]{2}){5}").isEqualTo(VmiDecision.macFor(Fixtures.UID));
        assertThat(VmiDecision.macFor("another-uid")).isNotEqualTo(VmiDecision.macFor(Fixtures.UID));
    }

    @Test
    void scheduledSetsNodeNameAndLabelFromTheReadyPod() {
        VirtualMachineInstance vmi = Fixtures.vmi("Scheduling", false, null, null);
        vmi.getStatus().setPhaseTransitionTimestamps(new ArrayList<>(List.of(new PhaseTransitionTimestamp("Pending", "2025-03-04T05:00:00Z"))));

        VmiPlan plan = VmiDecision.decide(vmi, pods("ready", "node03"), false, NOW);

        assertThat(plan.change().phase()).isEqualTo("Scheduled");
        assertThat(plan.change().nodeName()).isEqualTo("node03");
        assertThat(plan.change().labels()).containsExactly(org.assertj.core.api.Assertions.entry("kubevirt.io/nodeName", "node03"));
        assertThat(plan.change().phaseTransitionTimestamps()).extracting(PhaseTransitionTimestamp::getPhase)
                .containsExactly("Pending", "Scheduled");
    }

    /**
     * The pod a pass created exists: the VMI is written once, at Scheduling, with every phase it went through recorded
     * in order; a change that is not (or no longer) Pending is left alone.
     */
    @ParameterizedTest(name = "[{index}] phase {0}, deleted={1} → {2}, timestamps {3}")
    @CsvSource(nullValues = "unset", delimiter = '|', value = {
            "unset      | false | Scheduling | Pending,Scheduling",
            "Pending    | false | Scheduling | Pending,Scheduling",
            "Pending    | true  | Failed     | Pending,Failed",
            "Scheduling | false | Failed     | Pending,Failed",
    })
    void aCreatedPodMovesAPendingVmiToSchedulingInTheSameWrite(String phase, boolean deleted, String written, String timestamps) {
        VirtualMachineInstance vmi = Fixtures.vmi(phase, deleted, null, null);
        if (phase != null) {
            vmi.getStatus().setPhaseTransitionTimestamps(new ArrayList<>(List.of(new PhaseTransitionTimestamp("Pending", "2025-03-04T05:00:00Z"))));
        }
        VmiChange planned = VmiDecision.decide(vmi, List.of(), false, NOW).change();

        VmiChange change = VmiDecision.podCreated(vmi, planned, NOW);

        assertThat(change.phase()).isEqualTo(written);
        assertThat(change.phaseTransitionTimestamps()).extracting(PhaseTransitionTimestamp::getPhase)
                .containsExactly(timestamps.split(","));
        assertThat(change.finalizers()).isEqualTo(planned.finalizers());
    }

    @Test
    void aPendingVmiWhosePodIsCreatedKeepsItsEarlierTimestamps() {
        VirtualMachineInstance vmi = Fixtures.vmi("Pending", false, null, null);
        vmi.getStatus().setPhaseTransitionTimestamps(new ArrayList<>(List.of(new PhaseTransitionTimestamp("Pending", "2025-03-04T05:00:00Z"))));

        VmiChange change = VmiDecision.podCreated(vmi, VmiDecision.decide(vmi, List.of(), false, NOW).change(), NOW);

        assertThat(change.phase()).isEqualTo("Scheduling");
        assertThat(change.phaseTransitionTimestamps()).extracting(PhaseTransitionTimestamp::getPhase, PhaseTransitionTimestamp::getPhaseTransitionTimestamp)
                .containsExactly(org.assertj.core.api.Assertions.tuple("Pending", "2025-03-04T05:00:00Z"),
                        org.assertj.core.api.Assertions.tuple("Scheduling", "2025-03-04T05:06:07Z"));
    }

    @Test
    void aPodOfAnEarlierVmiWithTheSameNameIsNotOurs() {
        VirtualMachineInstance vmi = Fixtures.vmi("Pending", false, null, null);
        Pod old = pods("ready", "node01").getFirst();
        old.getMetadata().getOwnerReferences().getFirst().setUid("another-uid");
        assertThat(LauncherPodState.ownedBy(old, vmi)).isFalse();
        assertThat(LauncherPodState.ownedBy(pods("ready", "node01").getFirst(), vmi)).isTrue();
    }

    @ParameterizedTest(name = "[{index}] {0}, deleted={1}, pods={2}, has={3} → {4}")
    @CsvSource(nullValues = "unchanged", value = {
            "Pending,   false, false, false, add",
            "Pending,   false, false, true,  unchanged",
            "Running,   false, true,  true,  unchanged",
            "Running,   true,  true,  true,  unchanged",
            "Failed,    false, true,  true,  unchanged",
            "Failed,    false, false, true,  remove",
            "Succeeded, false, false, true,  remove",
            "Failed,    true,  false, true,  remove",
            "Failed,    false, false, false, unchanged",
    })
    void foregroundDeleteFinalizer(String phase, boolean deleted, boolean hasPods, boolean hasFinalizer, String expected) {
        VirtualMachineInstance vmi = Fixtures.vmi(phase, deleted, "node01", null);
        if (hasFinalizer) {
            vmi.getMetadata().setFinalizers(List.of("kubevirt.io/foregroundDeleteVirtualMachine"));
        }
        VmiPlan plan = VmiDecision.decide(vmi, hasPods ? pods("terminating", "node01") : List.of(), false, NOW);
        List<String> finalizers = plan.change().finalizers();
        switch (String.valueOf(expected)) {
            case "add" -> assertThat(finalizers).containsExactly("kubevirt.io/foregroundDeleteVirtualMachine");
            case "remove" -> assertThat(finalizers).isEmpty();
            default -> assertThat(finalizers).isNull();
        }
    }

    @ParameterizedTest(name = "[{index}] marked={0}, condition before={1} → {2}")
    @CsvSource({
            "true,  none,  added",
            "true,  true,  unchanged",
            "true,  stale, added",
            "false, true,  removed",
            "false, none,  unchanged",
    })
    void evictionRequestedFollowsTheEvacuationMark(boolean marked, String before, String expected) {
        VirtualMachineInstance vmi = Fixtures.vmi("Running", false, "node01", marked ? "node01" : null);
        List<Condition> conditions = new ArrayList<>();
        conditions.add(new Condition("Ready", "True", null, null));
        if (!before.equals("none")) {
            conditions.add(new Condition("EvictionRequested", "True", "EvictionRequested",
                    before.equals("stale") ? "old text" : "VMI is marked for eviction"));
        }
        vmi.getStatus().setConditions(conditions);

        VmiPlan plan = VmiDecision.decide(vmi, pods("ready", "node01"), false, KubeVirtProfile.V1_7, NOW);

        List<Condition> after = plan.change().conditions();
        switch (expected) {
            case "unchanged" -> assertThat(after).isNull();
            case "removed" -> assertThat(after).extracting(Condition::getType).containsExactly("Ready");
            case "added" -> {
                assertThat(after).extracting(Condition::getType).containsExactly("Ready", "EvictionRequested");
                Condition c = after.getLast();
                assertThat(c.getStatus()).isEqualTo("True");
                assertThat(c.getReason()).isEqualTo("EvictionRequested");
                assertThat(c.getMessage()).isEqualTo("VMI is marked for eviction");
                assertThat(c.getLastTransitionTime()).isEqualTo("2025-03-04T05:06:07Z");
            }
            default -> throw new IllegalArgumentException(expected);
        }
    }

    @ParameterizedTest(name = "VMIM phase {0} active={1}")
    @CsvSource(nullValues = "unset", value = {
            "unset, false", "Pending, false", "Scheduling, true", "Scheduled, true", "PreparingTarget, true",
            "TargetReady, true", "Running, true", "Succeeded, false", "Failed, false", "WaitingForSync, false",
            "Synchronizing, false",
    })
    void activeMigrationPhases(String phase, boolean active) {
        VirtualMachineInstanceMigration vmim = new VirtualMachineInstanceMigration();
        VirtualMachineInstanceMigrationStatus status = new VirtualMachineInstanceMigrationStatus();
        status.setPhase(phase);
        vmim.setStatus(status);
        assertThat(VmiDecision.hasActiveMigration(List.of(vmim))).isEqualTo(active);
    }

    @Test
    void aRunningPodIsReportedUnpausedOnce() {
        VirtualMachineInstance vmi = Fixtures.vmi("Scheduling", false, null, null);
        Pod pod = pods("ready", "node01").getFirst();
        assertThat(VmiDecision.decide(vmi, List.of(pod), false, NOW).podsToMarkUnpaused()).containsExactly(pod);

        pod.getStatus().getConditions().add(new PodConditionBuilder()
                .withType("kubevirt.io/virtual-machine-unpaused").withStatus("True").build());
        assertThat(VmiDecision.decide(vmi, List.of(pod), false, NOW).podsToMarkUnpaused()).isEmpty();
    }

    @Test
    void patchTestsTheResourceVersionAndWritesOnlyWhatChanged() throws Exception {
        VirtualMachineInstance vmi = Fixtures.vmi("Scheduling", false, null, null);
        vmi.getMetadata().setLabels(java.util.Map.of("app", "db"));
        VmiPlan plan = VmiDecision.decide(vmi, pods("ready", "node03"), false, NOW);

        JsonNode ops = new ObjectMapper().readTree(VmiPatches.jsonPatch(vmi, plan.change()));

        assertThat(ops.get(0).toString()).isEqualTo("{\"op\":\"test\",\"path\":\"/metadata/resourceVersion\",\"value\":\"7\"}");
        List<String> paths = new ArrayList<>();
        ops.forEach(op -> paths.add(op.get("op").asText() + " " + op.get("path").asText()));
        assertThat(paths).containsExactly(
                "test /metadata/resourceVersion",
                "add /metadata/finalizers",
                "add /metadata/labels/kubevirt.io~1nodeName",
                "add /status/phase",
                "add /status/nodeName",
                "add /status/phaseTransitionTimestamps");
        assertThat(VmiPatches.jsonPatch(vmi, VmiChange.NONE)).isNull();
    }
}
