package dev.drainboard.handler;

import static org.assertj.core.api.Assertions.assertThat;

import dev.drainboard.handler.VmiSync.DomainAction;
import dev.drainboard.hypervisor.Domain;
import dev.drainboard.hypervisor.DomainState;
import dev.drainboard.hypervisor.StopReason;
import dev.drainboard.kubevirt.api.Condition;
import dev.drainboard.kubevirt.api.VirtualMachineInstance;
import io.fabric8.kubernetes.client.utils.Serialization;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.stream.Collectors;

/** The node handler's decision for one VMI and its domain, one row per situation. */
class VmiSyncTest {

    static final Instant NOW = Instant.parse("2025-01-01T12:00:00Z");
    static final Condition MIGRATABLE = new Condition("LiveMigratable", "True", null, null);

    static VirtualMachineInstance vmi(String phase, boolean deleting, Long grace, String conditions) {
        return Serialization.unmarshal("""
                apiVersion: kubevirt.io/v1
                kind: VirtualMachineInstance
                metadata: {name: vm, namespace: default, uid: uid-1 %s}
                spec: {%s}
                status: {phase: %s, nodeName: n1, conditions: %s}
                """.formatted(deleting ? ", deletionTimestamp: \"2025-01-01T11:59:00Z\"" : "",
                grace == null ? "" : "terminationGracePeriodSeconds: " + grace, phase, conditions), VirtualMachineInstance.class);
    }

    static Domain domain(DomainState state, StopReason reason, boolean sigterm, Instant shutdownAt) {
        return new Domain("uid-1", "default", "vm", "n1", state, reason, 1 << 30, 30, sigterm, shutdownAt, false, null);
    }

    static String summary(VmiSync.Plan plan) {
        String conditions = plan.conditions() == null ? "-"
                : plan.conditions().stream().map(c -> c.getType() + "=" + c.getStatus()).collect(Collectors.joining(" "));
        String events = plan.events().isEmpty() ? "-"
                : plan.events().stream().map(VmiSync.Event::reason).collect(Collectors.joining(" "));
        return plan.action() + " | " + (plan.phase() == null ? "-" : plan.phase()) + " | " + conditions + " | " + events
                + " | " + (plan.requeueAfter() == null ? "-" : plan.requeueAfter().toSeconds() + "s");
    }

    @ParameterizedTest(name = "[{index}] {0}")
    @CsvSource(delimiter = ';', value = {
            // description; VMI phase; deleting; domain state; stop reason; launcher SIGTERM; seconds since first ACPI (- none); expected: action | phase | conditions | events | requeue
            "Scheduled, no domain: define and boot; Scheduled; false; -; NONE; false; -; START | - | - | Created | -",
            "Scheduled, booting: wait; Scheduled; false; STARTING; NONE; false; -; NONE | - | - | - | -",
            "Scheduled, running: Running, migratable, ready; Scheduled; false; RUNNING; NONE; false; -; NONE | Running | LiveMigratable=True Ready=True | Started | -",
            "Running, running, conditions in place: nothing; Running; false; RUNNING; NONE; false; -; NONE | - | - | - | -",
            "Running without a domain (scenario): boot it; Running; false; -; NONE; false; -; START | - | - | Created | -",
            "Pending: not ours yet; Pending; false; -; NONE; false; -; NONE | - | - | - | -",
            "Scheduling: not ours yet; Scheduling; false; -; NONE; false; -; NONE | - | - | - | -",
            "guest shut down: Succeeded; Running; false; SHUTOFF; SHUTDOWN; false; -; NONE | Succeeded | LiveMigratable=True Ready=False | Stopped | -",
            "guest crashed: Failed; Running; false; CRASHED; CRASHED; false; -; NONE | Failed | LiveMigratable=True Ready=False | Stopped | -",
            "destroyed after the grace period: Failed; Running; false; SHUTOFF; DESTROYED; false; -; NONE | Failed | LiveMigratable=True Ready=False | - | -",
            "migrated away: phase unchanged; Running; false; SHUTOFF; MIGRATED; false; -; NONE | - | - | - | -",
            "final VMI, domain off: nothing; Succeeded; false; SHUTOFF; SHUTDOWN; false; -; NONE | - | - | - | -",
            "launcher got SIGTERM: ACPI shutdown; Running; false; RUNNING; NONE; true; -; SHUTDOWN | - | - | ShuttingDown | 5s",
            "VMI deleted: ACPI shutdown; Running; true; RUNNING; NONE; false; -; SHUTDOWN | - | - | ShuttingDown | 5s",
            "final VMI with a live domain: shut down; Failed; false; RUNNING; NONE; false; -; SHUTDOWN | - | - | ShuttingDown | 5s",
            "shutting down, time left: wait, no new signal; Running; true; SHUTTING_DOWN; NONE; false; 10; NONE | - | - | - | 5s",
            "shutting down, 2 s left: look again then; Running; true; SHUTTING_DOWN; NONE; false; 28; NONE | - | - | - | 2s",
            "missed the signal: send it again; Running; true; RUNNING; NONE; false; 10; SHUTDOWN | - | - | - | 5s",
            "grace period over: destroy; Running; true; SHUTTING_DOWN; NONE; false; 30; DESTROY | - | - | Deleted | -",
            "deleted VMI, domain already off: nothing; Running; true; SHUTOFF; SHUTDOWN; false; -; NONE | Succeeded | LiveMigratable=True Ready=False | Stopped | -",
    })
    void decides(String description, String phase, boolean deleting, String state, StopReason reason, boolean sigterm,
                 String sinceShutdown, String expected) {
        VirtualMachineInstance vmi = vmi(phase, deleting, null, phase.equals("Running") || phase.equals("Succeeded") || phase.equals("Failed")
                ? "[{type: LiveMigratable, status: \"True\"}, {type: Ready, status: \"True\"}]" : "[]");
        Domain domain = state.equals("-") ? null : domain(DomainState.valueOf(state), reason, sigterm,
                sinceShutdown.equals("-") ? null : NOW.minusSeconds(Long.parseLong(sinceShutdown)));

        assertThat(summary(VmiSync.decide(vmi, domain, MIGRATABLE, NOW))).isEqualTo(expected);
    }

