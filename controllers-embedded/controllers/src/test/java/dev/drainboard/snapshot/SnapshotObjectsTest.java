package dev.drainboard.snapshot;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** What a snapshot keeps of an object, and what it leaves out. */
class SnapshotObjectsTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    static SnapshotResource resource(String kind) {
        return SnapshotResource.ALL.stream().filter(r -> r.kind().equals(kind)).findFirst().orElseThrow();
    }

    static ObjectNode json(String text) {
        try {
            return (ObjectNode) JSON.readTree(text.replace('\'', '"'));
        } catch (Exception e) {
            throw new IllegalArgumentException(e);
        }
    }

    @Test
    void keepsIdentityOwnersPlacementAndStatusDropsServerBookkeeping() {
        ObjectNode vmi = json("""
                {'metadata':{'name':'db','namespace':'apps','uid':'u-1','creationTimestamp':'2026-01-01T00:00:00Z',
                  'resourceVersion':'42','generation':3,'selfLink':'/x','managedFields':[{'manager':'virt-controller'}],
                  'labels':{'app':'db'},'ownerReferences':[{'apiVersion':'kubevirt.io/v1','kind':'VirtualMachine','name':'db','uid':'vm-1','controller':true}],
                  'annotations':{'kubectl.kubernetes.io/last-applied-configuration':'{...}','keep':'me'}},
                 'spec':{'domain':{}},
                 'status':{'phase':'Running','nodeName':'node-b'}}""");
        ObjectNode copy = SnapshotObjects.prepare(resource("VirtualMachineInstance"), vmi).orElseThrow();
        assertThat(copy.path("apiVersion").asText()).isEqualTo("kubevirt.io/v1");
        assertThat(copy.path("kind").asText()).isEqualTo("VirtualMachineInstance");
        assertThat(copy.fieldNames()).toIterable().startsWith("apiVersion", "kind");
        ObjectNode meta = (ObjectNode) copy.get("metadata");
        assertThat(meta.fieldNames()).toIterable().containsExactlyInAnyOrder("name", "namespace", "uid",
                "creationTimestamp", "labels", "ownerReferences", "annotations");
        assertThat(meta.path("annotations").fieldNames()).toIterable().containsExactly("keep");
        assertThat(copy.path("status").path("nodeName").asText()).isEqualTo("node-b");
        assertThat(vmi.path("metadata").has("resourceVersion")).as("the input is left alone").isTrue();
    }

    @Test
    void configMapsLoseTheirData() {
        ObjectNode cm = json("{'metadata':{'name':'settings','namespace':'apps'},'data':{'k':'v'},'binaryData':{'b':'AA=='}}");
        ObjectNode copy = SnapshotObjects.prepare(resource("ConfigMap"), cm).orElseThrow();
        assertThat(copy.has("data")).isFalse();
        assertThat(copy.has("binaryData")).isFalse();
        assertThat(copy.path("metadata").path("name").asText()).isEqualTo("settings");
    }

    @Test
    void theKubeVirtCrForgetsTheSourceClustersTimeScale() {
        ObjectNode kv = json("{'metadata':{'name':'kubevirt','namespace':'kubevirt','annotations':{'drainboard.dev/time-scale':'10'}},'spec':{}}");
        ObjectNode copy = SnapshotObjects.prepare(resource("KubeVirt"), kv).orElseThrow();
        assertThat(copy.path("metadata").has("annotations")).isFalse();
    }

    @Test
    void nodesKeepCapacityAndTaintsButNotTheirImageLists() {
        ObjectNode node = json("""
                {'metadata':{'name':'n1','labels':{'zone':'a'}},'spec':{'unschedulable':true,'taints':[{'key':'k','effect':'NoSchedule'}]},
                 'status':{'capacity':{'memory':'64Gi'},'allocatable':{'memory':'60Gi'},'images':[{'names':['x']}],'volumesInUse':['v']}}""");
        ObjectNode copy = SnapshotObjects.prepare(resource("Node"), node).orElseThrow();
        assertThat(copy.path("spec")).isEqualTo(node.path("spec"));
        assertThat(copy.path("status").fieldNames()).toIterable().containsExactly("capacity", "allocatable");
    }

    @ParameterizedTest(name = "{0} {1}: {2}")
    @CsvSource(delimiter = '|', value = {
            "Namespace | default | every cluster has it",
            "Namespace | kube-system | every cluster has it",
            "Namespace | kube-node-lease | every cluster has it",
            "ConfigMap | kube-root-ca.crt | published by the cluster itself",
            "ConfigMap | extension-apiserver-authentication | published by the cluster itself",
            "Namespace | apps | ",
            "ConfigMap | settings | "})
    void leavesOutWhatEveryClusterMakesItself(String kind, String name, String why) {
        ObjectNode object = json("{'metadata':{'name':'" + name + "','namespace':'x'}}");
        assertThat(SnapshotObjects.why(resource(kind), object).orElse(null)).isEqualTo(why);
        assertThat(SnapshotObjects.prepare(resource(kind), object).isPresent()).isEqualTo(why == null);
    }

    @Test
    void leavesOutObjectsBeingDeleted() {
        ObjectNode pod = json("{'metadata':{'name':'p','namespace':'x','deletionTimestamp':'2026-01-01T00:00:00Z'}}");
        assertThat(SnapshotObjects.why(resource("Pod"), pod)).contains("being deleted");
    }

    @Test
    void dropsOwnerReferencesToObjectsNotCopied() {
        ObjectNode rs = json("{'metadata':{'name':'web-1','uid':'rs-1'}}");
        ObjectNode pod = json("""
                {'metadata':{'name':'web-1-x','uid':'p-1','ownerReferences':[{'kind':'ReplicaSet','name':'web-1','uid':'rs-1'}]}}""");
        ObjectNode jobPod = json("""
                {'metadata':{'name':'job-x','uid':'p-2','ownerReferences':[{'kind':'Job','name':'job','uid':'job-1'}]}}""");
        assertThat(SnapshotObjects.dropDanglingOwners(List.of(rs, pod, jobPod))).isEqualTo(1);
        assertThat(pod.path("metadata").path("ownerReferences")).hasSize(1);
        assertThat(jobPod.path("metadata").has("ownerReferences")).isFalse();
    }
}
