package dev.drainboard.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Files;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import dev.drainboard.cluster.EmbeddedCluster;
import dev.drainboard.cluster.EmbeddedClusterOptions;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Two controller managers ("two Drainboards") on one embedded cluster, with the production timing
 * (lease 10 s, renew deadline 7 s, retry 2 s).
 */
class LeaderElectionTest {

    /**
     * The promise is 15 s. Worst case: the lease runs 10 s past the last renewal (≤ 10 s after the
     * crash), plus one jittered candidate retry (≤ 4.4 s); 1 s margin for a loaded test machine.
     */
    private static final Duration CRASH_TAKEOVER_LIMIT = Duration.ofSeconds(15 + 1);
    /** After a clean stop the lease is empty: the next candidate retry (≤ 4.4 s) takes it. */
    private static final Duration CLEAN_HANDOVER_LIMIT = Duration.ofSeconds(6);

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
        var options = LeaderElection.Options.defaults().withLeaseName(lease).withNamespace("kube-system");
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

    private static String holder(String lease) throws Exception {
        try (KubernetesClient c = newClient()) {
            Lease l = c.leases().inNamespace("kube-system").withName(lease).get();
            return l == null ? null : l.getSpec().getHolderIdentity();
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
    void exactlyOneLeaderRunsTheControllersAndACleanStopHandsOverQuickly() throws Exception {
        Drainboard a = drainboard("a", "clean-handover");
        Drainboard b = drainboard("b", "clean-handover");
        a.manager().start();
        b.manager().start();

        await().atMost(CLEAN_HANDOVER_LIMIT).until(() -> a.leads() || b.leads());
        Drainboard leader = a.leads() ? a : b;
        Drainboard follower = leader == a ? b : a;
        AtomicBoolean violated = new AtomicBoolean();
        // Checked over several renewal periods: the follower keeps trying, and must keep failing.
        await().during(Duration.ofSeconds(6)).atMost(Duration.ofSeconds(8)).pollInterval(Duration.ofMillis(50))
                .until(() -> atMostOneActs(violated, a, b) && leader.leads());
        assertThat(violated).isFalse();
        assertThat(leader.controllerRuns()).isTrue();
        String leaderId = leader.manager().leaderState().identity();
        assertThat(leaderId).matches(".+@.+/pid-\\d+-[0-9a-f]{6}");
        assertThat(holder("clean-handover")).isEqualTo(leaderId);
        assertThat(follower.manager().leaderState().currentLeader()).as("the follower knows who leads").isEqualTo(leaderId);
        assertThat(follower.manager().leaderState().leader()).isFalse();

        long stoppedAt = System.nanoTime();
        leader.manager().stop();
        assertThat(leader.leads()).isFalse();
        assertThat(leader.controllerRuns()).as("controllers stop before the lease is released").isFalse();
        await().atMost(CLEAN_HANDOVER_LIMIT).pollInterval(Duration.ofMillis(50))
                .until(() -> atMostOneActs(violated, a, b) && follower.leads());
        Duration handover = Duration.ofNanos(System.nanoTime() - stoppedAt);
        System.out.println("clean hand-over took " + handover.toMillis() + " ms");
        assertThat(violated).isFalse();
        assertThat(holder("clean-handover")).isEqualTo(follower.manager().leaderState().identity());
        await().until(() -> follower.controllerRuns() && follower.controller().isRunning());
    }

    @Test
    void aCrashedLeaderIsReplacedOnceItsLeaseExpires() throws Exception {
        Drainboard a = drainboard("a", "crash-takeover");
        a.manager().start();
        await().atMost(CLEAN_HANDOVER_LIMIT).until(a::leads);
        Drainboard b = drainboard("b", "crash-takeover");
        b.manager().start();
        await().atMost(CLEAN_HANDOVER_LIMIT).until(() -> a.manager().leaderState().identity().equals(b.manager().leaderState().currentLeader()));

        long crashedAt = System.nanoTime();
        a.manager().crash();
        assertThat(holder("crash-takeover")).as("a crash releases nothing").isEqualTo(a.manager().leaderState().identity());
        AtomicBoolean violated = new AtomicBoolean();
        await().atMost(CRASH_TAKEOVER_LIMIT).pollInterval(Duration.ofMillis(100))
                .until(() -> atMostOneActs(violated, a, b) && b.leads());
        Duration takeover = Duration.ofNanos(System.nanoTime() - crashedAt);
        System.out.println("take-over after a crash took " + takeover.toMillis() + " ms");
        assertThat(violated).isFalse();
        assertThat(holder("crash-takeover")).isEqualTo(b.manager().leaderState().identity());
        await().until(() -> b.controller().isRunning());
    }
}
