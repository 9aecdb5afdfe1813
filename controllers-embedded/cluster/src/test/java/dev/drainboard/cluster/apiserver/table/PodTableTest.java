package dev.drainboard.cluster.apiserver.table;

import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.stream.Stream;

import static dev.drainboard.cluster.apiserver.table.TableTestSupport.assertJson;
import static dev.drainboard.cluster.apiserver.table.TableTestSupport.columns;
import static dev.drainboard.cluster.apiserver.table.TableTestSupport.firstRowCells;
import static dev.drainboard.cluster.apiserver.table.TableTestSupport.json;
import static dev.drainboard.cluster.apiserver.table.TableTestSupport.table;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.params.provider.Arguments.arguments;

class PodTableTest {

    @Test
    void hasKubectlsPodColumns() {
        ObjectNode table = table("", "pods", "metadata: {name: p}");
        assertThat(columns(table)).isEqualTo(
                "Name, Ready, Status, Restarts, Age, IP*, Node*, Nominated Node*, Readiness Gates*");
        assertThat(table.at("/columnDefinitions/0/format").asText()).isEqualTo("name");
        assertThat(table.at("/columnDefinitions/3/type").asText()).isEqualTo("string");
    }

    /** Cells: NAME READY STATUS RESTARTS AGE IP NODE NOMINATED-NODE READINESS-GATES. */
    @ParameterizedTest(name = "{0}")
    @MethodSource
    void cells(String scenario, String podYaml, String expectedCells) {
        assertJson(firstRowCells(table("", "pods", podYaml)), expectedCells);
    }

