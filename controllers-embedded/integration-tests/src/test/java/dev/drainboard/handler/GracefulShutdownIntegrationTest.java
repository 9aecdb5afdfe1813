package dev.drainboard.handler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.drainboard.cluster.fabric8.Fabric8Cluster;
import dev.drainboard.cluster.hypervisor.SimulatedHypervisor;
import dev.drainboard.hypervisor.Domain;
import dev.drainboard.hypervisor.DomainState;
import dev.drainboard.hypervisor.HypervisorRegistry;
import dev.drainboard.hypervisor.StopReason;
import dev.drainboard.kubevirt.api.VirtualMachineInstance;
import dev.drainboard.runtime.Keys;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.utils.Serialization;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;

/**
 * Graceful shutdown end to end through the Kubernetes API, on a clock the test moves: the node handler and one
 * simulated hypervisor (guests that ignore ACPI, so only the end of the grace period stops them) share it, so a 30 s
 * grace period is observed without waiting 30 s. After each move the test has the handler look again and waits until it
 * has, so "not yet destroyed" is a fact about a finished pass, not about timing.
 */
class GracefulShutdownIntegrationTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(30);
    private static final String NODE = "graceful-node";

    private static Fabric8Cluster cluster;
    private static KubernetesClient client;
    private static ScheduledExecutorService timers;

    private final TestClock clock = new TestClock(Instant.parse("2025-06-01T10:00:00Z"));
    private HypervisorRegistry registry;
    private SimulatedHypervisor hypervisor;
    private NodeHandler handler;

    @BeforeAll
    static void startCluster() throws Exception {
        cluster = Fabric8Cluster.start();
        client = cluster.client();
        timers = Executors.newSingleThreadScheduledExecutor();
    }

    @AfterAll
    static void stopCluster() {
        timers.shutdownNow();
        cluster.close();
    }

    @BeforeEach
    void startHandler() {
        registry = new HypervisorRegistry();
        hypervisor = new SimulatedHypervisor(NODE, clock, timers, SimulatedHypervisor.Timing.defaults());
        registry.register(hypervisor);
        handler = new NodeHandler(client, registry, 2, clock);
        handler.start();
    }

    @AfterEach
    void stopHandler() {
        handler.close();
    }

    @Test
    void unsetGracePeriodIs30SecondsCountedFromTheDeletion() {
        String ns = cluster.newNamespace("grace-default");
        VirtualMachineInstance vmi = runningVmi(ns, null);
        Instant deleted = clock.instant();

        client.resources(VirtualMachineInstance.class).inNamespace(ns).withName("vm").delete();

        await().atMost(TIMEOUT).until(() -> domain(vmi).state() == DomainState.SHUTTING_DOWN);
        assertThat(domain(vmi).shutdownRequestedAt()).isEqualTo(deleted);
        moveTo(deleted.plusSeconds(29), vmi);
        assertThat(domain(vmi).state()).isEqualTo(DomainState.SHUTTING_DOWN);
        moveTo(deleted.plusSeconds(30), vmi);
        await().atMost(TIMEOUT).until(() -> domain(vmi) == null || domain(vmi).stopReason() == StopReason.DESTROYED);
    }

    @Test
    void zeroForcesTheGuestOffAtOnce() {
        String ns = cluster.newNamespace("grace-zero");
        VirtualMachineInstance vmi = runningVmi(ns, 0L);

        hypervisor.requestGracefulShutdown(vmi.getMetadata().getUid()); // the launcher's SIGTERM

        await().atMost(TIMEOUT).until(() -> domain(vmi).stopReason() == StopReason.DESTROYED);
        assertThat(domain(vmi).shutdownRequestedAt()).isNull(); // no ACPI was ever sent
        await().atMost(TIMEOUT).until(() -> "Failed".equals(vmi(ns).getStatus().getPhase()));
        assertThat(reasons(ns)).contains("Deleted").doesNotContain("ShuttingDown");
    }

    @Test
    void sigtermAndDeletionRacingGiveOneGracePeriodFromTheFirst() {
        String ns = cluster.newNamespace("grace-race");
        VirtualMachineInstance vmi = runningVmi(ns, 45L);
        Instant sigterm = clock.instant();

        hypervisor.requestGracefulShutdown(vmi.getMetadata().getUid());
        await().atMost(TIMEOUT).until(() -> domain(vmi).state() == DomainState.SHUTTING_DOWN);
        clock.set(sigterm.plusSeconds(10));
        client.resources(VirtualMachineInstance.class).inNamespace(ns).withName("vm").delete();
        await().atMost(TIMEOUT).until(() -> vmi(ns) == null);

        moveTo(sigterm.plusSeconds(44), vmi);
        assertThat(domain(vmi).state()).as("44 s after the first signal").isEqualTo(DomainState.SHUTTING_DOWN);
        assertThat(domain(vmi).shutdownRequestedAt()).isEqualTo(sigterm);
        moveTo(sigterm.plusSeconds(45), vmi);
        await().atMost(TIMEOUT).until(() -> domain(vmi) == null || domain(vmi).stopReason() == StopReason.DESTROYED);
        assertThat(reasons(ns).stream().filter("ShuttingDown"::equals)).as("one signal event").hasSize(1);
    }

    @Test
    void aHandlerRestartMidPeriodKeepsTheDeadline() {
        String ns = cluster.newNamespace("grace-restart");
        VirtualMachineInstance vmi = runningVmi(ns, null);
        Instant sigterm = clock.instant();
        hypervisor.requestGracefulShutdown(vmi.getMetadata().getUid());
        await().atMost(TIMEOUT).until(() -> domain(vmi).state() == DomainState.SHUTTING_DOWN);
        clock.set(sigterm.plusSeconds(20));

        handler.close();
        handler = new NodeHandler(client, registry, 2, clock);
        handler.start();
        await().atMost(TIMEOUT).until(handler::hasSynced);

        moveTo(sigterm.plusSeconds(29), vmi);
        assertThat(domain(vmi).state()).as("29 s after SIGTERM, 9 s after the restart").isEqualTo(DomainState.SHUTTING_DOWN);
        moveTo(sigterm.plusSeconds(30), vmi);
        await().atMost(TIMEOUT).until(() -> domain(vmi).stopReason() == StopReason.DESTROYED);
        await().atMost(TIMEOUT).until(() -> "Failed".equals(vmi(ns).getStatus().getPhase()));
        assertThat(reasons(ns).stream().filter("ShuttingDown"::equals)).as("no second signal event after the restart").hasSize(1);
    }

    // --- helpers -------------------------------------------------------------------------------------------

    /** A VMI Running on the test node, its guest ignoring ACPI. */
    private VirtualMachineInstance runningVmi(String ns, Long grace) {
        VirtualMachineInstance vmi = Serialization.unmarshal("""
                apiVersion: kubevirt.io/v1
                kind: VirtualMachineInstance
                metadata: {name: vm, namespace: %s, annotations: {sim.drainboard.dev/guest-shutdown-delay: never}}
                spec:
                  %s
                  networks: [{name: default, pod: {}}]
                  domain: {devices: {interfaces: [{name: default, masquerade: {}}]}, memory: {guest: 1Gi}}
                """.formatted(ns, grace == null ? "" : "terminationGracePeriodSeconds: " + grace), VirtualMachineInstance.class);
        VirtualMachineInstance created = client.resources(VirtualMachineInstance.class).resource(vmi).create();
        client.resources(VirtualMachineInstance.class).inNamespace(ns).withName("vm")
                // No VMI controller runs here to release the finalizer virt-api adds: dropped, so a delete removes the VMI.
                .patch(PatchContext.of(PatchType.JSON_MERGE), "{\"metadata\": {\"finalizers\": null}, \"status\": {\"phase\": \"Scheduled\", \"nodeName\": \"" + NODE + "\"}}");
        await().atMost(TIMEOUT).until(() -> "Running".equals(vmi(ns).getStatus().getPhase()));
        return created;
    }

    /** Moves the clock, has the handler look at the VMI, and waits until that pass is over. */
    private void moveTo(Instant when, VirtualMachineInstance vmi) {
        clock.set(when);
        long before = handler.figures().reconciles();
        handler.resync(Keys.of(vmi));
        await().atMost(TIMEOUT).until(() -> handler.figures().reconciles() > before
                && handler.figures().inFlight() == 0 && handler.figures().queueDepth() == 0);
    }

    private Domain domain(VirtualMachineInstance vmi) {
        return hypervisor.domain(vmi.getMetadata().getUid()).orElse(null);
    }

    private static VirtualMachineInstance vmi(String ns) {
        return client.resources(VirtualMachineInstance.class).inNamespace(ns).withName("vm").get();
    }

    private static java.util.List<String> reasons(String ns) {
        return client.v1().events().inNamespace(ns).list().getItems().stream().map(e -> e.getReason()).toList();
    }

    /** The handler's and the hypervisor's clock. */
    static final class TestClock extends Clock {
        private volatile Instant now;

        TestClock(Instant start) {
            this.now = start;
        }

        void set(Instant instant) {
            now = instant;
        }

        @Override
        public ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return now;
        }
    }
}
