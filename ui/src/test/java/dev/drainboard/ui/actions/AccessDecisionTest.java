package dev.drainboard.ui.actions;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.Arrays;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class AccessDecisionTest {

    private static final AccessCheck PATCH_NODES = AccessCheck.patchNodes();

    @ParameterizedTest(name = "[{index}] {0} -> {1}")
    @CsvSource(delimiter = '|', textBlock = """
            ALLOWED                  | ALLOWED   | true
            ALLOWED,ALLOWED          | ALLOWED   | true
            ALLOWED,UNKNOWN          | UNKNOWN   | true
            UNKNOWN,CHECKING         | CHECKING  | false
            ALLOWED,DENIED,CHECKING  | DENIED    | false
            CHECKING,DENIED          | DENIED    | false
            """)
    void theFirstDenialWinsThenAPendingCheckThenAnUnknownAnswer(String parts, AccessDecision.State combined, boolean permits) {
        List<AccessDecision> decisions = Arrays.stream(parts.split(",")).map(AccessDecision.State::valueOf)
                .map(s -> switch (s) {
                    case ALLOWED -> AccessDecision.ALLOWED;
                    case CHECKING -> AccessDecision.CHECKING;
                    case DENIED -> AccessDecision.denied(PATCH_NODES, "");
                    case UNKNOWN -> AccessDecision.unknown(PATCH_NODES, "404");
                }).toList();
        AccessDecision result = AccessDecision.combine(decisions);
        assertThat(result.state()).isEqualTo(combined);
        assertThat(result.permits()).isEqualTo(permits);
    }

    @Test
    void aDenialSaysWhatWasAskedAndTheAuthorizersReason() {
        assertThat(AccessDecision.denied(AccessCheck.evictPods("demo"), "no RBAC policy matched").reason())
                .isEqualTo("Not allowed: your credentials may not create pods/eviction in namespace demo (no RBAC policy matched)");
        assertThat(AccessDecision.denied(AccessCheck.deleteMigrations("demo"), null).reason())
                .isEqualTo("Not allowed: your credentials may not delete virtualmachineinstancemigrations.kubevirt.io in namespace demo");
    }
}
