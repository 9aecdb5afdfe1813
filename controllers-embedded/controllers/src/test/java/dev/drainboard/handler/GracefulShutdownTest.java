package dev.drainboard.handler;

import static org.assertj.core.api.Assertions.assertThat;

import dev.drainboard.hypervisor.Domain;
import dev.drainboard.hypervisor.DomainState;
import dev.drainboard.hypervisor.StopReason;
import dev.drainboard.kubevirt.api.VirtualMachineInstance;
import dev.drainboard.kubevirt.config.ClusterConfig;
import dev.drainboard.kubevirt.config.MigrationConfig;
import dev.drainboard.kubevirt.api.EvictionStrategy;
import io.fabric8.kubernetes.client.utils.Serialization;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Graceful shutdown as KubeVirt's {@code docs/graceful-shutdown.md} describes it, the node handler's side: which grace
 * period is observed and when the guest is forced off, for every source of the shutdown signal. The grace period runs
 * from the first ACPI shutdown, which the domain keeps.
 */
class GracefulShutdownTest {

    static final Instant NOW = Instant.parse("2025-01-01T12:00:00Z");

    static VirtualMachineInstance vmi(boolean deleted, Long grace) {
        return Serialization.unmarshal("""
                apiVersion: kubevirt.io/v1
                kind: VirtualMachineInstance
                metadata: {name: vm, namespace: default, uid: uid-1 %s}
                spec: {evictionStrategy: LiveMigrate %s}
                status: {phase: Running, nodeName: n1, conditions: [{type: LiveMigratable, status: "True"}, {type: Ready, status: "True"}]}
                """.formatted(deleted ? ", deletionTimestamp: \"2025-01-01T11:59:00Z\"" : "",
                grace == null ? "" : ", terminationGracePeriodSeconds: " + grace), VirtualMachineInstance.class);
    }

    /** The domain as defined at start: it keeps the grace period the VMI had then (30 when the VMI set none). */
    static Domain domain(long cachedGrace, boolean sigterm, String sinceFirstAcpi) {
        Instant first = sinceFirstAcpi.equals("-") ? null : NOW.minusSeconds(Long.parseLong(sinceFirstAcpi));
        return new Domain("uid-1", "default", "vm", "n1", first == null ? DomainState.RUNNING : DomainState.SHUTTING_DOWN,
                StopReason.NONE, 1L << 30, cachedGrace, sigterm, first, false, null, sigterm ? NOW.minusSeconds(1) : null);
    }

    @ParameterizedTest(name = "[{index}] {0}")
    @CsvSource(delimiter = ';', value = {
            // description; VMI (deleted | sigterm | both | gone); VMI grace (- unset); cached grace; s since first ACPI (- none); expected action, events, requeue
            "unset → 30 s: first signal; deleted; -; 30; -; SHUTDOWN | ShuttingDown | 5s",
            "unset → 30 s: 29 s in, wait; deleted; -; 30; 29; NONE | - | 1s",
            "unset → 30 s: 30 s in, force off; deleted; -; 30; 30; DESTROY | Deleted | -",
            "0 → force off at once; deleted; 0; 0; -; DESTROY | Deleted | -",
            "45 s: first signal, looked at again within 5 s; deleted; 45; 45; -; SHUTDOWN | ShuttingDown | 5s",
            "45 s: 44 s in, wait; deleted; 45; 45; 44; NONE | - | 1s",
            "45 s: 45 s in, force off; deleted; 45; 45; 45; DESTROY | Deleted | -",
            "2 s: looked at again in 2 s, not 5; deleted; 2; 2; -; SHUTDOWN | ShuttingDown | 2s",
            "SIGTERM first: same grace period; sigterm; -; 30; -; SHUTDOWN | ShuttingDown | 5s",
            "SIGTERM then deletion 10 s later: no new event, no new period; both; -; 30; 10; NONE | - | 5s",
            "both, 30 s after the first: force off, not 30 s after the second; both; -; 30; 30; DESTROY | Deleted | -",
            "VMI object gone: the cached 45 s still count; gone; -; 45; 40; NONE | - | 5s",
            "VMI object gone, 45 s in: force off; gone; -; 45; 45; DESTROY | - | -",
    })
    void observesTheGracePeriod(String description, String trigger, String vmiGrace, long cachedGrace, String sinceFirst, String expected) {
        VirtualMachineInstance vmi = trigger.equals("gone") ? null
                : vmi(!trigger.equals("sigterm"), vmiGrace.equals("-") ? null : Long.parseLong(vmiGrace));
        Domain domain = domain(cachedGrace, trigger.equals("sigterm") || trigger.equals("both"), sinceFirst);

        VmiSync.Plan plan = VmiSync.decide(vmi, domain, null, NOW);

        String events = plan.events().isEmpty() ? "-" : String.join(" ", plan.events().stream().map(VmiSync.Event::reason).toList());
        assertThat(plan.action() + " | " + events + " | " + (plan.requeueAfter() == null ? "-" : plan.requeueAfter().toSeconds() + "s"))
                .isEqualTo(expected);
    }

