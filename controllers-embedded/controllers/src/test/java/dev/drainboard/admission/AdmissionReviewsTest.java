package dev.drainboard.admission;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.charset.StandardCharsets;

@DisplayName("AdmissionReview v1/v1beta1 reading and answering")
class AdmissionReviewsTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    static String review(String apiVersion, String uid, boolean dryRun) {
        return """
                {"apiVersion":"%s","kind":"AdmissionReview","request":{"uid":"%s",
                 "kind":{"group":"policy","version":"v1","kind":"Eviction"},
                 "resource":{"group":"","version":"v1","resource":"pods"},"subResource":"eviction",
                 "name":"virt-launcher-vm-abcde","namespace":"default","operation":"CREATE","dryRun":%s,
                 "object":{"apiVersion":"policy/v1","kind":"Eviction","metadata":{"name":"virt-launcher-vm-abcde","namespace":"default"}}}}
                """.formatted(apiVersion, uid, dryRun);
    }

    @ParameterizedTest
    @ValueSource(strings = {"admission.k8s.io/v1", "admission.k8s.io/v1beta1"})
    @DisplayName("a denial is answered in the request's version with its uid, allowed false, code 429 and the message")
    void denialInRequestVersion(String apiVersion) throws Exception {
        AdmissionReviews.Review review = AdmissionReviews.parse(review(apiVersion, "uid-42", true).getBytes(StandardCharsets.UTF_8));
        assertThat(review.eviction()).isEqualTo(new EvictionRequest("default", "virt-launcher-vm-abcde", true));

        JsonNode answer = JSON.readTree(AdmissionReviews.answer(review,
                new EvictionDecision.Deny(EvictionDecision.Why.NOT_LIVE_MIGRATABLE, "no")));

        assertThat(answer.path("apiVersion").asText()).isEqualTo(apiVersion);
        assertThat(answer.path("kind").asText()).isEqualTo("AdmissionReview");
        assertThat(answer.path("response").path("uid").asText()).isEqualTo("uid-42");
        assertThat(answer.path("response").path("allowed").asBoolean(true)).isFalse();
        assertThat(answer.path("response").path("status").path("code").asInt()).isEqualTo(429);
        assertThat(answer.path("response").path("status").path("message").asText()).isEqualTo("no");
    }

    @Test
    @DisplayName("an allowance carries allowed true and no status")
    void allowance() throws Exception {
        AdmissionReviews.Review review = AdmissionReviews.parse(review("admission.k8s.io/v1", "u", false).getBytes(StandardCharsets.UTF_8));
        JsonNode answer = JSON.readTree(AdmissionReviews.answer(review, new EvictionDecision.Allow(EvictionDecision.Why.NOT_A_LAUNCHER_POD)));
        assertThat(answer.path("response").path("allowed").asBoolean()).isTrue();
        assertThat(answer.path("response").has("status")).isFalse();
        assertThat(review.eviction().dryRun()).isFalse();
    }

    @ParameterizedTest(name = "Eviction annotations {0} → sent by the descheduler: {1}")
    @CsvSource(delimiter = '|', value = {
            "{\"requested-by\":\"sigs.k8s.io/descheduler\"} | true",
            "{\"requested-by\":\"someone-else\"}            | false",
            "{}                                                | false",
    })
    @DisplayName("the Eviction's requested-by annotation says whether the descheduler sent it")
    void deschedulerEviction(String annotations, boolean byDescheduler) throws Exception {
        String body = review("admission.k8s.io/v1", "u", false)
                .replace("\"metadata\":{\"name\"", "\"metadata\":{\"annotations\":" + annotations + ",\"name\"");
        AdmissionReviews.Review review = AdmissionReviews.parse(body.getBytes(StandardCharsets.UTF_8));
        assertThat(review.eviction().byDescheduler()).isEqualTo(byDescheduler);
    }

    @ParameterizedTest
    @DisplayName("anything but an AdmissionReview about a pod eviction is malformed")
    @ValueSource(strings = {
            "",
            "not json",
            "[1,2]",
            "{\"apiVersion\":\"admission.k8s.io/v1\",\"kind\":\"AdmissionReview\"}",
            "{\"apiVersion\":\"admission.k8s.io/v1\",\"kind\":\"AdmissionReview\",\"request\":\"x\"}",
            "{\"apiVersion\":\"admission.k8s.io/v1\",\"kind\":\"Pod\",\"request\":{\"uid\":\"u\",\"name\":\"p\",\"namespace\":\"n\"}}",
            "{\"apiVersion\":\"v1\",\"kind\":\"AdmissionReview\",\"request\":{\"uid\":\"u\",\"name\":\"p\",\"namespace\":\"n\"}}",
            "{\"apiVersion\":\"admission.k8s.io/v1\",\"kind\":\"AdmissionReview\",\"request\":{\"name\":\"p\",\"namespace\":\"n\"}}",
            "{\"apiVersion\":\"admission.k8s.io/v1\",\"kind\":\"AdmissionReview\",\"request\":{\"uid\":\"u\",\"namespace\":\"n\"}}",
            "{\"apiVersion\":\"admission.k8s.io/v1\",\"kind\":\"AdmissionReview\",\"request\":{\"uid\":\"u\",\"name\":\"p\"}}",
            "{\"apiVersion\":\"admission.k8s.io/v1\",\"kind\":\"AdmissionReview\",\"request\":{\"uid\":\"u\",\"name\":\"p\",\"namespace\":\"n\",\"kind\":{\"kind\":\"Pod\"}}}",
            "{\"apiVersion\":\"admission.k8s.io/v1\",\"kind\":\"AdmissionReview\",\"request\":{\"uid\":7,\"name\":\"p\",\"namespace\":\"n\"}}",
    })
    void malformed(String body) {
        assertThatThrownBy(() -> AdmissionReviews.parse(body.getBytes(StandardCharsets.UTF_8)))
                .isInstanceOf(AdmissionReviews.MalformedReviewException.class);
    }
}
