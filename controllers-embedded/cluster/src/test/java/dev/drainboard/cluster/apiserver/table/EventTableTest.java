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

class EventTableTest {
    private static final String COLUMNS =
            "Last Seen, Type, Reason, Object, Subobject*, Source*, Message, First Seen*, Count*, Name*";

    @ParameterizedTest(name = "group \"{0}\"")
    @MethodSource("eventGroups")
    void bothEventApisHaveTheSameColumnsWithNameLast(String group) {
        var table = table(group, "events", "metadata: {name: e}");
        assertThat(columns(table)).isEqualTo(COLUMNS);
        assertThat(table.at("/columnDefinitions/9/format").asText()).isEqualTo("name");
        assertThat(table.at("/columnDefinitions/0/format").asText()).isEmpty();
    }

    static Stream<String> eventGroups() {
        return Stream.of("", "events.k8s.io");
    }

    /** Cells: LAST SEEN TYPE REASON OBJECT SUBOBJECT SOURCE MESSAGE FIRST SEEN COUNT NAME. */
    @ParameterizedTest(name = "{0}")
    @MethodSource
    void cells(String scenario, String group, String eventYaml, String expectedCells) {
        assertJson(firstRowCells(table(group, "events", eventYaml)), expectedCells);
    }

    static Stream<Arguments> cells() {
        return Stream.of(
                arguments("core event from the kubelet", "", """
                        apiVersion: v1
                        kind: Event
                        metadata: {name: web.17f0a1b2c3d4e5f6, namespace: default}
                        involvedObject: {kind: Pod, name: web, namespace: default, fieldPath: "spec.containers{app}"}
                        reason: BackOff
                        message: "Back-off restarting failed container app in pod web_default(1234)\\n"
                        source: {component: kubelet, host: node-1}
                        firstTimestamp: "2025-06-01T11:40:00Z"
                        lastTimestamp: "2025-06-01T11:58:00Z"
                        count: 7
                        type: Warning
                        """, """
                        ["2m","Warning","BackOff","pod/web","spec.containers{app}","kubelet, node-1",
                         "Back-off restarting failed container app in pod web_default(1234)","20m",7,"web.17f0a1b2c3d4e5f6"]"""),
                arguments("core event with only eventTime, reported by a controller", "", """
                        apiVersion: v1
                        kind: Event
                        metadata: {name: web-abc.1}
                        involvedObject: {kind: ReplicaSet, name: web-abc}
                        reason: SuccessfulCreate
                        message: "Created pod: web-abc-x1"
                        eventTime: "2025-06-01T11:59:30.000000Z"
                        reportingComponent: replicaset-controller
                        reportingInstance: ""
                        type: Normal
                        """, """
                        ["30s","Normal","SuccessfulCreate","replicaset/web-abc","","replicaset-controller",
                         "Created pod: web-abc-x1","30s",1,"web-abc.1"]"""),
                arguments("core event series uses the series time and count", "", """
                        apiVersion: v1
                        kind: Event
                        metadata: {name: n.1}
                        involvedObject: {kind: Node}
                        reason: Rebooted
                        message: rebooted
                        eventTime: "2025-06-01T10:00:00.000000Z"
                        series: {count: 4, lastObservedTime: "2025-06-01T11:59:00.000000Z"}
                        reportingComponent: kubelet
                        reportingInstance: node-1
                        type: Warning
                        """, """
                        ["60s","Warning","Rebooted","node","","kubelet, node-1","rebooted","120m",4,"n.1"]"""),
                arguments("core event without any time", "", """
                        apiVersion: v1
                        kind: Event
                        metadata: {name: bare}
                        involvedObject: {kind: Pod, name: p}
                        type: Normal
                        """, """
                        ["<unknown>","Normal","","pod/p","","","","<unknown>",1,"bare"]"""),
                arguments("events.k8s.io event", "events.k8s.io", """
                        apiVersion: events.k8s.io/v1
                        kind: Event
                        metadata: {name: web.1, namespace: default}
                        regarding: {kind: Pod, name: web, namespace: default, fieldPath: "spec.containers{app}"}
                        reason: Pulled
                        note: Successfully pulled image "nginx:1.27"
                        eventTime: "2025-06-01T11:57:00.000000Z"
                        reportingController: kubelet
                        reportingInstance: node-1
                        action: Pulling
                        type: Normal
                        """, """
                        ["3m","Normal","Pulled","pod/web","spec.containers{app}","kubelet, node-1",
                         "Successfully pulled image \\"nginx:1.27\\"","3m",1,"web.1"]"""),
                arguments("events.k8s.io event with deprecated core fields", "events.k8s.io", """
                        apiVersion: events.k8s.io/v1
                        kind: Event
                        metadata: {name: old.1}
                        regarding: {kind: Deployment, name: web}
                        reason: ScalingReplicaSet
                        note: Scaled up replica set web-abc to 3
                        eventTime: null
                        deprecatedSource: {component: deployment-controller}
                        deprecatedFirstTimestamp: "2025-06-01T09:00:00Z"
                        deprecatedLastTimestamp: "2025-06-01T11:00:00Z"
                        deprecatedCount: 2
                        type: Normal
                        """, """
                        ["60m","Normal","ScalingReplicaSet","deployment/web","","deployment-controller",
                         "Scaled up replica set web-abc to 3","3h",2,"old.1"]"""));
    }

    @Test
    void unknownGroupsFallBackToNameAndAge() {
        assertThat(columns(table("example.com", "events", "metadata: {name: e}"))).isEqualTo("Name, Age");
    }
}
