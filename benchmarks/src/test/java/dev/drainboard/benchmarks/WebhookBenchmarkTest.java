package dev.drainboard.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/** The webhook benchmark's bookkeeping, against a fake webhook: which answers count as wrong, and failures carry on. */
class WebhookBenchmarkTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String REFUSAL = "VirtualMachineInstance bench-blocked is not migratable";
    private static final WebhookBenchmark.Expected ALLOWED = WebhookBenchmark.Expected.allowedAnswer();
    private static final WebhookBenchmark.Expected DENIED = WebhookBenchmark.Expected.denied(429, REFUSAL);

    private static HttpConnection.Response answer(int status, String body) {
        return new HttpConnection.Response(status, body.getBytes(StandardCharsets.UTF_8));
    }

    private static String allowed(String uid) {
        return "{\"apiVersion\":\"admission.k8s.io/v1\",\"kind\":\"AdmissionReview\",\"response\":{\"uid\":\"" + uid
                + "\",\"allowed\":true}}";
    }

    private static String refused(String uid, int code, String message) {
        return "{\"apiVersion\":\"admission.k8s.io/v1\",\"kind\":\"AdmissionReview\",\"response\":{\"uid\":\"" + uid
                + "\",\"allowed\":false,\"status\":{\"metadata\":{},\"message\":\"" + message + "\",\"code\":" + code + "}}}";
    }

    @Test
    void theRightAnswersPass() {
        assertThat(WebhookBenchmark.wrongAnswer(ALLOWED, "uid-1", answer(200, allowed("uid-1")))).isEmpty();
        assertThat(WebhookBenchmark.wrongAnswer(DENIED, "uid-2", answer(200, refused("uid-2", 429, REFUSAL)))).isEmpty();
    }

    @ParameterizedTest(name = "[{index}] expected {0}, got: {1}")
    @CsvSource(delimiter = '|', textBlock = """
            # expected | answer                                                                                   | says
            allowed    | 500 {}                                                                                   | HTTP 500, expected 200
            allowed    | 200 not json                                                                             | not JSON
            allowed    | 200 {"apiVersion":"admission.k8s.io/v1","kind":"Status"}                                 | not an admission.k8s.io/v1 AdmissionReview
            allowed    | 200 {"apiVersion":"admission.k8s.io/v1","kind":"AdmissionReview","response":{"uid":"uid-9","allowed":true}} | answers uid "uid-9", expected uid-1
            allowed    | 200 {"apiVersion":"admission.k8s.io/v1","kind":"AdmissionReview","response":{"uid":"uid-1"}}               | no boolean response.allowed
            allowed    | 200 {"apiVersion":"admission.k8s.io/v1","kind":"AdmissionReview","response":{"uid":"uid-1","allowed":false,"status":{"code":429,"message":"m"}}} | allowed false, expected allowed
            allowed    | 200 {"apiVersion":"admission.k8s.io/v1","kind":"AdmissionReview","response":{"uid":"uid-1","allowed":true,"status":{"code":429}}}               | an allowed answer with a status
            denied     | 200 {"apiVersion":"admission.k8s.io/v1","kind":"AdmissionReview","response":{"uid":"uid-1","allowed":true}}                                     | allowed true, expected denied 429
            denied     | 200 {"apiVersion":"admission.k8s.io/v1","kind":"AdmissionReview","response":{"uid":"uid-1","allowed":false}}                                    | refused with status null, expected code 429
            denied     | 200 {"apiVersion":"admission.k8s.io/v1","kind":"AdmissionReview","response":{"uid":"uid-1","allowed":false,"status":{"code":400,"message":"VirtualMachineInstance bench-blocked is not migratable"}}} | expected code 429
            denied     | 200 {"apiVersion":"admission.k8s.io/v1","kind":"AdmissionReview","response":{"uid":"uid-1","allowed":false,"status":{"code":429,"message":"another reason"}}} | refused with message "another reason"
            """)
    void aWrongAnswerIsCaughtAndSaysWhatIsWrong(String expected, String got, String says) {
        int space = got.indexOf(' ');
        HttpConnection.Response response = answer(Integer.parseInt(got.substring(0, space)), got.substring(space + 1));

        assertThat(WebhookBenchmark.wrongAnswer(expected.equals("allowed") ? ALLOWED : DENIED, "uid-1", response))
                .hasValueSatisfying(problem -> assertThat(problem).contains(says));
    }

    /**
     * A fake webhook that answers right, except: request uid-5's connection breaks (the exchange throws), uid-9 is
     * answered allowed although it should be refused, and uid-13 is refused with 400 instead of 429.
     */
    private static final class FaultyWebhook implements WebhookBenchmark.Connector {
        final AtomicInteger opened = new AtomicInteger();
        final Set<String> asked = ConcurrentHashMap.newKeySet();

        @Override
        public WebhookBenchmark.Exchanger open() {
            opened.incrementAndGet();
            return new WebhookBenchmark.Exchanger() {
                boolean broken;

                @Override
                public HttpConnection.Response post(String review) throws IOException {
                    if (broken) {
                        throw new IllegalStateException("a broken connection was used again");
                    }
                    JsonNode request = JSON.readTree(review).path("request");
                    String uid = request.path("uid").asText();
                    asked.add(uid);
                    boolean refuse = request.path("name").asText().equals("blocked");
                    return switch (uid) {
                        case "uid-5" -> {
                            broken = true;
                            throw new SocketException("Connection reset");
                        }
                        case "uid-9" -> answer(200, allowed(uid));
                        case "uid-13" -> answer(200, refused(uid, 400, REFUSAL));
                        default -> answer(200, refuse ? refused(uid, 429, REFUSAL) : allowed(uid));
                    };
                }

                @Override
                public void close() {
                    broken = true;
                }
            };
        }
    }

    @Test
    void aFailedRequestIsCountedAndTheConnectionsOtherRequestsAreStillSentAndChecked() throws Exception {
        FaultyWebhook webhook = new FaultyWebhook();
        List<WebhookBenchmark.Case> cases = List.of(
                new WebhookBenchmark.Case("plain", ALLOWED),
                new WebhookBenchmark.Case("blocked", DENIED));

        WebhookBenchmark.Result result = WebhookBenchmark.drive(webhook, cases, 200, 1, 2);
        WebhookBenchmark.Report report = WebhookBenchmark.report(result, null, 0);

        assertThat(webhook.asked).as("every request was sent, those after the failure on its connection too").hasSize(200);
        assertThat(webhook.opened).as("two connections, and one more after uid-5's broke").hasValue(3);
        assertThat(report.requests()).isEqualTo(200);
        assertThat(report.failedRequests()).isEqualTo(1);
        assertThat(report.answered()).isEqualTo(199);
        assertThat(report.wrongAnswers()).isEqualTo(2);
        assertThat(report.rightAnswers()).isEqualTo(Map.of("allowed", 100L, "denied 429", 97L));
        assertThat(report.problems()).hasSize(3).anySatisfy(p -> assertThat(p).startsWith("request uid-5 (blocked) failed"))
                .anySatisfy(p -> assertThat(p).startsWith("request uid-9 (blocked): allowed true"))
                .anySatisfy(p -> assertThat(p).startsWith("request uid-13 (blocked): refused with status"));
        assertThat(report.passed()).isFalse();

        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        WebhookBenchmark.print(report, new PrintStream(printed, true, StandardCharsets.UTF_8));
        assertThat(printed.toString(StandardCharsets.UTF_8))
                .contains("FAILED: 2 wrong answers, 1 failed requests, 0 unanswered, 0 problems in the warm-up");
    }

    @Test
    void problemsDuringTheWarmUpFailTheRunToo() throws Exception {
        FaultyWebhook webhook = new FaultyWebhook();
        List<WebhookBenchmark.Case> cases = List.of(new WebhookBenchmark.Case("plain", ALLOWED));
        WebhookBenchmark.Result warmup = WebhookBenchmark.drive(webhook, cases, 10, 1, 1);
        WebhookBenchmark.Result measured = new WebhookBenchmark.Result(0);

        WebhookBenchmark.Report report = WebhookBenchmark.report(measured, warmup, 0);

        assertThat(report.warmupProblems()).as("uid-5 failed (uid-9 and uid-13 ask about the plain pod: right answers)")
                .isEqualTo(1);
        assertThat(report.passed()).isFalse();
        assertThat(report.problems()).allSatisfy(p -> assertThat(p).startsWith("warm-up: "));
    }
}
