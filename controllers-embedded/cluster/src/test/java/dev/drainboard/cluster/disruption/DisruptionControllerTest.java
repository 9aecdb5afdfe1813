package dev.drainboard.cluster.disruption;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.drainboard.cluster.apiserver.BuiltinResources;
import dev.drainboard.cluster.apiserver.Json;
import dev.drainboard.cluster.apiserver.PodConditions;
import dev.drainboard.cluster.apiserver.store.ObjectStore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;

/**
 * The disruption controller on a bare store: a budget's status follows the pods its selector picks, whichever way a
 * pod comes into or goes out of it (created, labelled, relabelled, deleted), for selectors that require a label and
 * for those that do not.
 */
class DisruptionControllerTest {

    private final ObjectStore store = new ObjectStore();
    private DisruptionController controller;

    @BeforeEach
    void start() {
        controller = new DisruptionController(store);
        controller.start();
    }

    @AfterEach
    void stop() {
        controller.close();
    }

    @Test
    void countsTheReadyPodsCarryingTheRequiredLabel() {
        budget("one-vm", "{\"matchLabels\":{\"kubevirt.io/created-by\":\"uid-1\"}}");
        pod("launcher-1", Map.of("kubevirt.io/created-by", "uid-1"), true);
        pod("launcher-2", Map.of("kubevirt.io/created-by", "uid-2"), true);
        awaitStatus("one-vm", 1, 1);

        pod("target-1", Map.of("kubevirt.io/created-by", "uid-1"), false);
        awaitStatus("one-vm", 2, 1);
        setReady("target-1");
        awaitStatus("one-vm", 2, 2);
    }

    @Test
    void aPodRelabelledAwayOrDeletedStopsCounting() {
        budget("app", "{\"matchLabels\":{\"app\":\"db\",\"tier\":\"back\"}}");
        pod("db-0", Map.of("app", "db", "tier", "back"), true);
        pod("db-1", Map.of("app", "db", "tier", "back"), true);
        awaitStatus("app", 2, 2);

        relabel("db-0", Map.of("app", "web", "tier", "back"));
        awaitStatus("app", 1, 1);
        relabel("db-0", Map.of("app", "db", "tier", "back"));
        awaitStatus("app", 2, 2);
        store.remove(BuiltinResources.PODS, "ns", "db-1", false);
        awaitStatus("app", 1, 1);
    }

    @Test
    void selectorsWithoutASingleRequiredLabelSeeEveryPodTheyMatch() {
        budget("everything", "{}");
        budget("in-two", "{\"matchExpressions\":[{\"key\":\"app\",\"operator\":\"In\",\"values\":[\"a\",\"b\"]}]}");
        pod("a", Map.of("app", "a"), true);
        pod("b", Map.of("app", "b"), false);
        pod("c", Map.of("app", "c"), true);
        awaitStatus("everything", 3, 2);
        awaitStatus("in-two", 2, 1);

        relabel("c", Map.of("app", "b"));
        awaitStatus("in-two", 3, 2);
    }

    @Test
    void aBudgetWhoseSelectorChangesFollowsItsNewPods() {
        budget("moving", "{\"matchLabels\":{\"app\":\"a\"}}");
        pod("a", Map.of("app", "a"), true);
        pod("b1", Map.of("app", "b"), true);
        pod("b2", Map.of("app", "b"), true);
        awaitStatus("moving", 1, 1);

        store.update(BuiltinResources.POD_DISRUPTION_BUDGETS, "ns", "moving", pdb -> {
            pdb.with("spec").set("selector", Json.MAPPER.valueToTree(Map.of("matchLabels", Map.of("app", "b"))));
            return pdb;
        }, false);
        awaitStatus("moving", 2, 2);
        // The old label no longer concerns it: a new "a" pod leaves it as it is.
        pod("a2", Map.of("app", "a"), true);
        pod("b3", Map.of("app", "b"), true);
        awaitStatus("moving", 3, 3);
    }

    private void budget(String name, String selectorJson) {
        ObjectNode pdb = Json.object();
        pdb.putObject("metadata").put("name", name).put("namespace", "ns");
        ObjectNode spec = pdb.putObject("spec");
        spec.put("minAvailable", 1);
        try {
            spec.set("selector", Json.MAPPER.readTree(selectorJson));
        } catch (java.io.IOException e) {
            throw new IllegalArgumentException(e);
        }
        store.create(BuiltinResources.POD_DISRUPTION_BUDGETS, pdb, false, false);
    }

    private void pod(String name, Map<String, String> labels, boolean ready) {
        ObjectNode pod = Json.object();
        ObjectNode meta = pod.putObject("metadata").put("name", name).put("namespace", "ns");
        labels.forEach(meta.putObject("labels")::put);
        pod.putObject("spec").put("nodeName", "node-1");
        pod.putObject("status").put("phase", "Running");
        PodConditions.set(pod, "Ready", ready ? "True" : "False", "", "", Instant.now());
        store.create(BuiltinResources.PODS, pod, false, false);
    }

    private void setReady(String name) {
        store.update(BuiltinResources.PODS, "ns", name, pod -> {
            PodConditions.set(pod, "Ready", "True", "", "", Instant.now());
            return pod;
        }, false);
    }

    private void relabel(String name, Map<String, String> labels) {
        store.update(BuiltinResources.PODS, "ns", name, pod -> {
            ObjectNode l = Json.metadata(pod).putObject("labels");
            labels.forEach(l::put);
            return pod;
        }, false);
    }

    private void awaitStatus(String budget, int expectedPods, int healthy) {
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
            ObjectNode pdb = store.get(BuiltinResources.POD_DISRUPTION_BUDGETS, "ns", budget);
            assertThat(pdb.path("status").path("expectedPods").asInt(-1)).as("expectedPods of " + budget).isEqualTo(expectedPods);
            assertThat(pdb.path("status").path("currentHealthy").asInt(-1)).as("currentHealthy of " + budget).isEqualTo(healthy);
        });
    }
}
