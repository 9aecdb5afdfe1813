package dev.drainboard.cluster.apiserver.patch;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.params.provider.Arguments.arguments;

/**
 * The patch bodies kubectl (and the kubelet and controllers) send, applied as kube-apiserver applies them.
 * kubectl label/annotate/scale send JSON merge patches; apply, edit, taint, cordon, set, rollout and
 * patch --type strategic send strategic merge patches; patch --type json sends a JSON patch.
 */
class KubectlPatchesTest {

    enum PatchType { STRATEGIC, MERGE, JSON }

    private static final String DEPLOYMENT = compact("""
            {'apiVersion':'apps/v1','kind':'Deployment',
             'metadata':{'name':'web','namespace':'default','labels':{'app':'web','tier':'front'},
               'annotations':{'kubectl.kubernetes.io/last-applied-configuration':'{old}','deployment.kubernetes.io/revision':'1'}},
             'spec':{'replicas':2,'selector':{'matchLabels':{'app':'web'}},
               'strategy':{'type':'RollingUpdate','rollingUpdate':{'maxSurge':'25%','maxUnavailable':'25%'}},
               'template':{'metadata':{'labels':{'app':'web'}},
                 'spec':{'containers':[
                   {'name':'web','image':'nginx:1.26','imagePullPolicy':'IfNotPresent',
                    'env':[{'name':'A','value':'1'},{'name':'B','value':'1'}],
                    'ports':[{'containerPort':80,'protocol':'TCP'}],
                    'volumeMounts':[{'name':'data','mountPath':'/data'}]},
                   {'name':'sidecar','image':'busybox:1.36'}],
                  'volumes':[{'name':'data','emptyDir':{}}],
                  'tolerations':[{'key':'spot','operator':'Exists'}]}}},
             'status':{'replicas':2,'conditions':[
               {'type':'Available','status':'True','reason':'MinimumReplicasAvailable'},
               {'type':'Progressing','status':'True','reason':'NewReplicaSetAvailable'}]}}
            """);

    private static final String NODE = compact("""
            {'apiVersion':'v1','kind':'Node','metadata':{'name':'n1','labels':{'kubernetes.io/hostname':'n1'}},
             'spec':{'podCIDR':'10.244.0.0/24','podCIDRs':['10.244.0.0/24'],
               'taints':[{'key':'node.kubernetes.io/not-ready','effect':'NoSchedule'}]},
             'status':{'addresses':[{'type':'InternalIP','address':'10.0.0.1'},{'type':'Hostname','address':'n1'}],
               'conditions':[{'type':'MemoryPressure','status':'False','lastHeartbeatTime':'t1'},
                             {'type':'Ready','status':'False','lastHeartbeatTime':'t1','reason':'KubeletNotReady'}]}}
            """);

    private static final String POD = compact("""
            {'apiVersion':'v1','kind':'Pod','metadata':{'name':'p','uid':'pod-uid','finalizers':['a','b']},
             'spec':{'containers':[{'name':'app','image':'app:1'}]},
             'status':{'phase':'Pending','conditions':[
               {'type':'Initialized','status':'True'},
               {'type':'Ready','status':'False','reason':'ContainersNotReady'},
               {'type':'ContainersReady','status':'False'},
               {'type':'PodScheduled','status':'True'}]}}
            """);

    private static final String SERVICE = compact("""
            {'apiVersion':'v1','kind':'Service','metadata':{'name':'s'},
             'spec':{'type':'ClusterIP','clusterIP':'10.96.0.10',
               'ports':[{'name':'http','port':80,'protocol':'TCP','targetPort':8080},
                        {'name':'https','port':443,'protocol':'TCP','targetPort':443}]}}
            """);

    /** Fixtures as single-line JSON, so tests can derive expected objects by plain text replacement. */
    private static String compact(String json) {
        return json.replaceAll("\\n\\s*", "");
    }

