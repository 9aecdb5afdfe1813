package dev.drainboard.cluster.kubelet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.drainboard.cluster.apiserver.BuiltinResources;
import dev.drainboard.cluster.apiserver.Json;
import dev.drainboard.cluster.apiserver.store.WatchEvent;
import dev.drainboard.cluster.fabric8.Fabric8Cluster;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.PodResource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/** The simulated kubelets: running pods, and graceful termination paced by the shutdown-delay annotation. */
class SimulatedKubeletsTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(30);
    private static final String NODE = "kubelet-node";

    private static Fabric8Cluster cluster;
    private static KubernetesClient client;
    /** When the store removed each pod ("ns/name"), by the wall clock. */
    private static final Map<String, Instant> removedAt = new ConcurrentHashMap<>();

    @BeforeAll
    static void start() throws Exception {
        cluster = Fabric8Cluster.start();
        client = cluster.client();
        cluster.createNode(NODE);
        cluster.cluster().store().addListener(event -> {
            if (event.type() == WatchEvent.Type.DELETED && event.resource() == BuiltinResources.PODS) {
                removedAt.put(Json.namespace(event.object()) + "/" + Json.name(event.object()), Instant.now());
            }
        });
    }

    @AfterAll
    static void stop() {
        cluster.close();
    }

    @Test
    void aPodBoundToANodeRunsAndBecomesReady() {
        String ns = cluster.newNamespace("kubelet-run");
        client.pods().resource(Fabric8Cluster.podOnNode(ns, "app", NODE, Map.of())).create();

        await().atMost(TIMEOUT).until(() -> isReady(pod(ns, "app").get()));
        Pod pod = pod(ns, "app").get();
        assertThat(pod.getStatus().getPhase()).isEqualTo("Running");
        assertThat(pod.getStatus().getPodIP()).isNotEmpty();
        assertThat(pod.getStatus().getStartTime()).isNotEmpty();
        assertThat(pod.getStatus().getContainerStatuses()).singleElement().satisfies(c -> {
            assertThat(c.getName()).isEqualTo("main");
            assertThat(c.getReady()).isTrue();
            assertThat(c.getState().getRunning()).isNotNull();
        });
    }

    @Test
    void aPodOnNoKnownNodeStaysPending() {
        String ns = cluster.newNamespace("kubelet-unbound");
        client.pods().resource(Fabric8Cluster.podOnNode(ns, "elsewhere", "no-such-node", Map.of())).create();
        // A pod the kubelet does run, created after: once it is Ready the other has been looked at too.
        client.pods().resource(Fabric8Cluster.podOnNode(ns, "marker", NODE, Map.of())).create();

        await().atMost(TIMEOUT).until(() -> isReady(pod(ns, "marker").get()));
        assertThat(pod(ns, "elsewhere").get().getStatus().getPhase()).isEqualTo("Pending");
    }

    @Test
    void aTerminatedPodReportsItsFinalPhaseBeforeItIsRemoved() {
        String ns = cluster.newNamespace("kubelet-final");
        Map<String, String> lastPhase = new ConcurrentHashMap<>();
        cluster.cluster().store().addListener(event -> {
            if (event.type() == WatchEvent.Type.DELETED && event.resource() == BuiltinResources.PODS
                    && Json.namespace(event.object()).equals(ns)) {
                lastPhase.put(Json.name(event.object()), Json.text(event.object(), "status", "phase"));
            }
        });
        createRunning(ns, "done", "0s");
        createRunning(ns, "killed", "1h");

        pod(ns, "done").delete();
        pod(ns, "killed").withGracePeriod(1).delete();

        await().atMost(TIMEOUT).until(() -> lastPhase.size() == 2);
        assertThat(lastPhase).containsEntry("done", "Succeeded").containsEntry("killed", "Failed");
    }

    @Test
    void aGracefullyDeletedPodTerminatesAfterItsShutdownDelayAndNeverBefore() {
        String ns = cluster.newNamespace("kubelet-graceful");
        createRunning(ns, "slow", "3s");

        Instant requested = Instant.now();
        pod(ns, "slow").delete();

        Pod terminating = pod(ns, "slow").get();
        assertThat(terminating).as("still there while its process shuts down").isNotNull();
        assertThat(terminating.getMetadata().getDeletionTimestamp()).isNotNull();
        assertThat(terminating.getMetadata().getDeletionGracePeriodSeconds()).isEqualTo(30L);

        await().atMost(TIMEOUT).until(() -> pod(ns, "slow").get() == null);
        assertThat(Duration.between(requested, removedAt.get(ns + "/slow")))
                .as("removed no earlier than the shutdown delay after the delete")
                .isGreaterThanOrEqualTo(Duration.ofSeconds(3));
    }

    @Test
    void aProcessSlowerThanTheGracePeriodIsKilledAtItsEnd() {
        String ns = cluster.newNamespace("kubelet-killed");
        createRunning(ns, "stubborn", "1h");

        Instant requested = Instant.now();
        pod(ns, "stubborn").withGracePeriod(2).delete();

        await().atMost(TIMEOUT).until(() -> pod(ns, "stubborn").get() == null);
        assertThat(Duration.between(requested, removedAt.get(ns + "/stubborn"))).isGreaterThanOrEqualTo(Duration.ofSeconds(2));
    }

    @Test
    void gracePeriodZeroRemovesThePodAtOnce() {
        String ns = cluster.newNamespace("kubelet-force");
        createRunning(ns, "forced", "1h");

        pod(ns, "forced").withGracePeriod(0).delete();

        assertThat(pod(ns, "forced").get()).as("gone as soon as the delete returns").isNull();
    }

    @Test
    void withoutAShutdownDelayAPodGoesAsSoonAsTheKubeletSeesTheDeletion() {
        String ns = cluster.newNamespace("kubelet-quick");
        client.pods().resource(Fabric8Cluster.podOnNode(ns, "quick", NODE, Map.of())).create();
        await().atMost(TIMEOUT).until(() -> isReady(pod(ns, "quick").get()));

        pod(ns, "quick").delete();

        await().atMost(TIMEOUT).until(() -> pod(ns, "quick").get() == null);
    }

    private static void createRunning(String ns, String name, String shutdownDelay) {
        Pod pod = new PodBuilder(Fabric8Cluster.podOnNode(ns, name, NODE, Map.of()))
                .editMetadata().addToAnnotations(SimulatedKubelets.SHUTDOWN_DELAY, shutdownDelay).endMetadata()
                .build();
        client.pods().resource(pod).create();
        await().atMost(TIMEOUT).until(() -> isReady(pod(ns, name).get()));
    }

    private static PodResource pod(String ns, String name) {
        return client.pods().inNamespace(ns).withName(name);
    }

    private static boolean isReady(Pod pod) {
        return pod != null && pod.getStatus() != null && pod.getStatus().getConditions().stream()
                .anyMatch(c -> c.getType().equals("Ready") && c.getStatus().equals("True"));
    }
}
