package dev.drainboard.cluster.apiserver;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.drainboard.cluster.apiserver.store.ObjectStore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

/**
 * Create, update and patch refuse bad metadata with kube-apiserver's 422 Status, for built-in and custom resources,
 * and store nothing. Requests go through the API server's dispatch in process.
 */
class MetadataValidationApiTest {

    private static final String NAME_PART = "name part must consist of alphanumeric characters, '-', '_' or '.', and must"
            + " start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for"
            + " validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";

    private final ObjectStore store = new ObjectStore();
    private final ApiServer api = new ApiServer(store, new ResourceRegistry(), ServerOptions.defaults());

    @org.junit.jupiter.api.BeforeEach
    void defaultNamespace() {
        api.load((com.fasterxml.jackson.databind.node.ObjectNode) Json.MAPPER.valueToTree(
                Map.of("apiVersion", "v1", "kind", "Namespace", "metadata", Map.of("name", "default"))));
    }

    @AfterEach
    void close() {
        api.close();
    }

    @Test
    void aNodeWithABadLabelKeyIsRefusedWithKubesStatus() throws Exception {
        Answer answer = send("POST", "/api/v1/nodes", "application/json",
                "{\"metadata\": {\"name\": \"n1\", \"labels\": {\"bad key!\": \"x\"}}}");

        assertThat(answer.code()).isEqualTo(422);
        assertThat(answer.body()).isEqualTo(Json.MAPPER.readTree("""
                {"kind": "Status", "apiVersion": "v1", "metadata": {}, "status": "Failure",
                 "message": "Node \\"n1\\" is invalid: metadata.labels: Invalid value: \\"bad key!\\": %s",
                 "reason": "Invalid",
                 "details": {"name": "n1", "kind": "Node", "causes": [
                   {"reason": "FieldValueInvalid", "message": "Invalid value: \\"bad key!\\": %s", "field": "metadata.labels"}]},
                 "code": 422}""".formatted(NAME_PART, NAME_PART)));
        assertThat(store.get(BuiltinResources.NODES, null, "n1")).isNull();
    }

    @Test
    void aPatchAddingABadLabelIsRefusedAndChangesNothing() throws Exception {
        send("POST", "/api/v1/nodes", "application/json", "{\"metadata\": {\"name\": \"n1\"}}");
        String before = Json.resourceVersion(store.get(BuiltinResources.NODES, null, "n1")) + "";

        Answer answer = send("PATCH", "/api/v1/nodes/n1", "application/merge-patch+json",
                "{\"metadata\": {\"labels\": {\"bad key!\": \"x\"}}}");

        assertThat(answer.code()).isEqualTo(422);
        assertThat(answer.body().path("message").asText())
                .isEqualTo("Node \"n1\" is invalid: metadata.labels: Invalid value: \"bad key!\": " + NAME_PART);
        // as kube-apiserver: the common metadata rules, the update rules and the strategy's each report it
        assertThat(answer.body().path("details").path("causes")).hasSize(3)
                .allSatisfy(cause -> assertThat(cause.path("field").asText()).isEqualTo("metadata.labels"));
        assertThat(Json.resourceVersion(store.get(BuiltinResources.NODES, null, "n1")) + "").isEqualTo(before);
        assertThat(store.get(BuiltinResources.NODES, null, "n1").path("metadata").has("labels")).isFalse();
    }

    @Test
    void severalErrorsAreBracketedInTheMessage() throws Exception {
        Answer answer = send("POST", "/api/v1/namespaces/default/configmaps", "application/json",
                "{\"metadata\": {\"name\": \"c\", \"labels\": {\"k\": \"bad value\"}, \"annotations\": {\"a/b/c\": \"\"}}}");

        assertThat(answer.code()).isEqualTo(422);
        assertThat(answer.body().path("message").asText()).startsWith("ConfigMap \"c\" is invalid: [metadata.labels: Invalid value:"
                + " \"bad value\": a valid label must be an empty string").contains(", metadata.annotations: Invalid value: \"a/b/c\": ")
                .endsWith("]");
        assertThat(answer.body().path("details").path("causes")).hasSize(2);
    }

    @Test
    void anOversizedAnnotationIsTooLong() throws Exception {
        send("POST", "/api/v1/namespaces/default/configmaps", "application/json", "{\"metadata\": {\"name\": \"c\"}}");
        String big = "x".repeat(256 * 1024);

        Answer answer = send("PATCH", "/api/v1/namespaces/default/configmaps/c", "application/merge-patch+json",
                "{\"metadata\": {\"annotations\": {\"big\": \"" + big + "\"}}}");

        assertThat(answer.code()).isEqualTo(422);
        assertThat(answer.body().path("message").asText())
                .isEqualTo("ConfigMap \"c\" is invalid: metadata.annotations: Too long: may not be more than 262144 bytes");
        assertThat(answer.body().path("details").path("causes").get(0).path("reason").asText()).isEqualTo("FieldValueTooLong");
        assertThat(store.get(BuiltinResources.CONFIG_MAPS, "default", "c").path("metadata").has("annotations")).isFalse();
    }

