package dev.drainboard.cluster.e2e;

import dev.drainboard.testing.RequiresKubectl;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * virt-api's VM start/stop/restart seen through the real kubectl, the way {@code virtctl} calls them:
 * {@code kubectl replace --raw} sends the PUT with the options as its body. What changes is read back with
 * {@code kubectl get vm}; refusals are kubectl's "Error from server (Conflict)" lines with virt-api's messages.
 * (No VM controller runs here: the VMI itself is not created; the VmOps integration test covers that.)
 */
@DisplayName("kubectl and virt-api's VM start/stop/restart subresources")
@RequiresKubectl
class KubectlVmLifecycleTest {

    private static final String BASE = "/apis/subresources.kubevirt.io/v1/namespaces/default/virtualmachines/";

    @TempDir
    static Path workDir;

    private static E2eCluster e2e;
    private static Kubectl kubectl;

    @BeforeAll
    static void startCluster() throws Exception {
        e2e = E2eCluster.startWithKubectl(null, workDir);
        kubectl = e2e.kubectl();
    }

    @AfterAll
    static void stopCluster() {
        if (e2e != null) {
            e2e.close();
        }
    }

    private static void vm(String name, String runStrategy) {
        kubectl.apply("""
                apiVersion: kubevirt.io/v1
                kind: VirtualMachine
                metadata: {name: %s, namespace: default}
                spec:
                  runStrategy: %s
                  template:
                    spec:
                      domain:
                        memory: {guest: 128Mi}
                        devices: {}
                """.formatted(name, runStrategy));
    }

    private static Kubectl.Result put(String vm, String action, String body) throws Exception {
        Path file = workDir.resolve(vm + "-" + action + ".json");
        Files.writeString(file, body);
        return kubectl.run("replace", "--raw", BASE + vm + "/" + action, "-f", file.toString());
    }

    private static String get(String vm, String jsonpath) {
        return kubectl.succeed("get", "vm", vm, "-o", "jsonpath=" + jsonpath).stdout();
    }

    @Test
    void startAndStopSwitchTheRunStrategy() throws Exception {
        vm("halted", "Halted");
        Kubectl.Result started = put("halted", "start", "{\"apiVersion\":\"subresources.kubevirt.io/v1\",\"kind\":\"StartOptions\"}");
        assertThat(started.exitCode()).as(started.describe()).isZero();
        assertThat(get("halted", "{.spec.runStrategy}")).isEqualTo("Always");

        Kubectl.Result refused = put("halted", "start", "{}");
        assertThat(refused.exitCode()).isNotZero();
        assertThat(refused.stderr()).contains("Error from server (Conflict): Operation cannot be fulfilled on "
                + "virtualmachine.kubevirt.io \"halted\": Always does not support manual start requests");

        Kubectl.Result dryRun = put("halted", "stop", "{\"dryRun\":[\"All\"]}");
        assertThat(dryRun.exitCode()).as(dryRun.describe()).isZero();
        assertThat(get("halted", "{.spec.runStrategy}")).isEqualTo("Always");
        assertThat(put("halted", "stop", "{}").exitCode()).isZero();
        assertThat(get("halted", "{.spec.runStrategy}")).isEqualTo("Halted");
    }

    @Test
    void manualVmsGetStateChangeRequestsAndRefusalsAreVirtApis() throws Exception {
        vm("manual", "Manual");
        Kubectl.Result stop = put("manual", "stop", "{}");
        assertThat(stop.stderr()).contains("Error from server (Conflict): Operation cannot be fulfilled on "
                + "virtualmachine.kubevirt.io \"manual\": VM is not running");
        Kubectl.Result restart = put("manual", "restart", "{\"gracePeriodSeconds\":3}");
        assertThat(restart.stderr()).contains("Error from server (BadRequest): For force restart, only gracePeriod=0 is supported for now");

        assertThat(put("manual", "start", "").exitCode()).isZero();
        assertThat(get("manual", "{.status.stateChangeRequests[0].action}")).isEqualTo("Start");
        assertThat(get("manual", "{.spec.runStrategy}")).isEqualTo("Manual");

        Kubectl.Result missing = put("nosuchvm", "start", "{}");
        assertThat(missing.stderr()).contains("Error from server (NotFound): virtualmachine.kubevirt.io \"nosuchvm\" not found");
    }
}
