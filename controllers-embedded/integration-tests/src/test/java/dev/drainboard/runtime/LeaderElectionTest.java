package dev.drainboard.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Files;
import java.time.Duration;
import java.time.ZonedDateTime;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import dev.drainboard.cluster.EmbeddedCluster;
import dev.drainboard.cluster.EmbeddedClusterOptions;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.extended.leaderelection.LeaderElector;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Two controller managers ("two Drainboards") on one embedded cluster. Nothing here bounds a wall-clock time: what is
 * checked is who holds the Lease and what caused a change of holder, read from the Lease itself. The hand-over
 * times Drainboard promises follow from the timing options and fabric8's jitter, checked as arithmetic below.
 */
class LeaderElectionTest {

    /** Only guards against a hang; every wait below ends long before on a working election. */
    private static final Duration HANG_GUARD = Duration.ofSeconds(90);

    private static EmbeddedCluster cluster;
    private final List<Drainboard> drainboards = new java.util.ArrayList<>();

    /** One process-equivalent: a manager with its own client and one controller. */
    private record Drainboard(String name, ControllerManager manager, ControllerLoop<String> controller, AtomicInteger passes) {
        boolean leads() {
            return manager.isLeader();
        }

        boolean controllerRuns() {
            return controller.figures().state() != ControllerFigures.State.STOPPED;
        }
    }

    @BeforeAll
    static void startCluster() throws Exception {
        cluster = EmbeddedCluster.start(EmbeddedClusterOptions.defaults());
    }

    @AfterAll
    static void stopCluster() {
        cluster.close();
    }

    @AfterEach
    void stopDrainboards() {
        drainboards.forEach(d -> d.manager().close());
    }

    private static KubernetesClient newClient() throws Exception {
        return new KubernetesClientBuilder().withConfig(Config.fromKubeconfig(Files.readString(cluster.kubeconfig()))).build();
    }

    private Drainboard drainboard(String name, String lease) throws Exception {
        return drainboard(name, LeaderElection.Options.defaults().withLeaseName(lease).withNamespace("kube-system"));
    }

    private Drainboard drainboard(String name, LeaderElection.Options options) throws Exception {
        ControllerManager manager = new ControllerManager(newClient(), options);
        AtomicInteger passes = new AtomicInteger();
        ControllerLoop<String> loop = ControllerLoop.<String>builder(name + "-controller", key -> {
            passes.incrementAndGet();
            return Result.done();
        }).build();
        manager.register(loop);
        Drainboard d = new Drainboard(name, manager, loop, passes);
        drainboards.add(d);
        return d;
    }

    private static Lease lease(String name) throws Exception {
        try (KubernetesClient c = newClient()) {
            return c.leases().inNamespace("kube-system").withName(name).get();
        }
    }

    private static String holder(String lease) throws Exception {
        Lease l = lease(lease);
        return l == null ? null : l.getSpec().getHolderIdentity();
    }

    /** When a Lease record stops being valid: its last renewal plus its duration, as every candidate reads it. */
    private static ZonedDateTime expiry(Lease lease) {
        return lease.getSpec().getRenewTime().plusSeconds(lease.getSpec().getLeaseDurationSeconds());
    }

    /** fabric8's jitter of a candidate's retry period: up to this factor more (its LeaderElector.JITTER_FACTOR). */
    private static final class Fabric8Jitter extends LeaderElector {
        private Fabric8Jitter() {
            super(null, null, null);
        }

        static double maxFactor() {
            return JITTER_FACTOR;
        }
    }

    /** At most one leader, and only a leader's controllers run. Records a violation instead of failing mid-poll. */
    private static boolean atMostOneActs(AtomicBoolean violated, Drainboard... all) {
        int leaders = 0;
        int running = 0;
        for (Drainboard d : all) {
            leaders += d.leads() ? 1 : 0;
            running += d.controllerRuns() ? 1 : 0;
            if (d.controllerRuns() && !d.leads()) {
                violated.set(true);
            }
        }
        if (leaders > 1 || running > 1) {
            violated.set(true);
        }
        return !violated.get();
    }