    static Stream<Arguments> cells() {
        return Stream.of(
                arguments("running", pod("""
                        spec: {nodeName: node-1, containers: [{name: app}]}
                        status:
                          phase: Running
                          podIP: 10.244.0.5
                          podIPs: [{ip: 10.244.0.5}, {ip: "fd00::5"}]
                          containerStatuses:
                          - {name: app, ready: true, restartCount: 0, state: {running: {startedAt: "2025-06-01T11:55:10Z"}}}
                        """), """
                        ["web","1/1","Running","0","5m","10.244.0.5","node-1","<none>","<none>"]"""),
                arguments("pending, not yet scheduled", pod("""
                        spec: {containers: [{name: app}]}
                        status: {phase: Pending}
                        """), """
                        ["web","0/1","Pending","0","5m","<none>","<none>","<none>","<none>"]"""),
                arguments("scheduling gated", pod("""
                        spec: {containers: [{name: app}], schedulingGates: [{name: example.com/quota}]}
                        status:
                          phase: Pending
                          conditions: [{type: PodScheduled, status: "False", reason: SchedulingGated}]
                        """), """
                        ["web","0/1","SchedulingGated","0","5m","<none>","<none>","<none>","<none>"]"""),
                arguments("nominated node while preempting", pod("""
                        spec: {containers: [{name: app}]}
                        status: {phase: Pending, nominatedNodeName: node-2}
                        """), """
                        ["web","0/1","Pending","0","5m","<none>","<none>","node-2","<none>"]"""),
                arguments("container creating", pod("""
                        spec: {nodeName: node-1, containers: [{name: app}]}
                        status:
                          phase: Pending
                          containerStatuses:
                          - {name: app, ready: false, restartCount: 0, state: {waiting: {reason: ContainerCreating}}}
                        """), """
                        ["web","0/1","ContainerCreating","0","5m","<none>","node-1","<none>","<none>"]"""),
                arguments("crash loop with restart age", pod("""
                        spec: {nodeName: node-1, containers: [{name: app}]}
                        status:
                          phase: Running
                          podIP: 10.244.0.5
                          containerStatuses:
                          - name: app
                            ready: false
                            restartCount: 5
                            state: {waiting: {reason: CrashLoopBackOff}}
                            lastState: {terminated: {exitCode: 1, reason: Error, finishedAt: "2025-06-01T11:57:00Z"}}
                        """), """
                        ["web","0/1","CrashLoopBackOff","5 (3m ago)","5m","10.244.0.5","node-1","<none>","<none>"]"""),
                arguments("restart age is the latest across containers", pod("""
                        spec: {containers: [{name: a}, {name: b}]}
                        status:
                          phase: Running
                          containerStatuses:
                          - name: a
                            ready: true
                            restartCount: 1
                            state: {running: {}}
                            lastState: {terminated: {exitCode: 1, finishedAt: "2025-06-01T11:50:00Z"}}
                          - name: b
                            ready: true
                            restartCount: 2
                            state: {running: {}}
                            lastState: {terminated: {exitCode: 1, finishedAt: "2025-06-01T11:59:30Z"}}
                        """), """
                        ["web","2/2","Running","3 (30s ago)","5m","<none>","<none>","<none>","<none>"]"""),
                arguments("restarts without a termination time have no age", pod("""
                        spec: {containers: [{name: app}]}
                        status:
                          phase: Running
                          containerStatuses: [{name: app, ready: true, restartCount: 2, state: {running: {}}}]
                        """), """
                        ["web","1/1","Running","2","5m","<none>","<none>","<none>","<none>"]"""),
                arguments("image pull back-off in the first of two containers", pod("""
                        spec: {containers: [{name: app}, {name: proxy}]}
                        status:
                          phase: Pending
                          containerStatuses:
                          - {name: app, ready: false, restartCount: 0, state: {waiting: {reason: ImagePullBackOff}}}
                          - {name: proxy, ready: true, restartCount: 0, state: {running: {}}}
                        """), """
                        ["web","1/2","ImagePullBackOff","0","5m","<none>","<none>","<none>","<none>"]"""),
                arguments("completed", pod("""
                        spec: {containers: [{name: job}]}
                        status:
                          phase: Succeeded
                          containerStatuses:
                          - {name: job, ready: false, restartCount: 0, state: {terminated: {exitCode: 0, reason: Completed}}}
                        """), """
                        ["web","0/1","Completed","0","5m","<none>","<none>","<none>","<none>"]"""),
                arguments("failed with an error reason", pod("""
                        spec: {containers: [{name: job}]}
                        status:
                          phase: Failed
                          containerStatuses:
                          - {name: job, ready: false, restartCount: 0, state: {terminated: {exitCode: 1, reason: Error}}}
                        """), """
                        ["web","0/1","Error","0","5m","<none>","<none>","<none>","<none>"]"""),
                arguments("terminated without a reason shows the exit code", pod("""
                        spec: {containers: [{name: job}]}
                        status:
                          phase: Failed
                          containerStatuses: [{name: job, restartCount: 0, state: {terminated: {exitCode: 3}}}]
                        """), """
                        ["web","0/1","ExitCode:3","0","5m","<none>","<none>","<none>","<none>"]"""),
                arguments("terminated by a signal", pod("""
                        spec: {containers: [{name: job}]}
                        status:
                          phase: Failed
                          containerStatuses: [{name: job, restartCount: 0, state: {terminated: {exitCode: 137, signal: 9}}}]
                        """), """
                        ["web","0/1","Signal:9","0","5m","<none>","<none>","<none>","<none>"]"""),
                arguments("completed container beside a running one, pod ready", pod("""
                        spec: {containers: [{name: once}, {name: server}]}
                        status:
                          phase: Running
                          conditions: [{type: Ready, status: "True"}]
                          containerStatuses:
                          - {name: once, ready: false, restartCount: 0, state: {terminated: {exitCode: 0, reason: Completed}}}
                          - {name: server, ready: true, restartCount: 0, state: {running: {}}}
                        """), """
                        ["web","1/2","Running","0","5m","<none>","<none>","<none>","<none>"]"""),
                arguments("completed container beside a running one, pod not ready", pod("""
                        spec: {containers: [{name: once}, {name: server}]}
                        status:
                          phase: Running
                          conditions: [{type: Ready, status: "False"}]
                          containerStatuses:
                          - {name: once, ready: false, restartCount: 0, state: {terminated: {exitCode: 0, reason: Completed}}}
                          - {name: server, ready: true, restartCount: 0, state: {running: {}}}
                        """), """
                        ["web","1/2","NotReady","0","5m","<none>","<none>","<none>","<none>"]"""),
                arguments("evicted", pod("""
                        spec: {nodeName: node-1, containers: [{name: app}]}
                        status: {phase: Failed, reason: Evicted, message: "The node was low on resource: memory."}
                        """), """
                        ["web","0/1","Evicted","0","5m","<none>","node-1","<none>","<none>"]"""),
                arguments("terminating", pod("""
                        metadata: {deletionTimestamp: "2025-06-01T11:59:00Z"}
                        spec: {containers: [{name: app}]}
                        status:
                          phase: Running
                          containerStatuses: [{name: app, ready: true, restartCount: 0, state: {running: {}}}]
                        """), """
                        ["web","1/1","Terminating","0","5m","<none>","<none>","<none>","<none>"]"""),
                arguments("deleted after succeeding is not terminating", pod("""
                        metadata: {deletionTimestamp: "2025-06-01T11:59:00Z"}
                        spec: {containers: [{name: job}]}
                        status:
                          phase: Succeeded
                          containerStatuses: [{name: job, restartCount: 0, state: {terminated: {exitCode: 0, reason: Completed}}}]
                        """), """
                        ["web","0/1","Completed","0","5m","<none>","<none>","<none>","<none>"]"""),
                arguments("deleted on a lost node", pod("""
                        metadata: {deletionTimestamp: "2025-06-01T11:59:00Z"}
                        spec: {nodeName: node-1, containers: [{name: app}]}
                        status: {phase: Running, reason: NodeLost}
                        """), """
                        ["web","0/1","Unknown","0","5m","<none>","node-1","<none>","<none>"]"""),
                arguments("first init container running", pod("""
                        spec: {initContainers: [{name: migrate}, {name: seed}], containers: [{name: app}]}
                        status:
                          phase: Pending
                          initContainerStatuses:
                          - {name: migrate, ready: false, restartCount: 0, state: {running: {}}}
                          - {name: seed, ready: false, restartCount: 0, state: {waiting: {reason: PodInitializing}}}
                          containerStatuses: [{name: app, ready: false, restartCount: 0, state: {waiting: {reason: PodInitializing}}}]
                        """), """
                        ["web","0/1","Init:0/2","0","5m","<none>","<none>","<none>","<none>"]"""),
                arguments("second init container running", pod("""
                        spec: {initContainers: [{name: migrate}, {name: seed}], containers: [{name: app}]}
                        status:
                          phase: Pending
                          initContainerStatuses:
                          - {name: migrate, ready: true, restartCount: 0, state: {terminated: {exitCode: 0, reason: Completed}}}
                          - {name: seed, ready: false, restartCount: 0, state: {running: {}}}
                        """), """
                        ["web","0/1","Init:1/2","0","5m","<none>","<none>","<none>","<none>"]"""),
                arguments("init container crash looping", pod("""
                        spec: {initContainers: [{name: migrate}], containers: [{name: app}]}
                        status:
                          phase: Pending
                          initContainerStatuses:
                          - name: migrate
                            ready: false
                            restartCount: 3
                            state: {waiting: {reason: CrashLoopBackOff}}
                            lastState: {terminated: {exitCode: 1, reason: Error, finishedAt: "2025-06-01T11:58:00Z"}}
                          containerStatuses: [{name: app, ready: false, restartCount: 0, state: {waiting: {reason: PodInitializing}}}]
                        """), """
                        ["web","0/1","Init:CrashLoopBackOff","3 (2m ago)","5m","<none>","<none>","<none>","<none>"]"""),
                arguments("init container failed", pod("""
                        spec: {initContainers: [{name: migrate}], containers: [{name: app}]}
                        status:
                          phase: Failed
                          initContainerStatuses: [{name: migrate, restartCount: 0, state: {terminated: {exitCode: 1, reason: Error}}}]
                        """), """
                        ["web","0/1","Init:Error","0","5m","<none>","<none>","<none>","<none>"]"""),
                arguments("init container exited without a reason", pod("""
                        spec: {initContainers: [{name: migrate}], containers: [{name: app}]}
                        status:
                          phase: Pending
                          initContainerStatuses: [{name: migrate, restartCount: 0, state: {terminated: {exitCode: 2}}}]
                        """), """
                        ["web","0/1","Init:ExitCode:2","0","5m","<none>","<none>","<none>","<none>"]"""),
                arguments("init container killed by a signal", pod("""
                        spec: {initContainers: [{name: migrate}], containers: [{name: app}]}
                        status:
                          phase: Pending
                          initContainerStatuses: [{name: migrate, restartCount: 0, state: {terminated: {exitCode: 137, signal: 9}}}]
                        """), """
                        ["web","0/1","Init:Signal:9","0","5m","<none>","<none>","<none>","<none>"]"""),
                arguments("init done, app container still initialising", pod("""
                        spec: {initContainers: [{name: migrate}], containers: [{name: app}]}
                        status:
                          phase: Pending
                          initContainerStatuses: [{name: migrate, restartCount: 0, state: {terminated: {exitCode: 0, reason: Completed}}}]
                          containerStatuses: [{name: app, ready: false, restartCount: 0, state: {waiting: {reason: PodInitializing}}}]
                        """), """
                        ["web","0/1","PodInitializing","0","5m","<none>","<none>","<none>","<none>"]"""),
                arguments("running sidecar counts as a container, with its restarts", pod("""
                        spec:
                          initContainers: [{name: mesh, restartPolicy: Always}, {name: migrate}]
                          containers: [{name: app}]
                        status:
                          phase: Running
                          conditions: [{type: Initialized, status: "True"}, {type: Ready, status: "True"}]
                          initContainerStatuses:
                          - name: mesh
                            ready: true
                            started: true
                            restartCount: 1
                            state: {running: {}}
                            lastState: {terminated: {exitCode: 1, finishedAt: "2025-06-01T11:56:00Z"}}
                          - name: migrate
                            restartCount: 4
                            state: {terminated: {exitCode: 0, reason: Completed}}
                            lastState: {terminated: {exitCode: 1, finishedAt: "2025-06-01T11:58:00Z"}}
                          containerStatuses: [{name: app, ready: true, restartCount: 0, state: {running: {}}}]
                        """), """
                        ["web","2/2","Running","1 (4m ago)","5m","<none>","<none>","<none>","<none>"]"""),
                arguments("sidecar not started blocks initialisation", pod("""
                        spec: {initContainers: [{name: mesh, restartPolicy: Always}], containers: [{name: app}]}
                        status:
                          phase: Pending
                          initContainerStatuses: [{name: mesh, ready: false, started: false, restartCount: 0, state: {running: {}}}]
                        """), """
                        ["web","0/2","Init:0/1","0","5m","<none>","<none>","<none>","<none>"]"""),
                arguments("readiness gates, one of two true", pod("""
                        spec:
                          containers: [{name: app}]
                          readinessGates: [{conditionType: example.com/lb-ready}, {conditionType: example.com/dns-ready}]
                        status:
                          phase: Running
                          conditions:
                          - {type: example.com/lb-ready, status: "True"}
                          - {type: example.com/dns-ready, status: "False"}
                          containerStatuses: [{name: app, ready: true, restartCount: 0, state: {running: {}}}]
                        """), """
                        ["web","1/1","Running","0","5m","<none>","<none>","<none>","1/2"]"""));
    }

    @Test
    void finishedPodsCarryACompletedRowCondition() {
        ObjectNode succeeded = table("", "pods", pod("spec: {containers: [{name: job}]}\nstatus: {phase: Succeeded}"));
        assertThat(succeeded.at("/rows/0/conditions")).isEqualTo(json("""
                [{"type":"Completed","status":"True","reason":"Succeeded","message":"The pod completed successfully."}]"""));
        ObjectNode running = table("", "pods", pod("spec: {containers: [{name: app}]}\nstatus: {phase: Running}"));
        assertThat(running.at("/rows/0").has("conditions")).isFalse();
    }

    /** A pod named web created five minutes before the test clock, plus the given spec/status (and metadata extras). */
    private static String pod(String rest) {
        String metadata = "metadata: {name: web, namespace: default, creationTimestamp: \"2025-06-01T11:55:00Z\"";
        if (rest.startsWith("metadata: {")) {
            int end = rest.indexOf('}');
            metadata += ", " + rest.substring("metadata: {".length(), end);
            rest = rest.substring(end + 1).stripLeading();
        }
        return "apiVersion: v1\nkind: Pod\n" + metadata + "}\n" + rest;
    }
}
