package dev.drainboard.cluster.disruption;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.drainboard.cluster.apiserver.Json;
import dev.drainboard.cluster.apiserver.PodConditions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/** The disruption controller's arithmetic, case by case, as kube-controller-manager computes it. */
class DisruptionBudgetStatusTest {

    private static final Instant NOW = Instant.parse("2025-03-01T10:00:00Z");

    /** What a pod looks like to the budget. */
    enum PodState { READY, NOT_READY, TERMINATING }

    /**
     * One row: the budget's spec ({@code minAvailable}/{@code maxUnavailable} as YAML would give
     * them: a number or a percent string; null when unset), the selected pods, pods recorded as
     * disrupted (name → how long ago), and the status expected.
     */
    record Case(String name, Object minAvailable, Object maxUnavailable, List<PodState> pods,
                Map<String, Duration> disruptedAgo,
                int expected, int healthy, int desired, int allowed, List<String> stillDisrupted) {
        @Override
        public String toString() {
            return name;
        }
    }

    static Stream<Case> cases() {
        List<PodState> threeReady = List.of(PodState.READY, PodState.READY, PodState.READY);
        return Stream.of(
                new Case("minAvailable 2 of 3 ready", 2, null, threeReady, Map.of(), 3, 3, 2, 1, List.of()),
                new Case("minAvailable equal to pods allows nothing", 3, null, threeReady, Map.of(), 3, 3, 3, 0, List.of()),
                new Case("minAvailable above pods allows nothing", 5, null, threeReady, Map.of(), 3, 3, 5, 0, List.of()),
                new Case("minAvailable 50% of 3 rounds up to 2", "50%", null, threeReady, Map.of(), 3, 3, 2, 1, List.of()),
                new Case("minAvailable 100%", "100%", null, threeReady, Map.of(), 3, 3, 3, 0, List.of()),
                new Case("minAvailable 0 allows every pod", 0, null, threeReady, Map.of(), 3, 3, 0, 3, List.of()),
                new Case("maxUnavailable 1 of 3", null, 1, threeReady, Map.of(), 3, 3, 2, 1, List.of()),
                new Case("maxUnavailable 0 allows nothing", null, 0, threeReady, Map.of(), 3, 3, 3, 0, List.of()),
                new Case("maxUnavailable 34% of 3 rounds up to 2", null, "34%", threeReady, Map.of(), 3, 3, 1, 2, List.of()),
                new Case("maxUnavailable as a string number", null, "1", threeReady, Map.of(), 3, 3, 2, 1, List.of()),
                new Case("neither set: every pod must stay", null, null, threeReady, Map.of(), 3, 3, 3, 0, List.of()),
                new Case("a not-ready pod is not healthy", 2, null,
                        List.of(PodState.READY, PodState.READY, PodState.NOT_READY), Map.of(), 3, 2, 2, 0, List.of()),
                new Case("a terminating pod is expected but not healthy", 2, null,
                        List.of(PodState.READY, PodState.READY, PodState.TERMINATING), Map.of(), 3, 2, 2, 0, List.of()),
                new Case("maxUnavailable with a not-ready pod", null, 1,
                        List.of(PodState.READY, PodState.NOT_READY, PodState.READY, PodState.READY), Map.of(), 4, 3, 3, 0, List.of()),
                new Case("no pods allow nothing", 0, null, List.of(), Map.of(), 0, 0, 0, 0, List.of()),
                new Case("a recently evicted pod is not healthy", 1, null, threeReady,
                        Map.of("pod-0", Duration.ofSeconds(30)), 3, 2, 1, 1, List.of("pod-0")),
                new Case("an evicted pod that never terminated counts again after the timeout", 1, null, threeReady,
                        Map.of("pod-0", Duration.ofMinutes(3)), 3, 3, 1, 2, List.of()),
                new Case("an evicted pod that started terminating leaves the disrupted list", 1, null,
                        List.of(PodState.TERMINATING, PodState.READY, PodState.READY),
                        Map.of("pod-0", Duration.ofSeconds(30)), 3, 2, 1, 1, List.of()),
                new Case("an evicted pod that is gone leaves the disrupted list", 1, null, threeReady,
                        Map.of("pod-9", Duration.ofSeconds(30)), 3, 3, 1, 2, List.of()));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void computesTheStatus(Case c) {
        ObjectNode budget = budget(c.minAvailable(), c.maxUnavailable(), c.disruptedAgo());
        List<ObjectNode> pods = new ArrayList<>();
        for (int i = 0; i < c.pods().size(); i++) {
            pods.add(pod("pod-" + i, c.pods().get(i)));
        }

        ObjectNode status = (ObjectNode) DisruptionBudgetStatus.compute(budget, pods, NOW).get("status");

        assertThat(status.path("expectedPods").asInt()).as("expectedPods").isEqualTo(c.expected());
        assertThat(status.path("currentHealthy").asInt()).as("currentHealthy").isEqualTo(c.healthy());
        assertThat(status.path("desiredHealthy").asInt()).as("desiredHealthy").isEqualTo(c.desired());
        assertThat(status.path("disruptionsAllowed").asInt()).as("disruptionsAllowed").isEqualTo(c.allowed());
        List<String> disrupted = new ArrayList<>();
        status.path("disruptedPods").fieldNames().forEachRemaining(disrupted::add);
        assertThat(disrupted).as("disruptedPods").containsExactlyInAnyOrderElementsOf(c.stillDisrupted());
        assertThat(status.path("observedGeneration").asLong()).isEqualTo(4);
    }

    @Test
    void theConditionSaysWhetherADisruptionIsAllowed() {
        List<ObjectNode> pods = List.of(pod("a", PodState.READY), pod("b", PodState.READY));

        ObjectNode allowed = DisruptionBudgetStatus.compute(budget(1, null, Map.of()), pods, NOW);
        ObjectNode refused = DisruptionBudgetStatus.compute(budget(2, null, Map.of()), pods, NOW);

        assertThat(PodConditions.status(allowed, "DisruptionAllowed")).isEqualTo("True");
        assertThat(Json.text(allowed.path("status").path("conditions").get(0), "reason")).isEqualTo("SufficientPods");
        assertThat(PodConditions.status(refused, "DisruptionAllowed")).isEqualTo("False");
        assertThat(Json.text(refused.path("status").path("conditions").get(0), "reason")).isEqualTo("InsufficientPods");
    }

    @Test
    void nextExpiryIsWhenTheEarliestDisruptedPodTimesOut() {
        ObjectNode budget = budget(1, null, Map.of("a", Duration.ofSeconds(30), "b", Duration.ofSeconds(90)));

        assertThat(DisruptionBudgetStatus.nextExpiry(budget))
                .isEqualTo(NOW.minusSeconds(90).plus(DisruptionBudgetStatus.DISRUPTED_POD_TIMEOUT));
        assertThat(DisruptionBudgetStatus.nextExpiry(budget(1, null, Map.of()))).isNull();
    }

    private static ObjectNode budget(Object minAvailable, Object maxUnavailable, Map<String, Duration> disruptedAgo) {
        ObjectNode pdb = Json.object();
        pdb.put("apiVersion", "policy/v1").put("kind", "PodDisruptionBudget");
        pdb.putObject("metadata").put("namespace", "ns").put("name", "budget").put("generation", 4);
        ObjectNode spec = pdb.putObject("spec");
        setIntOrString(spec, "minAvailable", minAvailable);
        setIntOrString(spec, "maxUnavailable", maxUnavailable);
        spec.putObject("selector").putObject("matchLabels").put("app", "web");
        if (!disruptedAgo.isEmpty()) {
            ObjectNode disrupted = pdb.putObject("status").putObject("disruptedPods");
            disruptedAgo.forEach((pod, ago) -> disrupted.put(pod, Json.timestamp(NOW.minus(ago))));
        }
        return pdb;
    }

    private static void setIntOrString(ObjectNode spec, String field, Object value) {
        if (value instanceof Integer i) {
            spec.put(field, i);
        } else if (value instanceof String s) {
            spec.put(field, s);
        }
    }

    private static ObjectNode pod(String name, PodState state) {
        ObjectNode pod = Json.object();
        pod.put("apiVersion", "v1").put("kind", "Pod");
        ObjectNode meta = pod.putObject("metadata").put("namespace", "ns").put("name", name);
        meta.putObject("labels").put("app", "web");
        pod.putObject("status").put("phase", "Running");
        PodConditions.set(pod, "Ready", state == PodState.NOT_READY ? "False" : "True", "", "", NOW.minusSeconds(600));
        if (state == PodState.TERMINATING) {
            meta.put("deletionTimestamp", Json.timestamp(NOW.plusSeconds(30)));
            meta.put("deletionGracePeriodSeconds", 30);
        }
        return pod;
    }
}
