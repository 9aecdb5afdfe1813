package dev.drainboard.ui.model;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.NullAndEmptySource;
import org.junit.jupiter.params.provider.ValueSource;

import java.time.Instant;

import static org.assertj.core.api.Assertions.assertThat;

class TransferProgressTest {

    private static String json(String state, long processed, long remaining, String updated) {
        return """
                {"state":"%s","mode":"PreCopy","iteration":2,"totalBytes":1073741824,"processedBytes":%d,\
                "remainingBytes":%d,"bytesPerSecond":4194304,"updated":"%s"}""".formatted(state, processed, remaining, updated);
    }

    @Test
    void readsTheAnnotationTheNodeHandlerWrites() {
        TransferProgress t = TransferProgress.parse(json("RUNNING", 300, 700, "2026-11-22T03:00:00Z")).orElseThrow();

        assertThat(t.state()).isEqualTo("RUNNING");
        assertThat(t.mode()).isEqualTo("PreCopy");
        assertThat(t.iteration()).isEqualTo(2);
        assertThat(t.totalBytes()).isEqualTo(1073741824L);
        assertThat(t.bytesPerSecond()).isEqualTo(4194304L);
        assertThat(t.updated()).isEqualTo(Instant.parse("2026-11-22T03:00:00Z"));
        assertThat(t.trend()).isEqualTo(TransferProgress.Trend.FIRST_SAMPLE);
        assertThat(t.fraction()).isEqualTo(0.3);
    }

    @ParameterizedTest
    @NullAndEmptySource
    @ValueSource(strings = {"not json", "[]", "{\"state\":\"RUNNING\"}", "{\"processedBytes\":1,\"remainingBytes\":2,\"updated\":\"yesterday\"}"})
    void aBrokenAnnotationLosesTheBarNotTheRow(String annotation) {
        assertThat(TransferProgress.parse(annotation)).isEmpty();
    }

    @ParameterizedTest(name = "remaining {0} then {1} → {2}, not converging: {3}")
    @CsvSource({
            "700, 500, SHRINKING, false",
            "500, 500, UNCHANGED, false",
            "500, 650, GROWING,   true",
    })
    void theTrendComparesRemainingWithTheSampleBefore(long before, long after, TransferProgress.Trend trend, boolean notConverging) {
        TransferProgress first = TransferProgress.parse(json("RUNNING", 100, before, "2026-11-22T03:00:00Z")).orElseThrow();
        TransferProgress second = TransferProgress.parse(json("RUNNING", 300, after, "2026-11-22T03:00:01Z")).orElseThrow()
                .after(first);

        assertThat(second.trend()).isEqualTo(trend);
        assertThat(second.notConverging()).isEqualTo(notConverging);
        assertThat(second.remainingBefore()).isEqualTo(before);
    }

    @Test
    void theSameSampleSeenAgainKeepsItsVerdict() {
        TransferProgress a = TransferProgress.parse(json("RUNNING", 100, 500, "2026-11-22T03:00:00Z")).orElseThrow();
        TransferProgress growing = TransferProgress.parse(json("RUNNING", 200, 600, "2026-11-22T03:00:01Z")).orElseThrow().after(a);
        // The VMIM changes for another reason (its phase, a label): the annotation is the same sample.
        TransferProgress again = TransferProgress.parse(json("RUNNING", 200, 600, "2026-11-22T03:00:01Z")).orElseThrow().after(growing);

        assertThat(again.trend()).isEqualTo(TransferProgress.Trend.GROWING);
    }

    @ParameterizedTest(name = "{0}: processed {1}, remaining {2} → {3}")
    @CsvSource({
            "RUNNING,   0,    0,    0.0",
            "RUNNING,   250,  750,  0.25",
            // Remaining grew: the bar goes back instead of pretending to move on.
            "RUNNING,   400,  1600, 0.2",
            "COMPLETED, 1000, 0,    1.0",
            "FAILED,    600,  400,  0.6",
    })
    void theBarIsSentOverSentPlusRemaining(String state, long processed, long remaining, double fraction) {
        TransferProgress t = TransferProgress.parse(json(state, processed, remaining, "2026-11-22T03:00:00Z")).orElseThrow();

        assertThat(t.fraction()).isEqualTo(fraction);
    }

    @Test
    void aFinishedTransferIsNeverReportedAsNotConverging() {
        TransferProgress a = TransferProgress.parse(json("RUNNING", 100, 500, "2026-11-22T03:00:00Z")).orElseThrow();
        TransferProgress failed = TransferProgress.parse(json("FAILED", 200, 900, "2026-11-22T03:00:01Z")).orElseThrow().after(a);

        assertThat(failed.trend()).isEqualTo(TransferProgress.Trend.GROWING);
        assertThat(failed.notConverging()).isFalse();
    }
}
