package dev.drainboard.ui.connect;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.assertj.core.api.Assertions.assertThat;

class ModePolicyTest {

    @ParameterizedTest(name = "{0}, embedded={1}, virt-controller={2} → {3}")
    @CsvSource({
            "AUTO,    true,  absent,  CONTROL",
            "AUTO,    false, absent,  CONTROL",
            "AUTO,    false, found,   OBSERVE",
            "AUTO,    false, unknown, OBSERVE",
            "CONTROL, false, found,   CONTROL",
            "OBSERVE, true,  absent,  OBSERVE",
    })
    void mode(ModeChoice choice, boolean embedded, String virtController, Mode expected) {
        ModePolicy.VirtControllerProbe probe = switch (virtController) {
            case "found" -> ModePolicy.VirtControllerProbe.found("Deployment kubevirt/virt-controller");
            case "unknown" -> ModePolicy.VirtControllerProbe.unknown();
            default -> ModePolicy.VirtControllerProbe.absent();
        };
        ModePolicy.Decision decision = ModePolicy.decide(choice, embedded, probe);
        assertThat(decision.mode()).isEqualTo(expected);
        assertThat(decision.reason()).isNotBlank();
        if (virtController.equals("found")) {
            assertThat(decision.reason()).contains("kubevirt/virt-controller");
        }
    }
}
