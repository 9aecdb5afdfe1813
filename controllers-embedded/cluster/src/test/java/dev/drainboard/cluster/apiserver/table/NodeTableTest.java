package dev.drainboard.cluster.apiserver.table;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.stream.Stream;

import static dev.drainboard.cluster.apiserver.table.TableTestSupport.assertJson;
import static dev.drainboard.cluster.apiserver.table.TableTestSupport.columns;
import static dev.drainboard.cluster.apiserver.table.TableTestSupport.firstRowCells;
import static dev.drainboard.cluster.apiserver.table.TableTestSupport.table;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.params.provider.Arguments.arguments;

class NodeTableTest {

    @Test
    void hasKubectlsNodeColumns() {
        assertThat(columns(table("", "nodes", "metadata: {name: n}"))).isEqualTo(
                "Name, Status, Roles, Age, Version, Internal-IP*, External-IP*, OS-Image*, Kernel-Version*, Container-Runtime*");
    }

    /** Cells: NAME STATUS ROLES AGE VERSION INTERNAL-IP EXTERNAL-IP OS-IMAGE KERNEL-VERSION CONTAINER-RUNTIME. */
    @ParameterizedTest(name = "{0}")
    @MethodSource
    void cells(String scenario, String nodeYaml, String expectedCells) {
        assertJson(firstRowCells(table("", "nodes", nodeYaml)), expectedCells);
    }

    static Stream<Arguments> cells() {
        return Stream.of(
                arguments("ready control plane", """
                        apiVersion: v1
                        kind: Node
                        metadata:
                          name: cp-1
                          creationTimestamp: "2025-05-20T12:00:00Z"
                          labels:
                            kubernetes.io/hostname: cp-1
                            node-role.kubernetes.io/control-plane: ""
                        status:
                          conditions:
                          - {type: MemoryPressure, status: "False"}
                          - {type: Ready, status: "True", reason: KubeletReady}
                          addresses:
                          - {type: Hostname, address: cp-1}
                          - {type: InternalIP, address: 172.18.0.2}
                          nodeInfo:
                            kubeletVersion: v1.32.2
                            osImage: Debian GNU/Linux 12 (bookworm)
                            kernelVersion: 6.8.0-45-generic
                            containerRuntimeVersion: containerd://1.7.24
                        """, """
                        ["cp-1","Ready","control-plane","12d","v1.32.2","172.18.0.2","<none>",
                         "Debian GNU/Linux 12 (bookworm)","6.8.0-45-generic","containerd://1.7.24"]"""),
                arguments("not ready worker without roles", node("""
                        status:
                          conditions: [{type: Ready, status: "False"}]
                          addresses: [{type: InternalIP, address: 10.0.0.7}, {type: ExternalIP, address: 203.0.113.7}]
                          nodeInfo: {kubeletVersion: v1.32.0}
                        """), """
                        ["node-1","NotReady","<none>","2d5h","v1.32.0","10.0.0.7","203.0.113.7","<unknown>","<unknown>","<unknown>"]"""),
                arguments("ready condition unknown counts as not ready", node("""
                        status:
                          conditions: [{type: Ready, status: Unknown, reason: NodeStatusUnknown}]
                        """), """
                        ["node-1","NotReady","<none>","2d5h","","<none>","<none>","<unknown>","<unknown>","<unknown>"]"""),
                arguments("no ready condition reported", node("status: {}"), """
                        ["node-1","Unknown","<none>","2d5h","","<none>","<none>","<unknown>","<unknown>","<unknown>"]"""),
                arguments("cordoned", node("""
                        spec: {unschedulable: true}
                        status:
                          conditions: [{type: Ready, status: "True"}]
                        """), """
                        ["node-1","Ready,SchedulingDisabled","<none>","2d5h","","<none>","<none>","<unknown>","<unknown>","<unknown>"]"""),
                arguments("cordoned and unknown", node("spec: {unschedulable: true}"), """
                        ["node-1","Unknown,SchedulingDisabled","<none>","2d5h","","<none>","<none>","<unknown>","<unknown>","<unknown>"]"""),
                arguments("several roles sorted, legacy label included, duplicates merged", node("""
                        labels:
                          node-role.kubernetes.io/worker: ""
                          node-role.kubernetes.io/ingress: "true"
                          node-role.kubernetes.io/: ""
                          kubernetes.io/role: worker
                        """), """
                        ["node-1","Unknown","ingress,worker","2d5h","","<none>","<none>","<unknown>","<unknown>","<unknown>"]"""),
                arguments("legacy role label alone", node("""
                        labels:
                          kubernetes.io/role: master
                        """), """
                        ["node-1","Unknown","master","2d5h","","<none>","<none>","<unknown>","<unknown>","<unknown>"]"""),
                arguments("empty legacy role label is no role", node("""
                        labels:
                          kubernetes.io/role: ""
                        """), """
                        ["node-1","Unknown","<none>","2d5h","","<none>","<none>","<unknown>","<unknown>","<unknown>"]"""));
    }

    /** A node named node-1 created 2 days 5 hours before the test clock; "labels:" lines go into metadata. */
    private static String node(String rest) {
        String header = "apiVersion: v1\nkind: Node\nmetadata:\n  name: node-1\n  creationTimestamp: \"2025-05-30T07:00:00Z\"\n";
        if (rest.startsWith("labels:")) {
            return header + rest.indent(2);
        }
        return header + rest;
    }
}
