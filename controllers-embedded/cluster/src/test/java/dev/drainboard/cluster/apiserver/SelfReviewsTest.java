package dev.drainboard.cluster.apiserver;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.drainboard.cluster.apiserver.store.ObjectStore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

/** SelfSubjectRulesReview and SelfSubjectReview for the token holder, and discovery listing the review resources. */
class SelfReviewsTest {

    private final ApiServer api = new ApiServer(new ObjectStore(), new ResourceRegistry(), ServerOptions.defaults());

    @AfterEach
    void close() {
        api.close();
    }

    @Test
    void aRulesReviewAnswersClusterAdminsRulesAndTheBootstrapOnesOfEveryAuthenticatedUser() throws Exception {
        Answer answer = send("POST", "/apis/authorization.k8s.io/v1/selfsubjectrulesreviews",
                "{\"kind\":\"SelfSubjectRulesReview\",\"apiVersion\":\"authorization.k8s.io/v1\",\"spec\":{\"namespace\":\"default\"}}");

        assertThat(answer.code()).isEqualTo(201);
        JsonNode status = answer.body().path("status");
        assertThat(answer.body().path("kind").asText()).isEqualTo("SelfSubjectRulesReview");
        assertThat(answer.body().path("spec").path("namespace").asText()).isEqualTo("default");
        assertThat(status.path("incomplete").asBoolean(true)).isFalse();
        assertThat(status.path("resourceRules").get(0)).isEqualTo(Json.MAPPER.readTree(
                "{\"verbs\":[\"*\"],\"apiGroups\":[\"*\"],\"resources\":[\"*\"]}"));
        assertThat(status.path("nonResourceRules").get(0)).isEqualTo(Json.MAPPER.readTree(
                "{\"verbs\":[\"*\"],\"nonResourceURLs\":[\"*\"]}"));
        assertThat(status.path("resourceRules")).hasSize(3);
        assertThat(status.path("nonResourceRules")).hasSize(3);
    }

    @Test
    void aRulesReviewWithoutANamespaceIsABadRequest() throws Exception {
        Answer answer = send("POST", "/apis/authorization.k8s.io/v1/selfsubjectrulesreviews", "{\"spec\":{}}");

        assertThat(answer.code()).isEqualTo(400);
        assertThat(answer.body().path("message").asText()).isEqualTo("no namespace on request");
    }

    @Test
    void aSelfReviewSaysWhoTheTokenHolderIs() throws Exception {
        Answer answer = send("POST", "/apis/authentication.k8s.io/v1/selfsubjectreviews",
                "{\"kind\":\"SelfSubjectReview\",\"apiVersion\":\"authentication.k8s.io/v1\",\"metadata\":{\"creationTimestamp\":null}}");

        assertThat(answer.code()).isEqualTo(201);
        assertThat(answer.body().path("status").path("userInfo")).isEqualTo(Json.MAPPER.readTree(
                "{\"username\":\"drainboard-admin\",\"groups\":[\"system:masters\",\"system:authenticated\"]}"));
        assertThat(answer.body().path("metadata").path("creationTimestamp").asText()).isNotEmpty();
    }

    @Test
    void reviewsAreCreateOnly() throws Exception {
        assertThat(send("GET", "/apis/authentication.k8s.io/v1/selfsubjectreviews", "").code()).isEqualTo(405);
    }

    @Test
    void discoveryListsTheReviewResources() throws Exception {
        JsonNode groups = send("GET", "/apis", "").body();
        JsonNode authorization = send("GET", "/apis/authorization.k8s.io/v1", "").body();
        JsonNode authentication = send("GET", "/apis/authentication.k8s.io/v1", "").body();

        assertThat(groups.path("groups").findValuesAsText("name")).contains("authentication.k8s.io", "authorization.k8s.io");
        assertThat(authorization.path("resources").findValuesAsText("name"))
                .containsExactly("selfsubjectaccessreviews", "selfsubjectrulesreviews");
        assertThat(authentication.path("resources").get(0)).isEqualTo(Json.MAPPER.readTree("""
                {"name": "selfsubjectreviews", "singularName": "selfsubjectreview", "namespaced": false,
                 "kind": "SelfSubjectReview", "verbs": ["create"]}"""));
        assertThat(send("GET", "/apis/authentication.k8s.io", "").body().path("preferredVersion").path("version").asText())
                .isEqualTo("v1");
    }

    private record Answer(int code, JsonNode body) {
    }

    private Answer send(String method, String path, String body) throws Exception {
        int[] code = new int[1];
        byte[][] out = new byte[1][];
        api.handle(new ApiRequest(method, path, Map.<String, List<String>>of(), "application/json", "application/json",
                body.getBytes(StandardCharsets.UTF_8)), new ResponseChannel() {
            @Override
            public void respond(int c, String contentType, byte[] b) {
                code[0] = c;
                out[0] = b;
            }

            @Override
            public void startStream(String contentType) {
            }

            @Override
            public void sendFrame(byte[] frame) {
            }

            @Override
            public void endStream() {
            }

            @Override
            public void onClose(Runnable action) {
            }
        });
        return new Answer(code[0], Json.MAPPER.readTree(out[0]));
    }
}