    static Stream<Arguments> patches() {
        return Stream.of(
                arguments("kubectl apply: container image change", PatchType.STRATEGIC, DEPLOYMENT,
                        """
                        {'metadata':{'annotations':{'kubectl.kubernetes.io/last-applied-configuration':'{new}'}},
                         'spec':{'template':{'spec':{'$setElementOrder/containers':[{'name':'web'},{'name':'sidecar'}],
                           'containers':[{'image':'nginx:1.27','name':'web'}]}}}}
                        """,
                        DEPLOYMENT.replace("{old}", "{new}").replace("nginx:1.26", "nginx:1.27")),
                arguments("kubectl apply: container removed", PatchType.STRATEGIC, DEPLOYMENT,
                        """
                        {'spec':{'template':{'spec':{'$setElementOrder/containers':[{'name':'web'}],
                           'containers':[{'$patch':'delete','name':'sidecar'}]}}}}
                        """,
                        DEPLOYMENT.replace(",{'name':'sidecar','image':'busybox:1.36'}", "")),
                arguments("kubectl apply: container added in the middle", PatchType.STRATEGIC,
                        DEPLOYMENT.replace("'name':'sidecar'", "'name':'zz-last'"),
                        """
                        {'spec':{'template':{'spec':{'$setElementOrder/containers':[{'name':'web'},{'name':'logger'},{'name':'zz-last'}],
                           'containers':[{'image':'fluent-bit:3','name':'logger'}]}}}}
                        """,
                        DEPLOYMENT.replace("'name':'sidecar'", "'name':'zz-last'").replace(
                                "{'name':'zz-last'", "{'name':'logger','image':'fluent-bit:3'},{'name':'zz-last'")),
                arguments("kubectl apply: env var changed and another removed", PatchType.STRATEGIC, DEPLOYMENT,
                        """
                        {'spec':{'template':{'spec':{'$setElementOrder/containers':[{'name':'web'},{'name':'sidecar'}],
                           'containers':[{'$setElementOrder/env':[{'name':'A'}],
                             'env':[{'name':'A','value':'2'},{'$patch':'delete','name':'B'}],'name':'web'}]}}}}
                        """,
                        DEPLOYMENT.replace("'env':[{'name':'A','value':'1'},{'name':'B','value':'1'}]", "'env':[{'name':'A','value':'2'}]")),
                arguments("kubectl apply: label removed and label added", PatchType.STRATEGIC, DEPLOYMENT,
                        "{'metadata':{'labels':{'team':'x','tier':null}}}",
                        DEPLOYMENT.replace("'tier':'front'", "'team':'x'")),
                arguments("kubectl apply: volume source switched (retainKeys)", PatchType.STRATEGIC, DEPLOYMENT,
                        """
                        {'spec':{'template':{'spec':{'$setElementOrder/volumes':[{'name':'data'}],
                           'volumes':[{'$retainKeys':['configMap','name'],'configMap':{'name':'cm'},'emptyDir':null,'name':'data'}]}}}}
                        """,
                        DEPLOYMENT.replace("{'name':'data','emptyDir':{}}", "{'name':'data','configMap':{'name':'cm'}}")),
                arguments("kubectl apply: deployment strategy switched to Recreate (retainKeys)", PatchType.STRATEGIC, DEPLOYMENT,
                        "{'spec':{'strategy':{'$retainKeys':['type'],'rollingUpdate':null,'type':'Recreate'}}}",
                        DEPLOYMENT.replace("'strategy':{'type':'RollingUpdate','rollingUpdate':{'maxSurge':'25%','maxUnavailable':'25%'}}",
                                "'strategy':{'type':'Recreate'}")),
                arguments("kubectl apply: toleration list replaced (atomic)", PatchType.STRATEGIC, DEPLOYMENT,
                        "{'spec':{'template':{'spec':{'tolerations':[{'effect':'NoSchedule','key':'gpu','operator':'Exists'}]}}}}",
                        DEPLOYMENT.replace("{'key':'spot','operator':'Exists'}", "{'effect':'NoSchedule','key':'gpu','operator':'Exists'}")),
                arguments("kubectl apply: finalizer removed", PatchType.STRATEGIC, POD,
                        "{'metadata':{'$deleteFromPrimitiveList/finalizers':['b'],'$setElementOrder/finalizers':['a']}}",
                        POD.replace("'finalizers':['a','b']", "'finalizers':['a']")),
                arguments("kubectl apply: finalizer added", PatchType.STRATEGIC, POD,
                        "{'metadata':{'$setElementOrder/finalizers':['a','b','c'],'finalizers':['c']}}",
                        POD.replace("'finalizers':['a','b']", "'finalizers':['a','b','c']")),
                arguments("kubectl apply: service port changed", PatchType.STRATEGIC, SERVICE,
                        "{'spec':{'$setElementOrder/ports':[{'port':80},{'port':443}],'ports':[{'port':443,'targetPort':8443}]}}",
                        SERVICE.replace("'targetPort':443", "'targetPort':8443")),
                arguments("kubectl edit: service port removed and type changed", PatchType.STRATEGIC, SERVICE,
                        "{'spec':{'$setElementOrder/ports':[{'port':80}],'ports':[{'$patch':'delete','port':443}],'type':'NodePort'}}",
                        SERVICE.replace(",{'name':'https','port':443,'protocol':'TCP','targetPort':443}", "")
                                .replace("'ClusterIP'", "'NodePort'")),
                arguments("kubectl set image", PatchType.STRATEGIC, DEPLOYMENT,
                        """
                        {'spec':{'template':{'spec':{'$setElementOrder/containers':[{'name':'web'},{'name':'sidecar'}],
                           'containers':[{'image':'busybox:1.37','name':'sidecar'}]}}}}
                        """,
                        DEPLOYMENT.replace("busybox:1.36", "busybox:1.37")),
                arguments("kubectl set env", PatchType.STRATEGIC, DEPLOYMENT,
                        """
                        {'spec':{'template':{'spec':{'$setElementOrder/containers':[{'name':'web'},{'name':'sidecar'}],
                           'containers':[{'$setElementOrder/env':[{'name':'A'},{'name':'B'},{'name':'C'}],
                             'env':[{'name':'C','value':'3'}],'name':'web'}]}}}}
                        """,
                        DEPLOYMENT.replace("{'name':'B','value':'1'}]", "{'name':'B','value':'1'},{'name':'C','value':'3'}]")),
                arguments("kubectl rollout restart", PatchType.STRATEGIC, DEPLOYMENT,
                        "{'spec':{'template':{'metadata':{'annotations':{'kubectl.kubernetes.io/restartedAt':'2025-06-01T10:00:00Z'}}}}}",
                        DEPLOYMENT.replace("'template':{'metadata':{'labels':{'app':'web'}}",
                                "'template':{'metadata':{'labels':{'app':'web'},'annotations':{'kubectl.kubernetes.io/restartedAt':'2025-06-01T10:00:00Z'}}")),
                arguments("kubectl rollout pause", PatchType.STRATEGIC, DEPLOYMENT,
                        "{'spec':{'paused':true}}",
                        DEPLOYMENT.replace("'spec':{'replicas':2,", "'spec':{'paused':true,'replicas':2,")),
                arguments("kubectl patch --type strategic: container deleted by name", PatchType.STRATEGIC, DEPLOYMENT,
                        "{'spec':{'template':{'spec':{'containers':[{'$patch':'delete','name':'sidecar'}]}}}}",
                        DEPLOYMENT.replace(",{'name':'sidecar','image':'busybox:1.36'}", "")),
                arguments("kubectl patch --type strategic: containers replaced wholesale", PatchType.STRATEGIC, DEPLOYMENT,
                        "{'spec':{'template':{'spec':{'containers':[{'name':'solo','image':'solo:1'},{'$patch':'replace'}]}}}}",
                        DEPLOYMENT.replaceAll("(?s)'containers':\\[.*?'busybox:1.36'}]", "'containers':[{'name':'solo','image':'solo:1'}]")),
                arguments("kubectl taint: taint added (the whole atomic list is sent)", PatchType.STRATEGIC, NODE,
                        """
                        {'spec':{'taints':[{'effect':'NoSchedule','key':'node.kubernetes.io/not-ready'},
                                           {'effect':'NoExecute','key':'dedicated','value':'gpu'}]}}
                        """,
                        NODE.replace("'taints':[{'key':'node.kubernetes.io/not-ready','effect':'NoSchedule'}]",
                                "'taints':[{'effect':'NoSchedule','key':'node.kubernetes.io/not-ready'},{'effect':'NoExecute','key':'dedicated','value':'gpu'}]")),
                arguments("kubectl taint: last taint removed", PatchType.STRATEGIC, NODE,
                        "{'spec':{'taints':null}}",
                        NODE.replace(",'taints':[{'key':'node.kubernetes.io/not-ready','effect':'NoSchedule'}]", "")),
                arguments("kubectl cordon", PatchType.STRATEGIC, NODE,
                        "{'spec':{'unschedulable':true}}",
                        NODE.replace("'spec':{'podCIDR'", "'spec':{'unschedulable':true,'podCIDR'")),
                arguments("kubectl uncordon", PatchType.STRATEGIC,
                        NODE.replace("'spec':{'podCIDR'", "'spec':{'unschedulable':true,'podCIDR'"),
                        "{'spec':{'unschedulable':null}}",
                        NODE),
                arguments("kubelet: node heartbeat merges conditions by type", PatchType.STRATEGIC, NODE,
                        """
                        {'status':{'$setElementOrder/conditions':[{'type':'MemoryPressure'},{'type':'Ready'}],
                          'conditions':[{'lastHeartbeatTime':'t2','type':'MemoryPressure'},
                                        {'lastHeartbeatTime':'t2','reason':'KubeletReady','status':'True','type':'Ready'}]}}
                        """,
                        NODE.replace("'lastHeartbeatTime':'t1'", "'lastHeartbeatTime':'t2'")
                                .replace("'status':'False','lastHeartbeatTime':'t2','reason':'KubeletNotReady'",
                                        "'status':'True','lastHeartbeatTime':'t2','reason':'KubeletReady'")),
                arguments("kubelet: node address changed, merged by type", PatchType.STRATEGIC, NODE,
                        "{'status':{'$setElementOrder/addresses':[{'type':'InternalIP'},{'type':'Hostname'}],'addresses':[{'address':'10.0.0.2','type':'InternalIP'}]}}",
                        NODE.replace("10.0.0.1", "10.0.0.2")),
                arguments("kubelet: pod status condition updated, merged by type", PatchType.STRATEGIC, POD,
                        """
                        {'metadata':{'uid':'pod-uid'},
                         'status':{'$setElementOrder/conditions':[{'type':'Initialized'},{'type':'Ready'},{'type':'ContainersReady'},{'type':'PodScheduled'}],
                           'conditions':[{'reason':null,'status':'True','type':'Ready'},{'status':'True','type':'ContainersReady'}],
                           'phase':'Running'}}
                        """,
                        POD.replace("{'type':'Ready','status':'False','reason':'ContainersNotReady'}", "{'type':'Ready','status':'True'}")
                                .replace("{'type':'ContainersReady','status':'False'}", "{'type':'ContainersReady','status':'True'}")
                                .replace("'Pending'", "'Running'")),
                arguments("controller: status condition without $setElementOrder keeps its place", PatchType.STRATEGIC, DEPLOYMENT,
                        "{'status':{'conditions':[{'type':'Available','status':'False','reason':'MinimumReplicasUnavailable'}]}}",
                        DEPLOYMENT.replace("'status':'True','reason':'MinimumReplicasAvailable'", "'status':'False','reason':'MinimumReplicasUnavailable'")),
                arguments("controller: owner reference adopted", PatchType.STRATEGIC, POD,
                        "{'metadata':{'ownerReferences':[{'apiVersion':'apps/v1','blockOwnerDeletion':true,'controller':true,'kind':'ReplicaSet','name':'rs','uid':'rs-uid'}],'uid':'pod-uid'}}",
                        POD.replace("'uid':'pod-uid',", "'uid':'pod-uid','ownerReferences':[{'apiVersion':'apps/v1','blockOwnerDeletion':true,'controller':true,'kind':'ReplicaSet','name':'rs','uid':'rs-uid'}],")),
                arguments("garbage collector: owner reference released by uid", PatchType.STRATEGIC,
                        POD.replace("'uid':'pod-uid',", "'uid':'pod-uid','ownerReferences':[{'kind':'ReplicaSet','name':'rs','uid':'rs-uid'},{'kind':'Foo','name':'f','uid':'foo-uid'}],"),
                        "{'metadata':{'ownerReferences':[{'$patch':'delete','uid':'rs-uid'}],'uid':'pod-uid'}}",
                        POD.replace("'uid':'pod-uid',", "'uid':'pod-uid','ownerReferences':[{'kind':'Foo','name':'f','uid':'foo-uid'}],")),
                arguments("webhook CA bundle rotated, merged by webhook name", PatchType.STRATEGIC,
                        """
                        {'apiVersion':'admissionregistration.k8s.io/v1','kind':'ValidatingWebhookConfiguration','metadata':{'name':'v'},
                         'webhooks':[{'name':'a.example.com','clientConfig':{'caBundle':'OLD','service':{'name':'svc','namespace':'ns'}}},
                                     {'name':'b.example.com','clientConfig':{'caBundle':'OLD'}}]}
                        """,
                        "{'webhooks':[{'clientConfig':{'caBundle':'NEW'},'name':'a.example.com'}]}",
                        """
                        {'apiVersion':'admissionregistration.k8s.io/v1','kind':'ValidatingWebhookConfiguration','metadata':{'name':'v'},
                         'webhooks':[{'name':'a.example.com','clientConfig':{'caBundle':'NEW','service':{'name':'svc','namespace':'ns'}}},
                                     {'name':'b.example.com','clientConfig':{'caBundle':'OLD'}}]}
                        """),
                arguments("disruption controller: PDB status condition merged by type", PatchType.STRATEGIC,
                        "{'apiVersion':'policy/v1','kind':'PodDisruptionBudget','metadata':{'name':'pdb'},'status':{'conditions':[{'type':'DisruptionAllowed','status':'False'}],'currentHealthy':0}}",
                        "{'status':{'conditions':[{'type':'DisruptionAllowed','status':'True','reason':'SufficientPods'}],'currentHealthy':3}}",
                        "{'apiVersion':'policy/v1','kind':'PodDisruptionBudget','metadata':{'name':'pdb'},'status':{'conditions':[{'type':'DisruptionAllowed','status':'True','reason':'SufficientPods'}],'currentHealthy':3}}"),
                arguments("kubectl label", PatchType.MERGE, DEPLOYMENT,
                        "{'metadata':{'labels':{'env':'prod'}}}",
                        DEPLOYMENT.replace("'tier':'front'", "'tier':'front','env':'prod'")),
                arguments("kubectl label --overwrite --resource-version", PatchType.MERGE, DEPLOYMENT,
                        "{'metadata':{'labels':{'tier':'back'},'resourceVersion':'42'}}",
                        DEPLOYMENT.replace("'tier':'front'", "'tier':'back'").replace("'namespace':'default',", "'namespace':'default','resourceVersion':'42',")),
                arguments("kubectl label tier-", PatchType.MERGE, DEPLOYMENT,
                        "{'metadata':{'labels':{'tier':null}}}",
                        DEPLOYMENT.replace(",'tier':'front'", "")),
                arguments("kubectl annotate", PatchType.MERGE, NODE,
                        "{'metadata':{'annotations':{'drainboard.dev/note':'rack 4'}}}",
                        NODE.replace("'metadata':{'name':'n1',", "'metadata':{'name':'n1','annotations':{'drainboard.dev/note':'rack 4'},")),
                arguments("kubectl annotate note-", PatchType.MERGE,
                        NODE.replace("'metadata':{'name':'n1',", "'metadata':{'name':'n1','annotations':{'drainboard.dev/note':'rack 4','keep':'me'},"),
                        "{'metadata':{'annotations':{'drainboard.dev/note':null}}}",
                        NODE.replace("'metadata':{'name':'n1',", "'metadata':{'name':'n1','annotations':{'keep':'me'},")),
                arguments("kubectl scale (merge patch on the scale subresource)", PatchType.MERGE,
                        "{'apiVersion':'autoscaling/v1','kind':'Scale','metadata':{'name':'web'},'spec':{'replicas':2},'status':{'replicas':2}}",
                        "{'spec':{'replicas':5}}",
                        "{'apiVersion':'autoscaling/v1','kind':'Scale','metadata':{'name':'web'},'spec':{'replicas':5},'status':{'replicas':2}}"),
                arguments("kubectl patch --type merge: merge patches replace lists", PatchType.MERGE, POD,
                        "{'metadata':{'finalizers':['c']}}",
                        POD.replace("'finalizers':['a','b']", "'finalizers':['c']")),
                arguments("kubectl patch --type json: replace, add and test", PatchType.JSON, DEPLOYMENT,
                        """
                        [{'op':'test','path':'/spec/replicas','value':2},
                         {'op':'replace','path':'/spec/replicas','value':3},
                         {'op':'add','path':'/metadata/labels/env','value':'prod'},
                         {'op':'add','path':'/spec/template/spec/containers/0/env/-','value':{'name':'C','value':'3'}}]
                        """,
                        DEPLOYMENT.replace("'replicas':2,'selector'", "'replicas':3,'selector'")
                                .replace("'tier':'front'", "'tier':'front','env':'prod'")
                                .replace("{'name':'B','value':'1'}]", "{'name':'B','value':'1'},{'name':'C','value':'3'}]")),
                arguments("kubectl patch --type json: remove a container by index", PatchType.JSON, DEPLOYMENT,
                        "[{'op':'remove','path':'/spec/template/spec/containers/1'}]",
                        DEPLOYMENT.replace(",{'name':'sidecar','image':'busybox:1.36'}", "")));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("patches")
    void appliesAsKubeApiserverDoes(String description, PatchType type, String target, String patch, String expected) throws PatchException {
        assertThat(Json.node(expected)).as("the row must expect a change").isNotEqualTo(Json.node(target));
        assertThat(apply(type, Json.object(target), Json.node(patch))).isEqualTo(Json.node(expected));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("patches")
    void leavesItsInputsAlone(String description, PatchType type, String target, String patch, String expected) throws PatchException {
        ObjectNode targetNode = Json.object(target);
        JsonNode patchNode = Json.node(patch);
        apply(type, targetNode, patchNode);
        assertThat(targetNode).isEqualTo(Json.node(target));
        assertThat(patchNode).isEqualTo(Json.node(patch));
    }

    private static ObjectNode apply(PatchType type, ObjectNode target, JsonNode patch) throws PatchException {
        return switch (type) {
            case STRATEGIC -> Patches.applyStrategicMergePatch(target, patch,
                    PatchSchemas.forKind(target.path("apiVersion").asText(), target.path("kind").asText()));
            case MERGE -> Patches.applyMergePatch(target, patch);
            case JSON -> Patches.applyJsonPatch(target, patch);
        };
    }
}
