package dev.drainboard.cluster.virtapi;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.drainboard.cluster.EmbeddedCluster;
import dev.drainboard.cluster.EmbeddedClusterOptions;
import dev.drainboard.cluster.apiserver.ApiRequest;
import dev.drainboard.cluster.apiserver.Json;
import dev.drainboard.cluster.apiserver.ResponseChannel;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** virt-api's {@code evacuate/cancel} ({@code pkg/virt-api/rest/evacuate_cancel.go}) on the twin, per KubeVirt release. */
class EvacuateCancelTest {

    private static final String VMI_PATH = "/apis/subresources.kubevirt.io/v1/namespaces/demo/virtualmachineinstances/db/evacuate/cancel";

    @TempDir
    Path dir;
    private EmbeddedCluster cluster;

    @BeforeEach
    void start() throws Exception {
        cluster = EmbeddedCluster.start(EmbeddedClusterOptions.defaults().withPort(0).withKubeconfigOut(dir.resolve("kubeconfig")));
        load("{'apiVersion':'v1','kind':'Node','metadata':{'name':'node01'}}");
        load("{'apiVersion':'v1','kind':'Node','metadata':{'name':'node02','labels':{}},'spec':{'taints':[{'key':'kubevirt.io/drain','effect':'NoSchedule'}]}}");
    }

    @AfterEach
    void stop() {
        cluster.close();
    }

    private void load(String json) throws Exception {
        cluster.api().load((ObjectNode) Json.MAPPER.readTree(json.replace('\'', '"')));
    }

    private void vmi(String evacuationNode, String node) throws Exception {
        load("{'apiVersion':'kubevirt.io/v1','kind':'VirtualMachineInstance','metadata':{'name':'db','namespace':'demo'},"
                + "'spec':{'domain':{'devices':{},'memory':{'guest':'256Mi'}}},"
                + "'status':{'phase':'Running','nodeName':'" + node + "'"
                + (evacuationNode == null ? "" : ",'evacuationNodeName':'" + evacuationNode + "'") + "}}");
    }

    private String mark() {
        ObjectNode vmi = cluster.api().store().get(cluster.api().registry().find("kubevirt.io", "v1", "virtualmachineinstances").orElseThrow(), "demo", "db");
        return vmi.path("status").path("evacuationNodeName").asText(null);
    }

    @ParameterizedTest(name = "KubeVirt {0}: {1}")
    @CsvSource({"v1.4.1, 404", "v1.6.2, 404", "v1.7.0, 200", "v1.8.0, 200", "v1.9.0, 200"})
    void servedFromTheOneSevenToOneEightProfileOn(String version, int code) throws Exception {
        cluster.setKubeVirtVersion(version);
        vmi("node01", "node01");

        Answer answer = put(VMI_PATH, "{\"evacuationNodeName\":\"node01\"}");

        assertThat(answer.code()).isEqualTo(code);
        assertThat(mark()).isEqualTo(code == 200 ? null : "node01");
    }

    @Test
    void aMarkForAnotherNodeIsNotLostAndANodeStillTaintedRefuses() throws Exception {
        cluster.setKubeVirtVersion("v1.8.0");
        vmi("node01", "node01");
        Answer wrongNode = put(VMI_PATH, "{\"evacuationNodeName\":\"node03\"}");
        assertThat(wrongNode.code()).isEqualTo(500);
        assertThat(mark()).isEqualTo("node01");

        Answer noBody = put(VMI_PATH, "");
        assertThat(noBody.code()).isEqualTo(400);
        assertThat(noBody.body().path("message").asText()).isEqualTo("No body");

        Answer dryRun = put(VMI_PATH, "{\"evacuationNodeName\":\"node01\",\"dryRun\":[\"All\"]}");
        assertThat(dryRun.code()).isEqualTo(200);
        assertThat(mark()).isEqualTo("node01");
    }

    @Test
    void theDeprecatedDrainTaintStillOnTheNodeRefuses() throws Exception {
        cluster.setKubeVirtVersion("v1.8.0");
        vmi("node02", "node02");

        Answer answer = put(VMI_PATH, "{\"evacuationNodeName\":\"node02\"}");

        assertThat(answer.code()).isEqualTo(400);
        assertThat(answer.body().path("message").asText()).isEqualTo("Node \"node02\" has NodeDrainTaintKey \"kubevirt.io/drain:NoSchedule\"");
        assertThat(mark()).isEqualTo("node02");
    }

    @Test
    void anUnmarkedVmiAndAMissingOne() throws Exception {
        cluster.setKubeVirtVersion("v1.8.0");
        assertThat(put(VMI_PATH, "{}").body().path("message").asText())
                .isEqualTo("virtualmachineinstance.kubevirt.io \"db\" not found");
        vmi(null, "node01");
        assertThat(put(VMI_PATH, "").code()).isEqualTo(200);
        assertThat(put(VMI_PATH.replace("/evacuate/cancel", "/evacuate/cancel"), "{}").code()).isEqualTo(200);
        assertThat(send("POST", VMI_PATH, "{}").code()).isEqualTo(405);
        assertThat(put("/apis/subresources.kubevirt.io/v1/namespaces/demo/virtualmachines/db/evacuate/cancel", "{}").body()
                .path("message").asText()).isEqualTo("virtualmachine.kubevirt.io \"db\" not found");
    }

    private record Answer(int code, JsonNode body) {
    }

    private Answer put(String path, String body) throws Exception {
        return send("PUT", path, body);
    }

    private Answer send(String method, String path, String body) throws Exception {
        int[] code = new int[1];
        byte[][] out = new byte[1][];
        cluster.api().handle(new ApiRequest(method, path, Map.<String, List<String>>of(), "application/json", "application/json",
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
        return new Answer(code[0], out[0] == null || out[0].length == 0 ? Json.object() : Json.MAPPER.readTree(out[0]));
    }
}
