package dev.drainboard.ui.maintenance;

import dev.drainboard.ui.model.MaintenanceRequest;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class PlanFormTest {

    @ParameterizedTest(name = "\"{0}\" is a Go duration: {1}")
    @CsvSource({
            "10m, true", "90s, true", "1h30m, true", "1.5h, true", "300ms, true", "2h0m0s, true",
            "'', false", "10, false", "10 m, false", "m, false", "-5m, false", "0s, false", "10min, false", "1d, false",
    })
    void goDurations(String text, boolean valid) {
        assertThat(PlanForm.goDuration(text)).isEqualTo(valid);
    }

    @ParameterizedTest(name = "annotation key \"{0}\" valid: {1}")
    @CsvSource({
            "example.com/upgraded, true", "upgraded, true", "a.b-c/x_y.z, true", "rebooted-1, true",
            "'', false", "Example.com/x, false", "/x, false", "example.com/, false", "-x, false", "x-, false",
            "a/b/c, false", "has space, false",
    })
    void annotationKeys(String key, boolean valid) {
        assertThat(PlanForm.annotationKeyProblem(key) == null).isEqualTo(valid);
    }

    @ParameterizedTest(name = "{0} {1} {2} {3} {4}")
    @CsvSource(delimiter = '|', value = {
            "nodes | 1 | None              |      |         | ",
            "''    | 1 | None              |      |         | Pick the nodes to maintain, or give a label selector.",
            "nodes | 0 | None              |      |         | Nodes at once must be 1 or more.",
            "nodes | 1 | Pause             | 10   |         | The pause \"10\" is not a duration: write it like 90s, 10m or 1h30m.",
            "nodes | 1 | Pause             | 10m  |         | ",
            "nodes | 1 | WaitForAnnotation |      | ''      | Give the annotation key that says a node is ready to come back, e.g. example.com/upgraded.",
            "nodes | 1 | WaitForAnnotation |      | x.io/ok | ",
    })
    void problems(String nodes, int atOnce, String after, String pause, String annotation, String expected) {
        var request = new MaintenanceRequest(nodes == null || nodes.isEmpty() ? List.of() : List.of("node01"), "", atOnce, after, pause, annotation);
        assertThat(PlanForm.problems(request)).isEqualTo(expected == null ? List.of() : List.of(expected));
    }
}
