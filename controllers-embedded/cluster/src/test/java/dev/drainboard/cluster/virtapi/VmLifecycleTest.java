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

/**
 * virt-api's VM start/stop/restart ({@code pkg/virt-api/rest/lifecycle.go}) on the twin: what each run strategy
 * allows, the exact refusals, and what changes on the VM (run strategy or {@code status.stateChangeRequests}).
 * No VM controller runs here: the tests see what virt-api writes, not what follows.
 */
class VmLifecycleTest {

    private static final String BASE = "/apis/subresources.kubevirt.io/v1/namespaces/demo/virtualmachines/db/";

    @TempDir
    Path dir;
    private EmbeddedCluster cluster;

    @BeforeEach
    void start() throws Exception {
        cluster = EmbeddedCluster.start(EmbeddedClusterOptions.defaults().withPort(0).withKubeconfigOut(dir.resolve("kubeconfig")));
    }

    @AfterEach
    void stop() {
        cluster.close();
    }

    private void load(String json) throws Exception {
        cluster.api().load((ObjectNode) Json.MAPPER.readTree(json.replace('\'', '"')));
    }

    private void vm(String specFields, String status) throws Exception {
        load("{'apiVersion':'kubevirt.io/v1','kind':'VirtualMachine','metadata':{'name':'db','namespace':'demo','uid':'vm-uid'},"
                + "'spec':{" + specFields + ",'template':{'spec':{'domain':{'devices':{}}}}}"
                + (status == null ? "" : ",'status':" + status) + "}");
    }

    private void vmi(String phase) throws Exception {
        load("{'apiVersion':'kubevirt.io/v1','kind':'VirtualMachineInstance','metadata':{'name':'db','namespace':'demo','uid':'vmi-uid',"
                + "'ownerReferences':[{'apiVersion':'kubevirt.io/v1','kind':'VirtualMachine','name':'db','uid':'vm-uid','controller':true}]},"
                + "'spec':{'domain':{'devices':{},'memory':{'guest':'256Mi'}},'terminationGracePeriodSeconds':30},"
                + "'status':{'phase':'" + phase + "','nodeName':'node01'}}");
    }

    private ObjectNode stored(String plural) {
        return cluster.api().store().get(cluster.api().registry().find("kubevirt.io", "v1", plural).orElseThrow(), "demo", "db");
    }

    @ParameterizedTest(name = "{0} {1} with VMI {2}: {3}")
    @CsvSource(delimiter = '|', value = {
            "start   | 'runStrategy':'Halted' | -         | 202 | ",
            "start   | 'running':false        | -         | 202 | ",
            "start   | 'runStrategy':'Manual' | Running   | 409 | Operation cannot be fulfilled on virtualmachine.kubevirt.io \"db\": VM is already running",
            "start   | 'runStrategy':'Always' | -         | 409 | Operation cannot be fulfilled on virtualmachine.kubevirt.io \"db\": Always does not support manual start requests",
            "start   | 'runStrategy':'Once'   | Succeeded | 409 | Operation cannot be fulfilled on virtualmachine.kubevirt.io \"db\": Once does not support manual start requests",
            "start   | 'runStrategy':'RerunOnFailure' | Failed | 409 | Operation cannot be fulfilled on virtualmachine.kubevirt.io \"db\": RerunOnFailure does not support starting VM from failed state",
            "stop    | 'runStrategy':'Manual' | -         | 409 | Operation cannot be fulfilled on virtualmachine.kubevirt.io \"db\": VM is not running",
            "stop    | 'runStrategy':'Halted' | Running   | 409 | Operation cannot be fulfilled on virtualmachine.kubevirt.io \"db\": Halted only supports manual stop requests with a shorter graceperiod",
            "stop    | 'runStrategy':'Always' | Running   | 202 | ",
            "restart | 'runStrategy':'Always' | -         | 409 | Operation cannot be fulfilled on virtualmachine.kubevirt.io \"db\": VM is not running: Halted",
            "restart | 'runStrategy':'Halted' | -         | 409 | Operation cannot be fulfilled on virtualmachine.kubevirt.io \"db\": RunStategy Halted does not support manual restart requests",
            "restart | 'runStrategy':'Once'   | Running   | 409 | Operation cannot be fulfilled on virtualmachine.kubevirt.io \"db\": RunStategy Once does not support manual restart requests",
    })
    void whatEachRunStrategyAllows(String action, String spec, String vmiPhase, int code, String message) throws Exception {
        vm(spec, "{'printableStatus':'Stopped'}");
        if (!vmiPhase.equals("-")) {
            vmi(vmiPhase);
        }
        Answer answer = put(action, "");
        assertThat(answer.code()).isEqualTo(code);
        if (message != null) {
            assertThat(answer.body().path("message").asText()).isEqualTo(message);
            assertThat(answer.body().path("reason").asText()).isEqualTo("Conflict");
            assertThat(answer.body().path("details").path("kind").asText()).isEqualTo("virtualmachine");
        }
    }

