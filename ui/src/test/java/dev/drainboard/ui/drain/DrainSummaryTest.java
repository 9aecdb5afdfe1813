package dev.drainboard.ui.drain;

import dev.drainboard.ops.DrainProgress;
import dev.drainboard.ops.DrainResult;
import dev.drainboard.ops.PodOutcome;
import dev.drainboard.ops.PodPreview;
import dev.drainboard.ops.PodProgress;
import dev.drainboard.ops.PodState;
import dev.drainboard.ui.drain.DrainSummary.EndState;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

class DrainSummaryTest {

    @ParameterizedTest(name = "[{index}] {0} -> {1}")
    @CsvSource(delimiter = '|', textBlock = """
            DRAINED                   | DRAINED
            DRAINED,DRAINED           | DRAINED
            DRAINED,RUNNING           | RUNNING
            DRAINED,FAILED            | FAILED
            CANCELLED,TIMED_OUT       | TIMED_OUT
            TIMED_OUT,FAILED          | FAILED
            DRAINED,CANCELLED         | CANCELLED
            """)
    void severalNodesNeverEndDrainedAfterAFailure(String nodes, EndState overall) {
        assertThat(DrainSummary.overall(Arrays.stream(nodes.split(",")).map(EndState::valueOf).toList())).isEqualTo(overall);
    }

    @ParameterizedTest(name = "[{index}] ''{0}''")
    @CsvSource(delimiter = '|', nullValues = "null", textBlock = """
            ''      | 0
            0       | 0
            90s     | 90000
            5m      | 300000
            1h30m   | 5400000
            1.5h    | 5400000
            250ms   | 250
            1m0s    | 60000
            5M      | null
            90      | null
            5 m     | null
            soon    | null
            -1s     | null
            """)
    void timeoutsReadAsGoDurations(String text, Long millis) {
        assertThat(DrainSummary.parseTimeout(text)).isEqualTo(Optional.ofNullable(millis).map(Duration::ofMillis));
    }

    @ParameterizedTest(name = "[{index}] {0} -> {1}")
    @CsvSource(delimiter = '|', nullValues = "null", textBlock = """
            GONE,GONE,PENDING         | null      | 0.6666
            GONE,WAITING_FOR_MIGRATION| null      | 0.5
            GONE,BLOCKED              | TIMED_OUT | 0.5
            GONE,GONE                 | DRAINED   | 1.0
            ''                        | DRAINED   | 1.0
            """)
    void theBarIsPodsGoneAndFullOnlyWhenDrained(String states, DrainResult.Status status, double fraction) {
        List<PodProgress> pods = new ArrayList<>();
        int i = 0;
        for (String s : states.isEmpty() ? new String[0] : states.split(",")) {
            PodPreview preview = new PodPreview("demo", "p" + i, "uid" + i, PodOutcome.EVICTED, "evicted", null, null, null);
            pods.add(new PodProgress("demo", "p" + i, "uid" + i, PodState.valueOf(s), 1, 201, "", preview, Instant.now()));
            i++;
        }
        Optional<DrainResult> result = Optional.ofNullable(status).map(st -> new DrainResult("node01", st, "why", pods));
        DrainProgress progress = new DrainProgress("node01", status == null ? DrainProgress.Phase.EVICTING : DrainProgress.Phase.ENDED,
                null, pods, Instant.now(), result);
        assertThat(DrainSummary.fraction(progress)).isCloseTo(fraction, org.assertj.core.data.Offset.offset(0.001));
    }

    @ParameterizedTest(name = "[{index}] {0}")
    @CsvSource(delimiter = '|', textBlock = """
            BLOCKED_BY_PDB             | DANGER
            BLOCKED_NOT_MIGRATABLE     | DANGER
            NEEDS_IGNORE_DAEMONSETS    | DANGER
            LIVE_MIGRATION             | ACCENT
            EVICTED_VMI_LOST           | WARNING
            SKIPPED_DAEMONSET          | NEUTRAL
            EVICTED                    | SUCCESS
            """)
    void blockersAreRed(PodOutcome outcome, dev.drainboard.ui.common.Badge.Tone tone) {
        assertThat(DrainSummary.outcomeTone(outcome)).isEqualTo(tone);
    }

