package dev.drainboard.cluster.apiserver;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.drainboard.cluster.apiserver.store.ObjectStore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/** The apps/v1 defaults kube-apiserver applies (pkg/apis/apps/v1/defaults.go), through the request path. */
class WorkloadDefaultsTest {

    private final ObjectStore store = new ObjectStore();
    private final ApiServer api = new ApiServer(store, new ResourceRegistry(), ServerOptions.defaults());

    @AfterEach
    void close() {
        api.close();
    }

    private ObjectNode call(String method, String path, String contentType, String body) {
        ObjectNode[] answer = new ObjectNode[1];
        int[] code = new int[1];
        api.handle(new ApiRequest(method, path, Map.of(), "application/json", contentType, body.getBytes(StandardCharsets.UTF_8)),
                new ResponseChannel() {
                    @Override
                    public void respond(int c, String type, byte[] bytes) {
                        code[0] = c;
                        try {
                            answer[0] = (ObjectNode) Json.MAPPER.readTree(bytes);
                        } catch (IOException e) {
                            throw new IllegalStateException(e);
                        }
                    }

                    @Override
                    public void startStream(String type) {
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
        assertThat(code[0]).as(answer[0].toString()).isLessThan(300);
        return answer[0];
    }

    private ObjectNode create(String plural, String yaml) throws IOException {
        if (store.get(BuiltinResources.NAMESPACES, null, "ns") == null) {
            call("POST", "/api/v1/namespaces", "application/json", "{\"metadata\":{\"name\":\"ns\"}}");
        }
        String json = Json.MAPPER.writeValueAsString(Json.YAML.readTree(yaml));
        return call("POST", "/apis/apps/v1/namespaces/ns/" + plural, "application/json", json);
    }

    private static String at(JsonNode object, String pointer) {
        return object.at(pointer).toString();
    }

    @Test
    void deploymentsGetKubesDefaults() throws IOException {
        ObjectNode d = create("deployments", """
                apiVersion: apps/v1
                kind: Deployment
                metadata: {name: web}
                spec:
                  selector: {matchLabels: {app: web}}
                  template:
                    metadata: {labels: {app: web}}
                    spec: {containers: [{name: c, image: nginx, ports: [{containerPort: 80}]}]}
                status: {replicas: 9}
                """);
        assertThat(at(d, "/spec/replicas")).isEqualTo("1");
        assertThat(at(d, "/spec/strategy")).isEqualTo("{\"type\":\"RollingUpdate\",\"rollingUpdate\":{\"maxUnavailable\":\"25%\",\"maxSurge\":\"25%\"}}");
        assertThat(at(d, "/spec/revisionHistoryLimit")).isEqualTo("10");
        assertThat(at(d, "/spec/progressDeadlineSeconds")).isEqualTo("600");
        assertThat(at(d, "/spec/template/spec/restartPolicy")).isEqualTo("\"Always\"");
        assertThat(at(d, "/spec/template/spec/containers/0/imagePullPolicy")).isEqualTo("\"Always\"");
        assertThat(at(d, "/spec/template/spec/containers/0/ports/0/protocol")).isEqualTo("\"TCP\"");
        assertThat(at(d, "/status")).isEqualTo("{}");

        // Recreate has no rollingUpdate to default.
        ObjectNode recreate = create("deployments", """
                apiVersion: apps/v1
                kind: Deployment
                metadata: {name: batch}
                spec:
                  strategy: {type: Recreate}
                  selector: {matchLabels: {app: batch}}
                  template: {metadata: {labels: {app: batch}}, spec: {containers: [{name: c, image: "job:1"}]}}
                """);
        assertThat(at(recreate, "/spec/strategy")).isEqualTo("{\"type\":\"Recreate\"}");
    }

    @Test
    void statefulSetsGetOrderedReadyRollingUpdatesAndRetainedClaims() throws IOException {
        ObjectNode sts = create("statefulsets", """
                apiVersion: apps/v1
                kind: StatefulSet
                metadata: {name: db}
                spec:
                  selector: {matchLabels: {app: db}}
                  template: {metadata: {labels: {app: db}}, spec: {containers: [{name: c, image: "postgres:17"}]}}
                """);
        assertThat(at(sts, "/spec/podManagementPolicy")).isEqualTo("\"OrderedReady\"");
        assertThat(at(sts, "/spec/updateStrategy")).isEqualTo("{\"type\":\"RollingUpdate\",\"rollingUpdate\":{\"partition\":0}}");
        assertThat(at(sts, "/spec/persistentVolumeClaimRetentionPolicy")).isEqualTo("{\"whenDeleted\":\"Retain\",\"whenScaled\":\"Retain\"}");
        assertThat(at(sts, "/spec/replicas")).isEqualTo("1");
        assertThat(at(sts, "/spec/revisionHistoryLimit")).isEqualTo("10");
        assertThat(at(sts, "/spec/template/spec/containers/0/imagePullPolicy")).isEqualTo("\"IfNotPresent\"");
    }

    @Test
    void daemonSetsGetARollingUpdateAndATemplateGenerationThatFollowsTheTemplate() throws IOException {
        ObjectNode ds = create("daemonsets", """
                apiVersion: apps/v1
                kind: DaemonSet
                metadata: {name: agent}
                spec:
                  selector: {matchLabels: {app: agent}}
                  template: {metadata: {labels: {app: agent}}, spec: {containers: [{name: c, image: "agent:1"}]}}
                """);
        assertThat(at(ds, "/spec/updateStrategy")).isEqualTo("{\"type\":\"RollingUpdate\",\"rollingUpdate\":{\"maxUnavailable\":1,\"maxSurge\":0}}");
        assertThat(at(ds, "/spec/revisionHistoryLimit")).isEqualTo("10");
        assertThat(at(ds, "/metadata/annotations")).isEqualTo("{\"deprecated.daemonset.template.generation\":\"1\"}");

        String path = "/apis/apps/v1/namespaces/ns/daemonsets/agent";
        ObjectNode relabelled = call("PATCH", path, "application/merge-patch+json", "{\"metadata\":{\"labels\":{\"team\":\"infra\"}}}");
        assertThat(at(relabelled, "/metadata/annotations/deprecated.daemonset.template.generation")).isEqualTo("\"1\"");
        ObjectNode updated = call("PATCH", path, "application/merge-patch+json",
                "{\"spec\":{\"template\":{\"spec\":{\"containers\":[{\"name\":\"c\",\"image\":\"agent:2\"}]}}}}");
        assertThat(at(updated, "/metadata/annotations/deprecated.daemonset.template.generation")).isEqualTo("\"2\"");
        assertThat(at(updated, "/metadata/generation")).isEqualTo("2");
        ObjectNode forged = call("PATCH", path, "application/merge-patch+json",
                "{\"metadata\":{\"annotations\":{\"deprecated.daemonset.template.generation\":\"7\"}}}");
        assertThat(at(forged, "/metadata/annotations/deprecated.daemonset.template.generation")).isEqualTo("\"2\"");
    }
}
