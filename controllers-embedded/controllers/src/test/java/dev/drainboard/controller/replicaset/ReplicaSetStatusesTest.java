package dev.drainboard.controller.replicaset;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.drainboard.kubevirt.api.Condition;
import dev.drainboard.kubevirt.api.VirtualMachineInstanceReplicaSetStatus;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/** The ReplicaFailure and ReplicaPaused conditions and the status patch, row by row. */
class ReplicaSetStatusesTest {

    private static final Instant NOW = Instant.parse("2025-03-04T05:06:07.891Z");
    private static final String EARLIER = "2025-03-04T05:00:00Z";

    static ScaleOutcome outcome(String kind) {
        return switch (kind) {
            case "none" -> ScaleOutcome.notAttempted();
            case "ok" -> ScaleOutcome.succeeded();
            case "create" -> ScaleOutcome.failedCreate("no permission to create VMIs");
            case "delete" -> ScaleOutcome.failedDelete("no permission to delete VMIs");
            default -> throw new IllegalArgumentException(kind);
        };
    }

    static Condition failure(String reason, String message) {
        Condition c = new Condition("ReplicaFailure", "True", reason, message);
        c.setLastTransitionTime(EARLIER);
        return c;
    }

    @ParameterizedTest(name = "[{index}] had {0}, outcome {1} → {2} {3} since {4}")
    @CsvSource(nullValues = "-", value = {
            // had            outcome  reason         message                        since
            "-,               none,    -,             -,                             -",
            "-,               ok,      -,             -,                             -",
            "-,               create,  FailureCreate, no permission to create VMIs,  now",
            "-,               delete,  FailureDelete, no permission to delete VMIs,  now",
            "FailureCreate,   none,    FailureCreate, no permission to create VMIs,  earlier",
            "FailureCreate,   ok,      -,             -,                             -",
            "FailureCreate,   create,  FailureCreate, no permission to create VMIs,  earlier",
            "FailureCreate,   delete,  FailureDelete, no permission to delete VMIs,  earlier",
            "FailureDelete,   ok,      -,             -,                             -",
    })
    void replicaFailure(String had, String outcome, String reason, String message, String since) {
        List<Condition> current = new ArrayList<>();
        if (had != null) {
            current.add(failure(had, had.equals("FailureCreate") ? "no permission to create VMIs" : "no permission to delete VMIs"));
        }
        List<Condition> result = ReplicaSetStatuses.conditions(current, outcome(outcome), false, NOW);
        var failure = result.stream().filter(c -> c.getType().equals("ReplicaFailure")).findFirst();
        if (reason == null) {
            assertThat(failure).isEmpty();
            return;
        }
        assertThat(failure).hasValueSatisfying(c -> {
            assertThat(c.getStatus()).isEqualTo("True");
            assertThat(c.getReason()).isEqualTo(reason);
            assertThat(c.getMessage()).isEqualTo(message);
            assertThat(c.getLastTransitionTime()).isEqualTo(since.equals("now") ? "2025-03-04T05:06:07Z" : EARLIER);
        });
    }

    @ParameterizedTest(name = "[{index}] paused before {0}, now {1} → condition {2}")
    @CsvSource({
            "false, false, false",
            "false, true,  true",
            "true,  true,  true",
            "true,  false, false",
    })
    void replicaPaused(boolean before, boolean paused, boolean present) {
        List<Condition> current = new ArrayList<>();
        if (before) {
            Condition c = new Condition("ReplicaPaused", "True", "Paused", "Controller got paused");
            c.setLastTransitionTime(EARLIER);
            current.add(c);
        }
        List<Condition> result = ReplicaSetStatuses.conditions(current, ScaleOutcome.notAttempted(), paused, NOW);
        var condition = result.stream().filter(c -> c.getType().equals("ReplicaPaused")).findFirst();
        assertThat(condition.isPresent()).isEqualTo(present);
        condition.ifPresent(c -> {
            assertThat(c.getReason()).isEqualTo("Paused");
            assertThat(c.getMessage()).isEqualTo("Controller got paused");
            assertThat(c.getLastTransitionTime()).isEqualTo(before ? EARLIER : "2025-03-04T05:06:07Z");
        });
    }

    @Test
    @DisplayName("other conditions are kept as they are")
    void othersKept() {
        Condition other = new Condition("SomethingElse", "True", "Why", "because");
        List<Condition> result = ReplicaSetStatuses.conditions(List.of(other, failure("FailureCreate", "x")), ScaleOutcome.succeeded(), false, NOW);
        assertThat(result).containsExactly(other);
    }

    static ReplicaSetPlan plan(int active, int ready) {
        return new ReplicaSetPlan(List.of(), List.of(), true, 0, List.of(), List.of(), 3, active, ready, "app=web");
    }

    @Test
    @DisplayName("the design document's create-failure example: replicas 2, readyReplicas … and the condition, as a merge patch of the status")
    void patchWithFailure() throws Exception {
        List<Condition> conditions = ReplicaSetStatuses.conditions(null, ScaleOutcome.failedCreate("no permission to create VMIs"), false, NOW);
        String patch = ReplicaSetStatuses.patch(null, plan(2, 2), conditions);
        JsonNode status = new ObjectMapper().readTree(patch).path("status");
        assertThat(status.path("replicas").asInt()).isEqualTo(2);
        assertThat(status.path("readyReplicas").asInt()).isEqualTo(2);
        assertThat(status.path("labelSelector").asText()).isEqualTo("app=web");
        JsonNode c = status.path("conditions").get(0);
        assertThat(c.path("type").asText()).isEqualTo("ReplicaFailure");
        assertThat(c.path("status").asText()).isEqualTo("True");
        assertThat(c.path("reason").asText()).isEqualTo("FailureCreate");
        assertThat(c.path("message").asText()).isEqualTo("no permission to create VMIs");
        assertThat(c.path("lastTransitionTime").asText()).isEqualTo("2025-03-04T05:06:07Z");
    }

    @Test
    @DisplayName("nothing changed: no patch; only what changed is sent; a cleared condition list is removed")
    void patchOnlyWhatChanged() throws Exception {
        VirtualMachineInstanceReplicaSetStatus current = new VirtualMachineInstanceReplicaSetStatus();
        current.setReplicas(3);
        current.setReadyReplicas(2);
        current.setLabelSelector("app=web");
        assertThat(ReplicaSetStatuses.patch(current, plan(3, 2), List.of())).isNull();
        assertThat(ReplicaSetStatuses.patch(current, plan(3, 3), List.of())).isEqualTo("{\"status\":{\"readyReplicas\":3}}");
        current.setConditions(List.of(failure("FailureDelete", "no permission to delete VMIs")));
        assertThat(ReplicaSetStatuses.patch(current, plan(3, 2), List.of())).isEqualTo("{\"status\":{\"conditions\":null}}");
    }
}
