package dev.drainboard.admissionreview;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.charset.StandardCharsets;
import java.util.List;

@DisplayName("AdmissionReview JSON: the API server's request, the webhook's response")
class AdmissionReviewTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    static AdmissionReview.Request eviction(String apiVersion, boolean dryRun) throws Exception {
        JsonNode object = JSON.readTree("{\"apiVersion\":\"policy/v1\",\"kind\":\"Eviction\",\"metadata\":{\"name\":\"p\","
                + "\"namespace\":\"default\",\"annotations\":{\"requested-by\":\"sigs.k8s.io/descheduler\"}}}");
        return new AdmissionReview.Request(apiVersion, "uid-1", new AdmissionReview.GroupVersionName("policy", "v1", "Eviction"),
                new AdmissionReview.GroupVersionName("", "v1", "pods"), "eviction", "p", "default", "CREATE", "admin",
                List.of("system:masters", "system:authenticated"), object, null, dryRun);
    }

    @ParameterizedTest
    @ValueSource(strings = {"admission.k8s.io/v1", "admission.k8s.io/v1beta1"})
    @DisplayName("a request reads back as it was written, in either version")
    void requestRoundTrip(String apiVersion) throws Exception {
        AdmissionReview.Request sent = eviction(apiVersion, true);
        JsonNode json = AdmissionReview.request(sent);

        assertThat(json.path("request").path("requestKind")).isEqualTo(json.path("request").path("kind"));
        assertThat(json.path("request").path("requestSubResource").asText()).isEqualTo("eviction");
        assertThat(json.path("request").path("options").path("kind").asText()).isEqualTo("CreateOptions");
        assertThat(AdmissionReview.parseRequest(JSON.writeValueAsBytes(json))).isEqualTo(sent);
    }

    @Test
    @DisplayName("an allowance carries allowed true and no status; a denial its code, message and the request's uid")
    void responses() throws Exception {
        JsonNode allow = JSON.readTree(AdmissionReview.response(AdmissionReview.Response.allow("admission.k8s.io/v1", "u")));
        assertThat(allow.path("response").path("allowed").asBoolean()).isTrue();
        assertThat(allow.path("response").has("status")).isFalse();

        byte[] deny = AdmissionReview.response(AdmissionReview.Response.deny("admission.k8s.io/v1beta1", "u", 429, "no"));
        assertThat(AdmissionReview.parseResponse(JSON.readTree(deny)))
                .isEqualTo(new AdmissionReview.Response("admission.k8s.io/v1beta1", "u", false, 429, "no", "", null));
    }

    @ParameterizedTest
    @ValueSource(strings = {
            "",
            "not json",
            "[1,2]",
            "{\"apiVersion\":\"admission.k8s.io/v1\",\"kind\":\"AdmissionReview\"}",
            "{\"apiVersion\":\"admission.k8s.io/v1\",\"kind\":\"Pod\",\"request\":{\"uid\":\"u\"}}",
            "{\"apiVersion\":\"v1\",\"kind\":\"AdmissionReview\",\"request\":{\"uid\":\"u\"}}",
            "{\"apiVersion\":\"admission.k8s.io/v1\",\"kind\":\"AdmissionReview\",\"request\":{\"uid\":7}}",
    })
    @DisplayName("a request that is no AdmissionReview with a uid is malformed")
    void malformedRequest(String body) {
        assertThatThrownBy(() -> AdmissionReview.parseRequest(body.getBytes(StandardCharsets.UTF_8)))
                .isInstanceOf(AdmissionReview.MalformedReviewException.class);
    }

    @ParameterizedTest
    @ValueSource(strings = {"{}", "{\"response\":true}"})
    @DisplayName("a response without a response object is malformed")
    void malformedResponse(String body) {
        assertThatThrownBy(() -> AdmissionReview.parseResponse(JSON.readTree(body)))
                .isInstanceOf(AdmissionReview.MalformedReviewException.class).hasMessage("no response field");
    }
}