    @Test
    void aVmiWithAShortGracePeriodIsRecheckedSooner() {
        var plan = VmiSync.decide(vmi("Running", true, 2L, "[]"), domain(DomainState.RUNNING, StopReason.NONE, false, null), MIGRATABLE, NOW);
        assertThat(plan.action()).isEqualTo(DomainAction.SHUTDOWN);
        assertThat(plan.requeueAfter()).isEqualTo(Duration.ofSeconds(2));
    }

    @Test
    void graceZeroDestroysAtOnce() {
        var plan = VmiSync.decide(vmi("Running", true, 0L, "[]"), domain(DomainState.RUNNING, StopReason.NONE, false, null), MIGRATABLE, NOW);
        assertThat(summary(plan)).isEqualTo("DESTROY | - | - | Deleted | -");
    }

    @Test
    void theGoneVmisDomainIsShutDownWithTheGracePeriodItKeptThenUndefined() {
        assertThat(summary(VmiSync.decide(null, domain(DomainState.RUNNING, StopReason.NONE, false, null), null, NOW)))
                .isEqualTo("SHUTDOWN | - | - | - | 5s");
        assertThat(summary(VmiSync.decide(null, domain(DomainState.SHUTTING_DOWN, StopReason.NONE, false, NOW.minusSeconds(31)), null, NOW)))
                .isEqualTo("DESTROY | - | - | - | -");
        assertThat(summary(VmiSync.decide(null, domain(DomainState.SHUTOFF, StopReason.SHUTDOWN, false, null), null, NOW)))
                .isEqualTo("UNDEFINE | - | - | - | -");
    }

    @Test
    void aChangedLiveMigratableReplacesTheOldOneAndMovesItsTransitionTime() {
        VirtualMachineInstance running = vmi("Running", false, null,
                "[{type: LiveMigratable, status: \"True\", lastTransitionTime: \"2025-01-01T10:00:00Z\"}, {type: Ready, status: \"True\", lastTransitionTime: \"2025-01-01T10:00:00Z\"}]");
        var notMigratable = new Condition("LiveMigratable", "False", "NotMigratable", "m");

        var plan = VmiSync.decide(running, domain(DomainState.RUNNING, StopReason.NONE, false, null), notMigratable, NOW);

        assertThat(plan.conditions()).extracting(Condition::getType, Condition::getStatus, Condition::getReason, Condition::getLastTransitionTime)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple("LiveMigratable", "False", "NotMigratable", "2025-01-01T12:00:00Z"),
                        org.assertj.core.groups.Tuple.tuple("Ready", "True", null, "2025-01-01T10:00:00Z"));
    }

    @Test
    void readyFalseFromATerminatingPodIsLeftAlone() {
        VirtualMachineInstance running = vmi("Running", false, null,
                "[{type: LiveMigratable, status: \"True\"}, {type: Ready, status: \"False\", reason: PodTerminating}]");
        var plan = VmiSync.decide(running, domain(DomainState.RUNNING, StopReason.NONE, false, null), MIGRATABLE, NOW);
        assertThat(plan.conditions()).isNull();
    }

    @Test
    void aMigrationTargetDomainIsNotTheHandlersBusiness() {
        Domain incoming = new Domain("uid-1", "default", "vm", "n2", DomainState.RUNNING, StopReason.NONE, 0, 30, false, null, true, null);
        assertThat(VmiSync.decide(vmi("Running", true, null, "[]"), incoming, MIGRATABLE, NOW)).isEqualTo(VmiSync.Plan.NOTHING);
        assertThat(List.of(VmiSync.decide(null, incoming, null, NOW))).containsExactly(VmiSync.Plan.NOTHING);
    }
}