    @Test
    void namesFollowEachResourcesRule() throws Exception {
        Answer namespace = send("POST", "/api/v1/namespaces", "application/json", "{\"metadata\": {\"name\": \"team.a\"}}");
        Answer service = send("POST", "/api/v1/namespaces/default/services", "application/json", "{\"metadata\": {\"name\": \"1web\"}}");
        Answer deployment = send("POST", "/apis/apps/v1/namespaces/default/deployments", "application/json",
                "{\"metadata\": {\"name\": \"Web\"}, \"spec\": {}}");

        assertThat(namespace.body().path("message").asText())
                .isEqualTo("Namespace \"team.a\" is invalid: metadata.name: Invalid value: \"team.a\": must not contain dots");
        assertThat(service.body().path("message").asText()).isEqualTo("Service \"1web\" is invalid: metadata.name: Invalid"
                + " value: \"1web\": a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an"
                + " alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used"
                + " for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')");
        assertThat(deployment.body().path("message").asText()).startsWith(
                "Deployment.apps \"Web\" is invalid: metadata.name: Invalid value: \"Web\": a lowercase RFC 1123 subdomain");
        assertThat(deployment.body().path("details").path("group").asText()).isEqualTo("apps");
        assertThat(deployment.body().path("details").path("kind").asText()).isEqualTo("Deployment");
        assertThat(List.of(namespace.code(), service.code(), deployment.code())).containsOnly(422);
    }

    @Test
    void aMissingNameIsReportedWithAnEmptyQuotedName() throws Exception {
        Answer answer = send("POST", "/api/v1/namespaces/default/configmaps", "application/json", "{\"metadata\": {}}");

        assertThat(answer.code()).isEqualTo(422);
        assertThat(answer.body().path("message").asText())
                .isEqualTo("ConfigMap \"\" is invalid: metadata.name: Required value: name or generateName is required");
    }

    @Test
    void aGeneratedNameIsMadeBeforeValidationAndCutTo58CharactersOfPrefix() throws Exception {
        Answer bad = send("POST", "/api/v1/namespaces/default/configmaps", "application/json",
                "{\"metadata\": {\"generateName\": \"Web-\"}}");
        Answer long_ = send("POST", "/api/v1/namespaces/default/configmaps", "application/json",
                "{\"metadata\": {\"generateName\": \"" + "a".repeat(70) + "\"}}");

        assertThat(bad.body().path("message").asText()).matches("ConfigMap \"Web-[a-z0-9]{5}\" is invalid: \\[metadata.generateName: "
                + "Invalid value: \"Web-\": a lowercase RFC 1123 subdomain.*, metadata.name: Invalid value: \"Web-[a-z0-9]{5}\": .*]");
        assertThat(long_.code()).isEqualTo(201);
        assertThat(long_.body().path("metadata").path("name").asText()).hasSize(63).startsWith("a".repeat(58));
    }

    @Test
    void customResourcesAreValidatedToo() throws Exception {
        send("POST", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions", "application/json", """
                {"metadata": {"name": "widgets.example.com"},
                 "spec": {"group": "example.com", "scope": "Namespaced",
                          "names": {"plural": "widgets", "singular": "widget", "kind": "Widget"},
                          "versions": [{"name": "v1", "served": true, "storage": true,
                                        "schema": {"openAPIV3Schema": {"type": "object", "x-kubernetes-preserve-unknown-fields": true}}}]}}""");

        Answer answer = send("POST", "/apis/example.com/v1/namespaces/default/widgets", "application/json",
                "{\"metadata\": {\"name\": \"w\", \"annotations\": {\"bad key!\": \"x\"}}}");

        assertThat(answer.code()).isEqualTo(422);
        assertThat(answer.body().path("message").asText())
                .isEqualTo("Widget.example.com \"w\" is invalid: metadata.annotations: Invalid value: \"bad key!\": " + NAME_PART);
    }

    @Test
    void aWebhookConfigurationWithAPlainHttpUrlIsRefused() throws Exception {
        Answer answer = send("POST", "/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations", "application/json", """
                {"metadata": {"name": "guard"},
                 "webhooks": [{"name": "guard.drainboard.dev", "admissionReviewVersions": ["v1"], "sideEffects": "None",
                               "clientConfig": {"url": "http://127.0.0.1:8080/validate"},
                               "rules": [{"operations": ["CREATE"], "apiGroups": [""], "apiVersions": ["v1"], "resources": ["pods"]}]}]}""");

        assertThat(answer.code()).isEqualTo(422);
        assertThat(answer.body().path("message").asText()).isEqualTo("ValidatingWebhookConfiguration.admissionregistration.k8s.io"
                + " \"guard\" is invalid: webhooks[0].clientConfig.url: Invalid value: \"http\": 'https' is the only allowed URL"
                + " scheme; desired format: https://host[/path]");
        assertThat(store.count(BuiltinResources.VALIDATING_WEBHOOK_CONFIGURATIONS)).isZero();
    }

    @Test
    void aScenarioObjectWithBadMetadataIsRefusedOnLoad() throws Exception {
        var pod = (com.fasterxml.jackson.databind.node.ObjectNode) Json.MAPPER.readTree("""
                {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p", "namespace": "default", "labels": {"a b": "c"}},
                 "spec": {"containers": [{"name": "c", "image": "busybox"}]}}""");

        org.assertj.core.api.Assertions.assertThatThrownBy(() -> api.load(pod)).isInstanceOfSatisfying(ApiException.class,
                e -> assertThat(e.getMessage()).startsWith("Pod \"p\" is invalid: metadata.labels: Invalid value: \"a b\": name part"));
    }

    private record Answer(int code, JsonNode body) {
    }

    private Answer send(String method, String path, String contentType, String body) throws Exception {
        Capture capture = new Capture();
        api.handle(new ApiRequest(method, path, Map.of(), "application/json", contentType,
                body.getBytes(StandardCharsets.UTF_8)), capture);
        return new Answer(capture.code, Json.MAPPER.readTree(capture.body));
    }

    private static final class Capture implements ResponseChannel {
        int code;
        byte[] body;

        @Override
        public void respond(int code, String contentType, byte[] body) {
            this.code = code;
            this.body = body;
        }

        @Override
        public void startStream(String contentType) {
            throw new AssertionError("no stream expected");
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
    }
}