    @Test
    void theDefaultTimingKeepsThePromisesOfLeaderElectionsJavadoc() {
        var d = LeaderElection.Options.defaults();
        Duration longestRetry = Duration.ofMillis(Math.round(d.retryPeriod().toMillis() * (1 + Fabric8Jitter.maxFactor())));
        // A crashed leader's Lease stays valid for leaseDuration after its last renewal, which came before the crash;
        // a candidate takes it at its first retry after that. Drainboard promises a take-over within 15 s.
        assertThat(d.leaseDuration().plus(longestRetry)).isLessThanOrEqualTo(Duration.ofSeconds(15));
        // A leader that cannot renew steps down before its Lease runs out: never two leaders acting at once.
        assertThat(d.renewDeadline()).isLessThan(d.leaseDuration());
        // A released Lease is taken at the next retry, well before a Lease duration has passed.
        assertThat(longestRetry).isLessThan(d.leaseDuration());
    }

    @Test
    void exactlyOneLeaderRunsTheControllersAndACleanStopHandsTheLeaseOver() throws Exception {
        // A Lease valid for 10 minutes: within this test only the release can hand it over, never its expiry.
        var options = LeaderElection.Options.defaults().withLeaseName("clean-handover").withNamespace("kube-system")
                .withTiming(Duration.ofMinutes(10), LeaderElection.Options.DEFAULT_RENEW_DEADLINE, LeaderElection.Options.DEFAULT_RETRY_PERIOD);
        Drainboard a = drainboard("a", options.withIdentity(LeaderIdentity.generate()));
        Drainboard b = drainboard("b", options.withIdentity(LeaderIdentity.generate()));
        a.manager().start();
        b.manager().start();

        await().atMost(HANG_GUARD).until(() -> a.leads() || b.leads());
        Drainboard leader = a.leads() ? a : b;
        Drainboard follower = leader == a ? b : a;
        String leaderId = leader.manager().leaderState().identity();
        // The follower has tried and read the Lease: it knows who leads.
        await().atMost(HANG_GUARD).until(() -> leaderId.equals(follower.manager().leaderState().currentLeader()));
        AtomicBoolean violated = new AtomicBoolean();
        // Checked while the leader renews three times: the follower tries at the same pace, and must keep failing.
        Set<ZonedDateTime> renewals = new HashSet<>();
        await().atMost(HANG_GUARD).pollInterval(Duration.ofMillis(50)).until(() -> {
            if (!leader.leads()) {
                violated.set(true);
            }
            Lease now = lease("clean-handover");
            if (leaderId.equals(now.getSpec().getHolderIdentity())) {
                renewals.add(now.getSpec().getRenewTime());
            }
            return !atMostOneActs(violated, a, b) || renewals.size() >= 4;
        });
        assertThat(violated).isFalse();
        assertThat(leader.controllerRuns()).isTrue();
        assertThat(leaderId).matches(".+@.+/pid-\\d+-[0-9a-f]{6}");
        assertThat(holder("clean-handover")).isEqualTo(leaderId);
        assertThat(follower.manager().leaderState().leader()).isFalse();

        Lease held = lease("clean-handover");
        leader.manager().stop();
        assertThat(leader.leads()).isFalse();
        assertThat(leader.controllerRuns()).as("controllers stop before the lease is released").isFalse();
        // fabric8 releases a Lease by cutting its duration to 1 s (or the follower has taken it already).
        Lease released = lease("clean-handover");
        assertThat(!leaderId.equals(released.getSpec().getHolderIdentity()) || released.getSpec().getLeaseDurationSeconds() == 1)
                .as("released as stop returns: " + released.getSpec()).isTrue();
        await().atMost(HANG_GUARD).pollInterval(Duration.ofMillis(50))
                .until(() -> !atMostOneActs(violated, a, b) || follower.leads());
        assertThat(violated).isFalse();
        Lease taken = lease("clean-handover");
        assertThat(taken.getSpec().getHolderIdentity()).isEqualTo(follower.manager().leaderState().identity());
        assertThat(taken.getSpec().getAcquireTime()).as("taken once released, long before the old record expired")
                .isBefore(expiry(held));
        await().atMost(HANG_GUARD).until(() -> follower.controllerRuns() && follower.controller().isRunning());
    }