    @Test
    void startOfAHaltedVmSetsItsRunStrategyToAlwaysAndStopSetsItBack() throws Exception {
        vm("'runStrategy':'Halted'", null);
        assertThat(put("start", "{\"apiVersion\":\"subresources.kubevirt.io/v1\",\"kind\":\"StartOptions\"}").code()).isEqualTo(202);
        assertThat(stored("virtualmachines").path("spec").path("runStrategy").asText()).isEqualTo("Always");

        assertThat(put("stop", "{}").code()).isEqualTo(202);
        assertThat(stored("virtualmachines").path("spec").path("runStrategy").asText()).isEqualTo("Halted");
    }

    @Test
    void theDeprecatedRunningFieldIsFlippedInstead() throws Exception {
        vm("'running':false", null);
        put("start", "");
        assertThat(stored("virtualmachines").path("spec").path("running").asBoolean()).isTrue();
        assertThat(stored("virtualmachines").path("spec").has("runStrategy")).isFalse();
    }

    @Test
    void manualStartAndStopAreQueuedAsStateChangeRequests() throws Exception {
        vm("'runStrategy':'Manual'", "{'printableStatus':'Stopped'}");
        assertThat(put("start", "").code()).isEqualTo(202);
        assertThat(stored("virtualmachines").path("status").path("stateChangeRequests").toString())
                .isEqualTo("[{\"action\":\"Start\"}]");

        Answer twice = put("start", "");
        assertThat(twice.code()).isEqualTo(500);
        assertThat(twice.body().path("message").asText())
                .isEqualTo("Internal error occurred: unable to complete request: stop/start already underway");

        vmi("Running");
        // a lone Stop replaces what is queued
        assertThat(put("stop", "").code()).isEqualTo(202);
        assertThat(stored("virtualmachines").path("status").path("stateChangeRequests").toString())
                .isEqualTo("[{\"action\":\"Stop\",\"uid\":\"vmi-uid\"}]");
    }

    @Test
    void restartQueuesAStopForTheVmiThenAStart() throws Exception {
        vm("'runStrategy':'Always'", "{'printableStatus':'Running'}");
        vmi("Running");
        assertThat(put("restart", "{\"gracePeriodSeconds\":0}").code()).isEqualTo(202);
        assertThat(stored("virtualmachines").path("status").path("stateChangeRequests").toString())
                .isEqualTo("[{\"action\":\"Stop\",\"uid\":\"vmi-uid\"},{\"action\":\"Start\"}]");
        assertThat(stored("virtualmachineinstances").path("spec").path("terminationGracePeriodSeconds").asInt()).isEqualTo(1);
    }

    @Test
    void aFinishedManualVmIsRestartedByStart() throws Exception {
        vm("'runStrategy':'Manual'", "{'printableStatus':'Stopped'}");
        vmi("Succeeded");
        assertThat(put("start", "").code()).isEqualTo(202);
        assertThat(stored("virtualmachines").path("status").path("stateChangeRequests").toString())
                .isEqualTo("[{\"action\":\"Stop\",\"uid\":\"vmi-uid\"},{\"action\":\"Start\"}]");
    }

    @Test
    void stopWithAShorterGracePeriodShortensTheVmis() throws Exception {
        vm("'runStrategy':'Manual'", "{'printableStatus':'Running'}");
        vmi("Running");
        assertThat(put("stop", "{\"gracePeriod\":5}").code()).isEqualTo(202);
        assertThat(stored("virtualmachineinstances").path("spec").path("terminationGracePeriodSeconds").asInt()).isEqualTo(5);
    }

