package dev.drainboard.controlplane;

import dev.drainboard.cluster.EmbeddedCluster;
import dev.drainboard.cluster.EmbeddedClusterOptions;
import dev.drainboard.runtime.ControllerFigures;
import dev.drainboard.runtime.LeaderElection;
import dev.drainboard.runtime.ManagerCrash;
import io.fabric8.kubernetes.client.Config;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** Two Drainboards on one cluster: one runs the controllers; when it dies the other takes over within 15 s. */
class ControlPlaneLeaderElectionTest {

    @Test
    void oneLeaderAndATakeOverWithin15SecondsOfACrash() throws Exception {
        try (EmbeddedCluster cluster = EmbeddedCluster.start(EmbeddedClusterOptions.defaults())) {
            Config config = Config.fromKubeconfig(Files.readString(cluster.kubeconfig()));
            LeaderElection.Options lease = LeaderElection.Options.defaults().withLeaseName("two-planes");
            List<String> changes = new CopyOnWriteArrayList<>();
            try (ControlPlane a = ControlPlane.builder(config).leaderElection(lease.withIdentity("alice@desk/pid-1-a")).build();
                 ControlPlane b = ControlPlane.builder(config).leaderElection(lease.withIdentity("bob@desk/pid-2-b")).build()) {
                a.onLeadershipChange(leading -> changes.add("a:" + leading));
                b.onLeadershipChange(leading -> changes.add("b:" + leading));
                a.start();
                b.start();

                await().atMost(Duration.ofSeconds(20)).until(() -> a.isLeader() || b.isLeader());
                ControlPlane leader = a.isLeader() ? a : b;
                ControlPlane standby = leader == a ? b : a;
                // The standby keeps standing by: its controllers stay stopped.
                await().during(Duration.ofSeconds(3)).atMost(Duration.ofSeconds(5)).until(() -> !standby.isLeader());
                assertThat(standby.figures()).allSatisfy(f -> assertThat(f.state()).isEqualTo(ControllerFigures.State.STOPPED));
                assertThat(leader.figures()).extracting(ControllerFigures::name).containsExactlyInAnyOrder("vmi-controller", "vm-controller",
                        "disruption-budget", "evacuation", "migration", "replicaset-controller");
                await().atMost(Duration.ofSeconds(10)).until(() -> leader.figures().stream()
                        .allMatch(f -> f.state() == ControllerFigures.State.RUNNING));
                assertThat(changes).containsExactly((leader == a ? "a" : "b") + ":true");

                Instant crash = Instant.now();
                ManagerCrash.crash(leader.manager());
                await().atMost(Duration.ofSeconds(15)).until(standby::isLeader);
                assertThat(Duration.between(crash, Instant.now())).isLessThan(Duration.ofSeconds(15));
                assertThat(standby.leaderState().currentLeader()).isEqualTo(standby.leaderState().identity());
                // Listeners hear of it just after the controllers start.
                await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> assertThat(changes)
                        .endsWith((leader == a ? "a" : "b") + ":false", (standby == a ? "a" : "b") + ":true"));
            }
        }
    }
}