    @ParameterizedTest(name = "[{index}] {0}")
    @CsvSource(delimiter = '|', nullValues = "null", textBlock = """
            BLOCKED_BY_PDB             | row-danger
            REFUSED                    | row-danger
            NEEDS_FORCE                | row-danger
            SKIPPED_MIRROR             | row-muted
            LIVE_MIGRATION             | null
            EVICTED                    | null
            """)
    void previewRowsAreRedForBlockersAndMutedForPodsThatStay(PodOutcome outcome, String style) {
        assertThat(DrainSummary.previewRowStyle(outcome)).isEqualTo(Optional.ofNullable(style));
    }

    /**
     * The cluster cannot reach this console's webhook: it serves, has answered nothing, and a VMI's launcher pod is
     * refused by its PDB. Any answer, a plain pod, another refusal or a webhook not served here: nothing to say.
     */
    @ParameterizedTest(name = "[{index}] serving {0}, answered {1}, VMI pod {2}, answer {3} {4} → hint {5}")
    @CsvSource(delimiter = '|', value = {
            "true  | 0 | true  | 429 | Cannot evict pod as it would violate the pod's disruption budget. | true",
            "true  | 3 | true  | 429 | Cannot evict pod as it would violate the pod's disruption budget. | false",
            "false | 0 | true  | 429 | Cannot evict pod as it would violate the pod's disruption budget. | false",
            "true  | 0 | false | 429 | Cannot evict pod as it would violate the pod's disruption budget. | false",
            "true  | 0 | true  | 429 | Eviction triggered evacuation of VMI \"demo/db\"                  | false",
            "true  | 0 | true  | 201 | ''                                                                | false",
    })
    void anUnreachableWebhookIsToldWhenPdbsHoldTheVmisPods(boolean serving, long answered, boolean vmiPod, int code,
                                                          String message, boolean hint) {
        var webhook = new dev.drainboard.ui.model.WebhookStatus(serving, "https://10.0.0.7:40123/launcher-eviction-validate", answered, 0, true, "");
        PodPreview preview = new PodPreview("demo", "virt-launcher-db-x", "uid", PodOutcome.LIVE_MIGRATION,
                "migrates", vmiPod ? "db" : null, "pdb", null);
        List<PodProgress> pods = List.of(new PodProgress("demo", "virt-launcher-db-x", "uid", PodState.BLOCKED, 2, code,
                message, preview, Instant.now()));

        Optional<String> text = DrainSummary.unreachableWebhookHint(webhook, pods);

        assertThat(text.isPresent()).isEqualTo(hint);
        text.ifPresent(t -> assertThat(t).contains("https://10.0.0.7:40123/launcher-eviction-validate", "no VMI is marked",
                "--webhook-host"));
    }

    @Test
    void anAuthenticatedWebhookAlsoPointsAtTheApiServersClientCertificate() {
        PodPreview preview = new PodPreview("demo", "virt-launcher-db-x", "uid", PodOutcome.LIVE_MIGRATION,
                "migrates", "db", "pdb", null);
        List<PodProgress> pods = List.of(new PodProgress("demo", "virt-launcher-db-x", "uid", PodState.BLOCKED, 2, 429,
                "Cannot evict pod as it would violate the pod's disruption budget.", preview, Instant.now()));
        String url = "https://10.0.0.7:40123/launcher-eviction-validate";

        assertThat(DrainSummary.unreachableWebhookHint(new dev.drainboard.ui.model.WebhookStatus(true, url, 0, 0, true,
                "callers need a TLS client certificate from /etc/drainboard/apiserver-client-ca.crt"), pods)).hasValueSatisfying(t ->
                assertThat(t).contains("The webhook also refuses an API server that presents no client certificate it "
                        + "trusts (callers need a TLS client certificate from /etc/drainboard/apiserver-client-ca.crt)"));
        assertThat(DrainSummary.unreachableWebhookHint(new dev.drainboard.ui.model.WebhookStatus(true, url, 0, 0, false,
                "The eviction webhook is unauthenticated"), pods)).hasValueSatisfying(t ->
                assertThat(t).doesNotContain("client certificate"));
    }
}
