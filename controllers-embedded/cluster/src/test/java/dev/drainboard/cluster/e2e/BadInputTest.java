package dev.drainboard.cluster.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.drainboard.pki.TrustedClients;
import dev.drainboard.testing.KubectlRequirement;
import dev.drainboard.testing.RequiresKubectl;

import java.io.ByteArrayInputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Bad requests get a JSON {@code Status} with the right code, and never take the server down:
 * after each one the server still answers. Requests go through a plain JDK client trusting the
 * cluster's CA with the bearer token, and through {@code kubectl --raw} (those two tests, and the check
 * that kubectl still works after each test, need kubectl; the others run without it).
 */
@DisplayName("bad input is answered with a Status and never takes the server down")
class BadInputTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String CONFIGMAPS = "/api/v1/namespaces/default/configmaps";
    private static final int THREE_MIB = 3 * 1024 * 1024;

    @TempDir
    static Path workDir;

    private static E2eCluster e2e;
    private static HttpClient http;

    @BeforeAll
    static void startCluster() throws Exception {
        e2e = E2eCluster.start(null, workDir);
        http = HttpClient.newBuilder()
                .sslContext(TrustedClients.trusting(e2e.cluster().caPem()))
                .connectTimeout(Duration.ofSeconds(10))
                .build();
    }

    @AfterAll
    static void stopCluster() {
        if (e2e != null) {
            e2e.close();
        }
    }

    @AfterEach
    void serverStillAnswers() throws Exception {
        HttpResponse<String> version = send(request("/version").GET());
        assertThat(version.statusCode()).isEqualTo(200);
        HttpResponse<String> namespaces = send(request("/api/v1/namespaces").GET());
        assertThat(namespaces.statusCode()).isEqualTo(200);
        assertThat(JSON.readTree(namespaces.body()).path("items").findValuesAsText("name")).contains("default");
        if (KubectlRequirement.isInstalled()) { // and kubectl still works, where it is there (the kubectl tests ask for it)
            assertThat(e2e.kubectl().succeed("get", "namespaces", "-o", "name").stdout()).contains("namespace/default");
        }
    }

    @Test
    @DisplayName("malformed JSON is a 400 BadRequest")
    void malformedJson() throws Exception {
        var response = post(CONFIGMAPS, "application/json", "{\"kind\": \"ConfigMap\", \"metadata\": {".getBytes(StandardCharsets.UTF_8));

        assertStatus(response, 400, "BadRequest");
    }

    @Test
    @DisplayName("malformed YAML is a 400 BadRequest")
    void malformedYaml() throws Exception {
        var response = post(CONFIGMAPS, "application/yaml", "metadata: [unclosed\n  name: x: y\n".getBytes(StandardCharsets.UTF_8));

        assertStatus(response, 400, "BadRequest");
    }

    @Test
    @DisplayName("a JSON value that is not an object is a 400 BadRequest")
    void jsonArrayBody() throws Exception {
        var response = post(CONFIGMAPS, "application/json", "[1, 2, 3]".getBytes(StandardCharsets.UTF_8));

        assertStatus(response, 400, "BadRequest");
    }

    @Test
    @DisplayName("an unsupported content type is a 415 UnsupportedMediaType")
    void wrongContentType() throws Exception {
        var response = post(CONFIGMAPS, "text/plain", "name=x".getBytes(StandardCharsets.UTF_8));

        assertStatus(response, 415, "UnsupportedMediaType");
    }

    @Test
    @DisplayName("a body over 3 MiB is a 413 RequestEntityTooLarge")
    void hugeBody() throws Exception {
        var response = post(CONFIGMAPS, "application/json", hugeConfigMap());

        assertStatus(response, 413, "RequestEntityTooLarge");
    }

    @Test
    @DisplayName("a chunked body over 3 MiB (no Content-Length) is a 413 too")
    void hugeChunkedBody() throws Exception {
        byte[] body = hugeConfigMap();
        var response = send(request(CONFIGMAPS)
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofInputStream(() -> new ByteArrayInputStream(body))));

        assertStatus(response, 413, "RequestEntityTooLarge");
    }

    @Test
    @DisplayName("an unknown resource is a 404 NotFound")
    void unknownResource() throws Exception {
        assertStatus(send(request("/api/v1/namespaces/default/widgets").GET()), 404, "NotFound");
        assertStatus(send(request("/apis/example.com/v1/things").GET()), 404, "NotFound");
        assertStatus(post("/api/v1/namespaces/default/widgets", "application/json", "{}".getBytes(StandardCharsets.UTF_8)),
                404, "NotFound");
    }

    @RequiresKubectl
    @Test
    @DisplayName("kubectl --raw on an unknown resource reports NotFound")
    void unknownResourceThroughKubectl() {
        var result = e2e.kubectl().run("get", "--raw", "/api/v1/namespaces/default/widgets");

        assertThat(result.exitCode()).as(result.describe()).isNotZero();
        assertThat(result.stderr()).contains("Error from server (NotFound): the server could not find the requested resource");
    }

    @RequiresKubectl
    @Test
    @DisplayName("kubectl create --raw with a malformed file reports BadRequest")
    void malformedBodyThroughKubectl() throws Exception {
        Path file = workDir.resolve("broken.json");
        java.nio.file.Files.writeString(file, "{\"apiVersion\": \"v1\", \"kind\": ");

        var result = e2e.kubectl().run("create", "--raw", CONFIGMAPS, "-f", file.toString());

        assertThat(result.exitCode()).as(result.describe()).isNotZero();
        assertThat(result.stderr()).contains("Error from server (BadRequest)");
    }

    @RequiresKubectl
    @Test
    @DisplayName("kubectl create -f with a ConfigMap over 3 MiB reports RequestEntityTooLarge with the limit")
    void hugeBodyThroughKubectl() throws Exception {
        Path file = workDir.resolve("huge.json");
        java.nio.file.Files.write(file, hugeConfigMap());

        var result = e2e.kubectl().run("create", "-f", file.toString());

        assertThat(result.exitCode()).as(result.describe()).isNotZero();
        assertThat(result.stderr()).contains("Error from server (RequestEntityTooLarge)")
                .contains("Request entity too large: limit is 3145728");
        assertThat(e2e.kubectl().run("get", "configmap", "huge").exitCode()).isNotZero();
    }

    @Test
    @DisplayName("a request without the bearer token is a 401 Unauthorized")
    void missingToken() throws Exception {
        var response = http.send(HttpRequest.newBuilder(URI.create(e2e.cluster().url() + "/api/v1/namespaces"))
                .timeout(Duration.ofSeconds(30)).GET().build(), HttpResponse.BodyHandlers.ofString());

        assertStatus(response, 401, "Unauthorized");
    }

    // ---- helpers

    private static byte[] hugeConfigMap() {
        char[] filler = new char[THREE_MIB + 1024];
        Arrays.fill(filler, 'x');
        return ("{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"huge\"},\"data\":{\"blob\":\""
                + new String(filler) + "\"}}").getBytes(StandardCharsets.UTF_8);
    }

    private static void assertStatus(HttpResponse<String> response, int code, String reason) throws Exception {
        assertThat(response.statusCode()).as(response.body()).isEqualTo(code);
        assertThat(response.headers().firstValue("Content-Type")).get().asString().startsWith("application/json");
        JsonNode status = JSON.readTree(response.body());
        assertThat(status.path("kind").asText()).isEqualTo("Status");
        assertThat(status.path("apiVersion").asText()).isEqualTo("v1");
        assertThat(status.path("status").asText()).isEqualTo("Failure");
        assertThat(status.path("code").asInt()).isEqualTo(code);
        assertThat(status.path("reason").asText()).isEqualTo(reason);
        assertThat(status.path("message").asText()).isNotBlank();
    }

    private static HttpResponse<String> post(String path, String contentType, byte[] body) throws Exception {
        return send(request(path).header("Content-Type", contentType).POST(HttpRequest.BodyPublishers.ofByteArray(body)));
    }

    private static HttpRequest.Builder request(String path) {
        return HttpRequest.newBuilder(URI.create(e2e.cluster().url() + path))
                .timeout(Duration.ofSeconds(30))
                .header("Authorization", "Bearer " + e2e.cluster().token())
                .header("Accept", "application/json");
    }

    private static HttpResponse<String> send(HttpRequest.Builder request) throws Exception {
        return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }
}
