package dev.drainboard.cluster.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import dev.drainboard.testing.RequiresKubectl;

import java.nio.file.Path;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * KubeVirt's admission, as virt-api's webhooks do it, seen through the real kubectl: defaults visible in
 * {@code kubectl get vmi -o yaml}, refusals in kube-apiserver's words for a webhook denial.
 */
@DisplayName("kubectl and KubeVirt's admission (virt-api)")
@RequiresKubectl
class KubectlVirtApiTest {

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

    private static String vmi(String name, String spec) {
        return """
                apiVersion: kubevirt.io/v1
                kind: VirtualMachineInstance
                metadata:
                  name: %s
                  namespace: default
                spec:
                %s
                """.formatted(name, spec.indent(2).stripTrailing());
    }

    @Test
    void explore() {
        System.out.println(kubectl.runWithInput(vmi("plain", """
                domain:
                  resources:
                    requests:
                      memory: 1Gi
                  devices: {}
                """), "apply", "-f", "-").describe());
        System.out.println(kubectl.run("get", "vmi", "plain", "-o", "yaml").describe());
        System.out.println(kubectl.runWithInput(vmi("bad", """
                evictionStrategy: Sometimes
                domain:
                  devices:
                    interfaces:
                    - name: eth0
                      masquerade: {}
                networks:
                - name: default
                  pod: {}
                """), "apply", "-f", "-").describe());
        System.out.println(kubectl.runWithInput(vmi("bad", """
                evictionStrategy: Sometimes
                domain:
                  devices: {}
                """), "create", "-f", "-").describe());
        System.out.println(kubectl.run("patch", "vmi", "plain", "--type", "merge", "-p", "{\"spec\":{\"evictionStrategy\":\"LiveMigrate\"}}").describe());
        System.out.println(kubectl.run("label", "vmi", "plain", "team=a").describe());
        System.out.println(kubectl.runWithInput("""
                apiVersion: kubevirt.io/v1
                kind: VirtualMachineInstanceMigration
                metadata: {name: m1, namespace: default}
                spec: {vmiName: ghost}
                """, "create", "-f", "-").describe());
        System.out.println(kubectl.runWithInput("""
                apiVersion: kubevirt.io/v1
                kind: VirtualMachineInstanceMigration
                metadata: {name: m2, namespace: default}
                spec: {vmiName: plain}
                """, "create", "-f", "-").describe());
        System.out.println(kubectl.runWithInput("""
                apiVersion: kubevirt.io/v1
                kind: VirtualMachine
                metadata: {name: vm1, namespace: default}
                spec:
                  runStrategy: Always
                  instancetype: {name: u1.small}
                  template:
                    spec:
                      domain: {devices: {}}
                """, "create", "-f", "-").describe());
    }
}
