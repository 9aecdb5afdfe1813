package dev.drainboard.runtime;

import io.fabric8.kubernetes.api.model.Status;
import io.fabric8.kubernetes.api.model.StatusBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/** Which failed passes are ordinary optimistic-concurrency retries (logged quietly) and which are errors. */
class WriteConflictTest {

    static Stream<Arguments> failures() {
        return Stream.of(
                Arguments.of("stale update", status(409, "Conflict", "Operation cannot be fulfilled on x: the object has been modified", false), true),
                Arguments.of("name taken", status(409, "AlreadyExists", "pods \"x\" already exists", false), false),
                Arguments.of("failed JSON patch test", status(422, "Invalid", "the server rejected our request due to an error in our request", false), true),
                Arguments.of("invalid object", status(422, "Invalid", "Pod \"x\" is invalid: spec.containers: Required value", true), false),
                Arguments.of("forbidden", status(403, "Forbidden", "forbidden", false), false));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("failures")
    void classifies(String what, KubernetesClientException failure, boolean conflict) {
        assertThat(ControllerLoop.isWriteConflict(failure)).isEqualTo(conflict);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("failures")
    void otherExceptionsAreNeverConflicts(String what, KubernetesClientException ignored, boolean alsoIgnored) {
        assertThat(ControllerLoop.isWriteConflict(new IllegalStateException(what))).isFalse();
    }

    private static KubernetesClientException status(int code, String reason, String message, boolean details) {
        StatusBuilder status = new StatusBuilder().withCode(code).withReason(reason).withMessage(message).withStatus("Failure");
        if (details) {
            status.withNewDetails().withName("x").withKind("Pod").endDetails();
        }
        Status s = status.build();
        return new KubernetesClientException(s);
    }
}
