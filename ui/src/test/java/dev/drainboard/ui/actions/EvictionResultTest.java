package dev.drainboard.ui.actions;

import dev.drainboard.ops.EvictionResponse;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.assertj.core.api.Assertions.assertThat;

class EvictionResultTest {

    @ParameterizedTest(name = "[{index}] HTTP {0}")
    @CsvSource(delimiter = '|', textBlock = """
            201 |                  |                                                                    | DONE            | Evicted demo/p                                   | pod/p evicted
            429 | TooManyRequests  | Eviction triggered evacuation of VMI "demo/db"                      | REFUSED_FOR_NOW | Eviction of demo/p refused for now (HTTP 429)     | Eviction triggered evacuation of VMI "demo/db"
            403 | Forbidden        | pods "p" is forbidden: User "bob" cannot create resource            | FAILED          | Eviction of demo/p failed (HTTP 403 Forbidden)    | pods "p" is forbidden: User "bob" cannot create resource
            404 | NotFound         | pods "p" not found                                                  | FAILED          | Eviction of demo/p failed (HTTP 404 NotFound)     | pods "p" not found
            0   |                  | cannot reach the cluster: ConnectException: Connection refused      | FAILED          | Eviction of demo/p failed (no answer)             | cannot reach the cluster: ConnectException: Connection refused
            """)
    void theApiServersAnswerIsKeptVerbatim(int code, String reason, String message, ActionResult.Outcome outcome,
                                           String title, String shown) {
        ActionResult result = ClusterActions.evictionResult("demo/p", new EvictionResponse(code, reason, message));
        assertThat(result.outcome()).isEqualTo(outcome);
        assertThat(result.title()).isEqualTo(title);
        assertThat(result.message()).isEqualTo(shown);
    }
}
