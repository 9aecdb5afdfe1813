package dev.drainboard.controlplane;

import dev.drainboard.cluster.EmbeddedCluster;
import dev.drainboard.cluster.EmbeddedClusterOptions;
import dev.drainboard.runtime.ControllerFigures;
import dev.drainboard.runtime.LeaderElection;
import dev.drainboard.runtime.ManagerCrash;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Two Drainboards on one cluster: one runs the controllers; when it dies the other takes over once its Lease has
 * expired. How soon that is follows from the timing (see LeaderElectionTest); here nothing bounds a wall-clock time.
 */
class ControlPlaneLeaderElectionTest {

    /** Only guards against a hang. */
    private static final Duration HANG_GUARD = Duration.ofSeconds(90);

    @Test
    void oneLeaderAndATakeOverOnceTheCrashedLeadersLeaseHasExpired() throws Exception {
        try (EmbeddedCluster cluster = EmbeddedCluster.start(EmbeddedClusterOptions.defaults());
             KubernetesClient client = new KubernetesClientBuilder().withConfig(Config.fromKubeconfig(Files.readString(cluster.kubeconfig()))).build()) {
            Config config = Config.fromKubeconfig(Files.readString(cluster.kubeconfig()));
            LeaderElection.Options lease = LeaderElection.Options.defaults().withLeaseName("two-planes");
            List<String> changes = new CopyOnWriteArrayList<>();
            try (ControlPlane a = ControlPlane.builder(config).leaderElection(lease.withIdentity("alice@desk/pid-1-a")).build();
                 ControlPlane b = ControlPlane.builder(config).leaderElection(lease.withIdentity("bob@desk/pid-2-b")).build()) {
                a.onLeadershipChange(leading -> changes.add("a:" + leading));
                b.onLeadershipChange(leading -> changes.add("b:" + leading));
                a.start();
                b.start();

                await().atMost(HANG_GUARD).until(() -> a.isLeader() || b.isLeader());
                ControlPlane leader = a.isLeader() ? a : b;
                ControlPlane standby = leader == a ? b : a;
                String leaderId = leader.leaderState().identity();
                // The standby has tried and found the Lease held: it stands by, its controllers stopped.
                await().atMost(HANG_GUARD).until(() -> leaderId.equals(standby.leaderState().currentLeader()));
                assertThat(standby.isLeader()).isFalse();
                assertThat(standby.figures()).allSatisfy(f -> assertThat(f.state()).isEqualTo(ControllerFigures.State.STOPPED));
                assertThat(leader.figures()).extracting(ControllerFigures::name).containsExactlyInAnyOrder("vmi-controller", "vm-controller",
                        "disruption-budget", "evacuation", "migration", "replicaset-controller", "pool-controller");
                await().atMost(HANG_GUARD).until(() -> leader.figures().stream()
                        .allMatch(f -> f.state() == ControllerFigures.State.RUNNING));
                assertThat(changes).containsExactly((leader == a ? "a" : "b") + ":true");

                ManagerCrash.crash(leader.manager());
                Lease abandoned = lease(client);
                assertThat(abandoned.getSpec().getHolderIdentity()).as("a crash releases nothing").isEqualTo(leaderId);
                await().atMost(HANG_GUARD).until(standby::isLeader);
                assertThat(standby.leaderState().currentLeader()).isEqualTo(standby.leaderState().identity());
                Lease taken = lease(client);
                assertThat(taken.getSpec().getHolderIdentity()).isEqualTo(standby.leaderState().identity());
                assertThat(taken.getSpec().getAcquireTime()).as("taken only once the crashed leader's Lease had expired")
                        .isAfterOrEqualTo(abandoned.getSpec().getRenewTime().plusSeconds(abandoned.getSpec().getLeaseDurationSeconds()));
                // Listeners hear of it just after the controllers start.
                await().atMost(HANG_GUARD).untilAsserted(() -> assertThat(changes)
                        .endsWith((leader == a ? "a" : "b") + ":false", (standby == a ? "a" : "b") + ":true"));
            }
        }
    }

    private static Lease lease(KubernetesClient client) {
        return client.leases().inNamespace(LeaderElection.Options.DEFAULT_NAMESPACE).withName("two-planes").get();
    }
}
