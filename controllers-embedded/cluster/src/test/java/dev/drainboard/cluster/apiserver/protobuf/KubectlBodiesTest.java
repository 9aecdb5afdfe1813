package dev.drainboard.cluster.apiserver.protobuf;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Bodies captured from kubectl v1.32 (see kubectl/capture_server.py) decode to the JSON that kubectl prints for the
 * same command with --dry-run=client -o json, that is the body it would have sent as JSON.
 */
class KubectlBodiesTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @ParameterizedTest
    @ValueSource(strings = {
        "namespace", "configmap", "secret", "deployment", "deployment-zero", "service", "serviceaccount", "job",
        "cronjob", "pdb", "priorityclass", "quota", "token", "auth-can-i"
    })
    void decodesLikeKubectlJson(String command) throws Exception {
        JsonNode decoded = ProtobufBodies.decode(Envelopes.resource("kubectl/" + command + ".pb"));

        assertThat(decoded).isEqualTo(expectedJson(command));
    }

    private static JsonNode expectedJson(String command) throws IOException {
        return JSON.readTree(Envelopes.resource("kubectl/" + command + ".json"));
    }
}
