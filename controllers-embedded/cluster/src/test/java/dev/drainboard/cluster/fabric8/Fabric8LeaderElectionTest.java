package dev.drainboard.cluster.fabric8;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.extended.leaderelection.LeaderCallbacks;
import io.fabric8.kubernetes.client.extended.leaderelection.LeaderElectionConfigBuilder;
import io.fabric8.kubernetes.client.extended.leaderelection.resourcelock.LeaseLock;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.ZonedDateTime;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;

/** fabric8's LeaderElector with a coordination.k8s.io/v1 Lease on the embedded API server. */
class Fabric8LeaderElectionTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(60);
    private static final String LEASE = "drainboard-controllers";

    private static Fabric8Cluster cluster;

    @BeforeAll
    static void start() throws Exception {
        cluster = Fabric8Cluster.start();
    }

    @AfterAll
    static void stop() {
        cluster.close();
    }

    @Test
    void oneLeaderRenewsItsLeaseAndTheOtherTakesOverWhenItLetsGo() throws Exception {
        String ns = cluster.newNamespace("election");
        try (KubernetesClient firstClient = cluster.newClient(c -> { });
             KubernetesClient secondClient = cluster.newClient(c -> { })) {
            Candidate first = new Candidate(firstClient, ns, "first");
            CompletableFuture<?> firstRun = first.start();
            await().atMost(TIMEOUT).untilTrue(first.leading);
            assertThat(lease(ns).getSpec().getHolderIdentity()).isEqualTo("first");

            Candidate second = new Candidate(secondClient, ns, "second");
            CompletableFuture<?> secondRun = second.start();
            // While the first renews, the second stays a follower: see the renewTime move on twice.
            Set<ZonedDateTime> renewals = new HashSet<>();
            await().atMost(TIMEOUT).until(() -> {
                Lease lease = lease(ns);
                assertThat(lease.getSpec().getHolderIdentity()).isEqualTo("first");
                renewals.add(lease.getSpec().getRenewTime());
                return renewals.size() >= 3;
            });
            assertThat(second.leading).isFalse();
            assertThat(first.leading).isTrue();

            firstRun.cancel(true); // with releaseOnCancel, the lease is handed back at once

            await().atMost(TIMEOUT).untilTrue(second.leading);
            await().atMost(TIMEOUT).untilAsserted(() ->
                    assertThat(lease(ns).getSpec().getHolderIdentity()).isEqualTo("second"));
            assertThat(first.leading).isFalse();
            assertThat(lease(ns).getSpec().getLeaseTransitions()).isGreaterThanOrEqualTo(1);
            secondRun.cancel(true);
        }
    }

    @Test
    void aLeaderThatStopsWithoutReleasingIsReplacedWhenItsLeaseExpires() throws Exception {
        String ns = cluster.newNamespace("election-expiry");
        try (KubernetesClient firstClient = cluster.newClient(c -> { });
             KubernetesClient secondClient = cluster.newClient(c -> { })) {
            Candidate first = new Candidate(firstClient, ns, "crashing", false);
            CompletableFuture<?> firstRun = first.start();
            await().atMost(TIMEOUT).untilTrue(first.leading);

            Candidate second = new Candidate(secondClient, ns, "survivor");
            CompletableFuture<?> secondRun = second.start();
            firstRun.cancel(true); // stops renewing, but leaves the lease as it is

            await().atMost(TIMEOUT).untilTrue(second.leading);
            assertThat(lease(ns).getSpec().getHolderIdentity()).isEqualTo("survivor");
            secondRun.cancel(true);
        }
    }

    private static Lease lease(String ns) {
        return cluster.client().leases().inNamespace(ns).withName(LEASE).get();
    }

    /** One replica taking part in the election. */
    private static final class Candidate {
        final AtomicBoolean leading = new AtomicBoolean();
        private final KubernetesClient client;
        private final String ns;
        private final String identity;
        private final boolean releaseOnCancel;

        Candidate(KubernetesClient client, String ns, String identity) {
            this(client, ns, identity, true);
        }

        Candidate(KubernetesClient client, String ns, String identity, boolean releaseOnCancel) {
            this.client = client;
            this.ns = ns;
            this.identity = identity;
            this.releaseOnCancel = releaseOnCancel;
        }

        CompletableFuture<?> start() {
            return client.leaderElector().withConfig(new LeaderElectionConfigBuilder()
                            .withName(LEASE)
                            .withLock(new LeaseLock(ns, LEASE, identity))
                            .withLeaseDuration(Duration.ofSeconds(6))
                            .withRenewDeadline(Duration.ofSeconds(4))
                            .withRetryPeriod(Duration.ofMillis(500))
                            .withReleaseOnCancel(releaseOnCancel)
                            .withLeaderCallbacks(new LeaderCallbacks(
                                    () -> leading.set(true),
                                    () -> leading.set(false),
                                    newLeader -> { }))
                            .build())
                    .build()
                    .start();
        }
    }
}
