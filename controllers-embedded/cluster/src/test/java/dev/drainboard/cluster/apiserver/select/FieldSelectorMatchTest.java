package dev.drainboard.cluster.apiserver.select;

import static org.assertj.core.api.Assertions.assertThat;

import dev.drainboard.labels.LenientJson;
import dev.drainboard.labels.SelectorException;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class FieldSelectorMatchTest {
    private static final String RUNNING_POD = """
            {metadata:{name:'web-1', namespace:'shop'},
             spec:{nodeName:'node-a', restartPolicy:'Always', schedulerName:'default-scheduler',
                   serviceAccountName:'default', hostNetwork:true},
             status:{phase:'Running', podIP:'10.0.0.7', podIPs:[{ip:'10.0.0.7'},{ip:'fd00::7'}], nominatedNodeName:'node-b'}}""";
    private static final String PENDING_POD = "{metadata:{name:'web-2', namespace:'shop'}, spec:{}, status:{phase:'Pending'}}";
    private static final String SUCCEEDED_POD = "{metadata:{name:'job-1', namespace:'shop'}, spec:{nodeName:'node-a'}, status:{phase:'Succeeded'}}";

    @ParameterizedTest(name = "[{0}] on {1}")
    @CsvSource(delimiter = '|', textBlock = """
            spec.nodeName=node-a,status.phase!=Succeeded,status.phase!=Failed | RUNNING   | true
            spec.nodeName=node-a,status.phase!=Succeeded,status.phase!=Failed | SUCCEEDED | false
            spec.nodeName=node-a,status.phase!=Succeeded,status.phase!=Failed | PENDING   | false
            spec.nodeName=node-a                                              | RUNNING   | true
            spec.nodeName=node-a                                              | SUCCEEDED | true
            spec.nodeName=node-b                                              | RUNNING   | false
            spec.nodeName=                                                    | PENDING   | true
            spec.nodeName=                                                    | RUNNING   | false
            spec.nodeName!=                                                   | RUNNING   | true
            spec.host=node-a                                                  | RUNNING   | true
            spec.hostNetwork=true                                             | RUNNING   | true
            spec.hostNetwork=false                                            | PENDING   | true
            spec.hostNetwork=                                                 | PENDING   | false
            spec.restartPolicy=Always,spec.schedulerName=default-scheduler,spec.serviceAccountName=default | RUNNING | true
            spec.restartPolicy=                                               | PENDING   | true
            status.podIP=10.0.0.7                                             | RUNNING   | true
            status.podIP=                                                     | PENDING   | true
            status.podIPs=10.0.0.7                                            | RUNNING   | false
            status.podIPs=                                                    | RUNNING   | true
            status.nominatedNodeName=node-b                                   | RUNNING   | true
            metadata.name=web-1,metadata.namespace=shop                       | RUNNING   | true
            metadata.namespace!=shop                                          | RUNNING   | false
            """)
    void matchesPods(String selector, String pod, boolean expected) throws SelectorException {
        String json = switch (pod) {
            case "RUNNING" -> RUNNING_POD;
            case "PENDING" -> PENDING_POD;
            default -> SUCCEEDED_POD;
        };
        assertThat(FieldSelector.parse(selector).matches("", "pods", LenientJson.of(json))).isEqualTo(expected);
    }

    @Test
    void podIpComesFromTheFirstPodIpsEntry() throws SelectorException {
        var pod = LenientJson.of("{status:{podIP:'stale', podIPs:[{ip:'10.0.0.9'}]}}");
        assertThat(FieldSelector.parse("status.podIP=10.0.0.9").matches("", "pods", pod)).isTrue();
    }

    private static final String CORE_EVENT = """
            {metadata:{name:'web-1.17', namespace:'shop'},
             involvedObject:{kind:'Pod', namespace:'shop', name:'web-1', uid:'u-1', apiVersion:'v1',
                             resourceVersion:'42', fieldPath:'spec.containers{web}'},
             reason:'Killing', type:'Normal', source:{component:'kubelet', host:'node-a'}, reportingComponent:'kubelet'}""";
    private static final String CORE_EVENT_WITHOUT_SOURCE =
            "{metadata:{name:'e', namespace:'shop'}, reason:'Evicted', reportingComponent:'taint-manager'}";

    @ParameterizedTest(name = "[{0}]")
    @CsvSource(delimiter = '|', textBlock = """
            involvedObject.name=web-1,involvedObject.namespace=shop,involvedObject.uid=u-1 | true
            involvedObject.name=web-1,involvedObject.namespace=shop,involvedObject.uid=u-2 | false
            involvedObject.kind=Pod,involvedObject.apiVersion=v1                            | true
            involvedObject.resourceVersion=42,involvedObject.fieldPath=spec.containers{web} | true
            reason=Killing,type=Normal                                                      | true
            type!=Normal                                                                    | false
            source=kubelet,reportingComponent=kubelet                                       | true
            """)
    void matchesCoreEventsAsKubectlDescribeAsks(String selector, boolean expected) throws SelectorException {
        assertThat(FieldSelector.parse(selector).matches("", "events", LenientJson.of(CORE_EVENT))).isEqualTo(expected);
    }

    @Test
    void coreEventSourceFallsBackToTheReportingComponent() throws SelectorException {
        var event = LenientJson.of(CORE_EVENT_WITHOUT_SOURCE);
        assertThat(FieldSelector.parse("source=taint-manager").matches("", "events", event)).isTrue();
        assertThat(FieldSelector.parse("involvedObject.name=").matches("", "events", event)).isTrue();
    }

    @ParameterizedTest(name = "[{0}]")
    @CsvSource(delimiter = '|', textBlock = """
            regarding.name=web-1,regarding.namespace=shop,regarding.uid=u-1 | true
            regarding.kind=Node                                             | false
            reportingController=kubelet,reason=Killing,type=Normal          | true
            source=kubelet                                                  | true
            """)
    void matchesEventsApiEventsThroughTheirOwnNames(String selector, boolean expected) throws SelectorException {
        var event = LenientJson.of("""
                {metadata:{name:'web-1.17', namespace:'shop'},
                 regarding:{kind:'Pod', namespace:'shop', name:'web-1', uid:'u-1'},
                 reason:'Killing', type:'Normal', reportingController:'kubelet'}""");
        FieldSelector validated = FieldSelector.parse(selector).validateFor("events.k8s.io", "events", null);
        assertThat(validated.matches("events.k8s.io", "events", event)).isEqualTo(expected);
        assertThat(FieldSelector.parse(selector).matches("events.k8s.io", "events", event)).isEqualTo(expected);
    }

    @ParameterizedTest(name = "{0}/{1} [{2}] on {3}")
    @CsvSource(delimiter = '|', textBlock = """
            ''                  | nodes                      | spec.unschedulable=false        | {metadata:{name:'n'}, spec:{}}                              | true
            ''                  | nodes                      | spec.unschedulable=true         | {metadata:{name:'n'}, spec:{unschedulable:true}}            | true
            ''                  | nodes                      | metadata.name=n                 | {metadata:{name:'n'}}                                       | true
            ''                  | namespaces                 | status.phase=Terminating        | {metadata:{name:'x'}, status:{phase:'Terminating'}}         | true
            ''                  | secrets                    | type=kubernetes.io/tls          | {metadata:{name:'s'}, type:'kubernetes.io/tls'}             | true
            ''                  | secrets                    | type=Opaque                     | {metadata:{name:'s'}, type:'kubernetes.io/tls'}             | false
            ''                  | services                   | spec.type=NodePort              | {metadata:{name:'s'}, spec:{type:'NodePort'}}               | true
            ''                  | replicationcontrollers     | status.replicas=0               | {metadata:{name:'r'}, status:{}}                            | true
            ''                  | replicationcontrollers     | status.replicas=3               | {metadata:{name:'r'}, status:{replicas:3}}                  | true
            batch               | jobs                       | status.successful=0             | {metadata:{name:'j'}, status:{}}                            | true
            batch               | jobs                       | status.successful=2             | {metadata:{name:'j'}, status:{succeeded:2}}                 | true
            certificates.k8s.io | certificatesigningrequests | spec.signerName=kubernetes.io/kubelet-serving | {spec:{signerName:'kubernetes.io/kubelet-serving'}} | true
            ''                  | nodes                      | metadata.namespace=             | {metadata:{name:'n'}}                                       | true
            rbac.authorization.k8s.io | clusterroles         | metadata.namespace=x            | {metadata:{name:'admin'}}                                   | false
            apps                | deployments                | spec.replicas=3                 | {metadata:{name:'d'}, spec:{replicas:3}}                    | false
            apps                | deployments                | spec.replicas=                  | {metadata:{name:'d'}, spec:{replicas:3}}                    | true
            """)
    void matchesOtherBuiltInResources(String group, String plural, String selector, String object, boolean expected)
            throws SelectorException {
        assertThat(FieldSelector.parse(selector).matches(group, plural, LenientJson.of(object))).isEqualTo(expected);
    }

    @ParameterizedTest(name = "[{0}]")
    @CsvSource(delimiter = '|', textBlock = """
            spec.color=red               | true
            spec.color!=red              | false
            spec.size=3                  | true
            spec.enabled=true            | true
            spec.missing=                | true
            metadata.name=w,metadata.namespace=shop | true
            """)
    void matchesCustomResourcesBySelectableFields(String selector, boolean expected) throws SelectorException {
        var widget = LenientJson.of("{metadata:{name:'w', namespace:'shop'}, spec:{color:'red', size:3, enabled:true}}");
        FieldSelector validated = FieldSelector.parse(selector)
                .validateFor("example.com", "widgets", Set.of("spec.color", "spec.size", "spec.enabled", "spec.missing"));
        assertThat(validated.matches("example.com", "widgets", widget)).isEqualTo(expected);
    }

    @Test
    void kubectlDrainPinsTheNodeSoTheStoreCanIndex() throws SelectorException {
        FieldSelector drain = FieldSelector.parse("spec.nodeName=node-a").validateFor("", "pods", null);
        assertThat(drain.exactValue("spec.nodeName")).contains("node-a");
        assertThat(drain.matches("", "pods", LenientJson.of(RUNNING_POD))).isTrue();
        assertThat(drain.matches("", "pods", LenientJson.of(PENDING_POD))).isFalse();
    }

    @Test
    void everythingMatchesAnyObject() throws SelectorException {
        assertThat(FieldSelector.parse("").matches("", "pods", LenientJson.of("{}"))).isTrue();
        assertThat(FieldSelector.parse("").matches("", "pods", null)).isTrue();
    }
}