    /**
     * A leader that stalled can find its expired Lease taken by another process while it still thinks it leads
     * (seen in the chaos test: two leaders for 8 s under load). It stops its controllers as soon as it sees the other
     * holder, not at its renew deadline: here 10 minutes away, with renewals 5 minutes apart.
     */
    @Test
    void aLeaderThatFindsAnotherHolderInTheLeaseStopsAtOnce() throws Exception {
        var options = LeaderElection.Options.defaults().withLeaseName("taken-over").withNamespace("kube-system")
                .withTiming(Duration.ofMinutes(20), Duration.ofMinutes(10), Duration.ofMinutes(5));
        Drainboard a = drainboard("a", options.withIdentity(LeaderIdentity.generate()));
        a.manager().start();
        await().atMost(HANG_GUARD).until(() -> a.leads() && a.controllerRuns());

        // Another process takes the Lease (as it may once the record has expired by its reading).
        try (KubernetesClient c = newClient()) {
            c.leases().inNamespace("kube-system").withName("taken-over").edit(l -> {
                l.getSpec().setHolderIdentity("other@host/pid-1-abcdef");
                l.getSpec().setAcquireTime(ZonedDateTime.now());
                l.getSpec().setRenewTime(ZonedDateTime.now());
                return l;
            });
        }
        // Long before a's next renewal (5 minutes) or renew deadline (10 minutes).
        await().atMost(HANG_GUARD).until(() -> !a.leads() && !a.controllerRuns());
        assertThat(a.manager().leaderState().currentLeader()).isEqualTo("other@host/pid-1-abcdef");
        assertThat(holder("taken-over")).as("a does not release a Lease that is not its own").isEqualTo("other@host/pid-1-abcdef");
    }

    @Test
    void aCrashedLeaderIsReplacedOnlyOnceItsLeaseHasExpired() throws Exception {
        Drainboard a = drainboard("a", "crash-takeover");
        a.manager().start();
        await().atMost(HANG_GUARD).until(a::leads);
        Drainboard b = drainboard("b", "crash-takeover");
        b.manager().start();
        await().atMost(HANG_GUARD).until(() -> a.manager().leaderState().identity().equals(b.manager().leaderState().currentLeader()));

        long crashedAt = System.nanoTime();
        a.manager().crash();
        Lease abandoned = lease("crash-takeover");
        assertThat(abandoned.getSpec().getHolderIdentity()).as("a crash releases nothing").isEqualTo(a.manager().leaderState().identity());
        assertThat(abandoned.getSpec().getLeaseDurationSeconds()).isEqualTo((int) LeaderElection.Options.DEFAULT_LEASE_DURATION.toSeconds());
        AtomicBoolean violated = new AtomicBoolean();
        await().atMost(HANG_GUARD).pollInterval(Duration.ofMillis(100))
                .until(() -> !atMostOneActs(violated, a, b) || b.leads());
        System.out.println("take-over after a crash took " + Duration.ofNanos(System.nanoTime() - crashedAt).toMillis() + " ms");
        assertThat(violated).isFalse();
        Lease taken = lease("crash-takeover");
        assertThat(taken.getSpec().getHolderIdentity()).isEqualTo(b.manager().leaderState().identity());
        // Caused by the expiry, never earlier: b's acquisition is stamped after the abandoned record ran out (a
        // renewal in flight during the crash could only have moved that later).
        assertThat(taken.getSpec().getAcquireTime()).isAfterOrEqualTo(expiry(abandoned));
        await().atMost(HANG_GUARD).until(() -> b.controller().isRunning());
    }
}