    @Test
    void badOptionsAreRefusedAndDryRunChangesNothing() throws Exception {
        vm("'runStrategy':'Always'", "{'printableStatus':'Running'}");
        vmi("Running");
        Answer positive = put("restart", "{\"gracePeriodSeconds\":5}");
        assertThat(positive.code()).isEqualTo(400);
        assertThat(positive.body().path("message").asText()).isEqualTo("For force restart, only gracePeriod=0 is supported for now");
        assertThat(put("restart", "{\"gracePeriodSeconds\":-1}").body().path("message").asText())
                .isEqualTo("gracePeriod has to be greater or equal to 0");
        Answer garbage = put("stop", "{not json");
        assertThat(garbage.code()).isEqualTo(400);
        assertThat(garbage.body().path("message").asText()).startsWith("Can not unmarshal Request body to struct, error: ");

        assertThat(put("stop", "{\"dryRun\":[\"All\"]}").code()).isEqualTo(202);
        assertThat(put("restart", "{\"dryRun\":[\"All\"],\"gracePeriodSeconds\":0}").code()).isEqualTo(202);
        assertThat(stored("virtualmachines").path("spec").path("runStrategy").asText()).isEqualTo("Always");
        assertThat(stored("virtualmachines").path("status").has("stateChangeRequests")).isFalse();
        assertThat(stored("virtualmachineinstances").path("spec").path("terminationGracePeriodSeconds").asInt()).isEqualTo(30);
    }

    @Test
    void aMissingVmAndAnotherMethod() throws Exception {
        Answer missing = put("start", "");
        assertThat(missing.code()).isEqualTo(404);
        assertThat(missing.body().path("message").asText()).isEqualTo("virtualmachine.kubevirt.io \"db\" not found");
        vm("'runStrategy':'Halted'", null);
        assertThat(send("POST", BASE + "start", "").code()).isEqualTo(405);
        assertThat(send("PUT", BASE + "reboot", "").code()).isEqualTo(404);
    }

    /** {@code spec.addedNodeSelector} is in the VMIM CRD from KubeVirt v1.6: older releases prune it (Strict: refuse it). */
    @ParameterizedTest(name = "KubeVirt {0}, fieldValidation {1}: {2}")
    @CsvSource(delimiter = '|', value = {
            "v1.5.2 | Strict | 400 | VirtualMachineInstanceMigration in version \"v1\" cannot be handled as a VirtualMachineInstanceMigration: strict decoding error: unknown field \"spec.addedNodeSelector\"",
            "v1.5.2 | Warn   | 201 | ",
            "v1.6.0 | Strict | 201 | ",
    })
    void addedNodeSelectorIsKnownFromOneSix(String version, String validation, int code, String message) throws Exception {
        cluster.setKubeVirtVersion(version);
        vm("'runStrategy':'Always'", "{'printableStatus':'Running'}");
        vmi("Running");
        Answer created = send("POST", "/apis/kubevirt.io/v1/namespaces/demo/virtualmachineinstancemigrations?fieldValidation=" + validation,
                "{\"apiVersion\":\"kubevirt.io/v1\",\"kind\":\"VirtualMachineInstanceMigration\",\"metadata\":{\"name\":\"m\"},"
                        + "\"spec\":{\"vmiName\":\"db\",\"addedNodeSelector\":{\"kubernetes.io/hostname\":\"node02\"}}}");
        assertThat(created.code()).as(created.body().toString()).isEqualTo(code);
        if (message != null) {
            assertThat(created.body().path("message").asText()).isEqualTo(message);
        } else {
            assertThat(created.body().path("spec").has("addedNodeSelector")).isEqualTo(version.startsWith("v1.6"));
        }
    }

    private record Answer(int code, JsonNode body) {
    }

    private Answer put(String action, String body) throws Exception {
        return send("PUT", BASE + action, body);
    }

    private Answer send(String method, String path, String body) throws Exception {
        int[] code = new int[1];
        byte[][] out = new byte[1][];
        String query = path.contains("?") ? path.substring(path.indexOf('?') + 1) : "";
        Map<String, List<String>> params = new java.util.HashMap<>();
        for (String pair : query.isEmpty() ? new String[0] : query.split("&")) {
            params.put(pair.substring(0, pair.indexOf('=')), List.of(pair.substring(pair.indexOf('=') + 1)));
        }
        cluster.api().handle(new ApiRequest(method, path.contains("?") ? path.substring(0, path.indexOf('?')) : path, params,
                "application/json", "application/json",
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