    @Test
    void theHandlerCachesTheGracePeriodWithTheDomainWhenTheVmStarts() {
        assertThat(NodeHandler.definitionOf(vmi(false, 120L)).gracePeriodSeconds()).isEqualTo(120);
        assertThat(NodeHandler.definitionOf(vmi(false, null)).gracePeriodSeconds()).isEqualTo(30);
        assertThat(NodeHandler.definitionOf(vmi(false, 0L)).gracePeriodSeconds()).isZero();
    }

    // --- node-pressure eviction in the same decision ---------------------------------------------------------------

    static final ClusterConfig GATE_ON = new ClusterConfig(EvictionStrategy.NONE, MigrationConfig.defaults(),
            Set.of("NodePressureEvictionLiveMigration"), Optional.empty());

    @Test
    void withTheGateOnASigtermIsTurnedIntoAnEvacuationOnce() {
        VmiSync.Plan plan = VmiSync.decide(vmi(false, null), domain(30, true, "-"), null, GATE_ON,
                Map.of("sim.drainboard.dev/eviction-max-pod-grace-period", "30"), NOW);

        assertThat(plan.action()).isEqualTo(VmiSync.DomainAction.NONE);
        assertThat(plan.evacuation()).isEqualTo(new VmiSync.Evacuation("n1", NOW.minusSeconds(1).plusSeconds(30)));
        assertThat(plan.events()).extracting(VmiSync.Event::reason).containsExactly("NodePressureEvacuation");
        assertThat(plan.events().getFirst().message()).contains("on node n1", "live-migrating it instead of shutting it down",
                "2025-01-01T12:00:29Z");

        VirtualMachineInstance marked = vmi(false, null);
        marked.getStatus().setEvacuationNodeName("n1");
        marked.getMetadata().setAnnotations(Map.of("drainboard.dev/evacuation-cause", "node-pressure eviction",
                "drainboard.dev/node-pressure-deadline", "2025-01-01T12:00:29Z"));
        VmiSync.Plan again = VmiSync.decide(marked, domain(30, true, "-"), null, GATE_ON, Map.of(), NOW);
        assertThat(again.evacuation()).isNull();
        assertThat(again.action()).isEqualTo(VmiSync.DomainAction.NONE);
        assertThat(again.events()).isEmpty();
    }

    @Test
    void withTheGateOnADeletedVmiStillShutsDown() {
        VmiSync.Plan plan = VmiSync.decide(vmi(true, null), domain(30, true, "-"), null, GATE_ON, Map.of(), NOW);
        assertThat(plan.action()).isEqualTo(VmiSync.DomainAction.SHUTDOWN);
        assertThat(plan.evacuation()).isNull();
    }

    @Test
    void killedWhileMovingForNodePressureTheVmiIsLostAndSaysSo() {
        VirtualMachineInstance marked = vmi(false, null);
        marked.getStatus().setEvacuationNodeName("n1");
        marked.getMetadata().setAnnotations(Map.of("drainboard.dev/evacuation-cause", "node-pressure eviction",
                "drainboard.dev/node-pressure-deadline", "2025-01-01T12:00:00Z"));
        Domain killed = new Domain("uid-1", "default", "vm", "n1", DomainState.SHUTOFF, StopReason.DESTROYED, 1L << 30, 30,
                true, null, false, null, NOW.minusSeconds(30));

        VmiSync.Plan plan = VmiSync.decide(marked, killed, null, GATE_ON, Map.of(), NOW);

        assertThat(plan.phase()).isEqualTo("Failed");
        assertThat(plan.events()).singleElement().satisfies(e -> {
            assertThat(e.warning()).isTrue();
            assertThat(e.reason()).isEqualTo("LostToNodePressure");
            assertThat(e.message()).isEqualTo("The VirtualMachineInstance was lost: the kubelet killed its launcher pod on node n1 "
                    + "(node-pressure eviction) before the live migration finished");
        });
        assertThat(plan.lostToNodePressure()).isEqualTo("killed on node n1 at 2025-01-01T12:00:00Z before its live migration finished");

        // An ordinary force-off after a grace period is no loss to node pressure.
        VmiSync.Plan ordinary = VmiSync.decide(vmi(false, null), killed, null, GATE_ON, Map.of(), NOW);
        assertThat(ordinary.lostToNodePressure()).isNull();
        assertThat(ordinary.phase()).isEqualTo("Failed");
    }
}
