package dev.drainboard.cluster.apiserver.table;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
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

/** One row per resource kind (or notable variant): its columns, wide ones starred, and the cells of one object. */
class BuiltInResourceTablesTest {
    private static final String CREATED = "creationTimestamp: \"2025-06-01T09:00:00Z\""; // 3h before the test clock

    @ParameterizedTest(name = "{0}")
    @MethodSource
    void columnsAndCells(String scenario, String group, String plural, String objectYaml,
                         String expectedColumns, String expectedCells) {
        ObjectNode table = table(group, plural, objectYaml);
        assertThat(columns(table)).isEqualTo(expectedColumns);
        assertJson(firstRowCells(table), expectedCells);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("columnsAndCells")
    void everyColumnIsDescribedAndTheNameColumnIsFormattedAsAName(String scenario, String group, String plural,
                                                                  String objectYaml) {
        JsonNode definitions = table(group, plural, objectYaml).get("columnDefinitions");
        assertThat(definitions.get(0).get("name").asText()).isEqualTo("Name");
        assertThat(definitions.get(0).get("format").asText()).isEqualTo("name");
        definitions.forEach(column -> assertThat(column.get("description").asText()).isNotBlank());
    }

    static Stream<Arguments> columnsAndCells() {
        return Stream.of(
                arguments("namespace", "", "namespaces", """
                        apiVersion: v1
                        kind: Namespace
                        metadata: {name: shop, %s}
                        status: {phase: Active}
                        """.formatted(CREATED),
                        "Name, Status, Age", """
                        ["shop","Active","3h"]"""),
                arguments("service, ClusterIP", "", "services", """
                        apiVersion: v1
                        kind: Service
                        metadata: {name: web, namespace: shop, %s}
                        spec:
                          type: ClusterIP
                          clusterIP: 10.96.12.34
                          clusterIPs: [10.96.12.34]
                          selector: {app: web, tier: frontend}
                          ports: [{name: http, port: 80, protocol: TCP, targetPort: 8080}, {name: dns, port: 53, protocol: UDP}]
                        """.formatted(CREATED),
                        "Name, Type, Cluster-IP, External-IP, Port(s), Age, Selector*", """
                        ["web","ClusterIP","10.96.12.34","<none>","80/TCP,53/UDP","3h","app=web,tier=frontend"]"""),
                arguments("service, headless without ports or selector", "", "services", """
                        apiVersion: v1
                        kind: Service
                        metadata: {name: db, %s}
                        spec: {clusterIP: None, clusterIPs: [None]}
                        """.formatted(CREATED),
                        "Name, Type, Cluster-IP, External-IP, Port(s), Age, Selector*", """
                        ["db","ClusterIP","None","<none>","<none>","3h","<none>"]"""),
                arguments("service, NodePort with external IPs", "", "services", """
                        apiVersion: v1
                        kind: Service
                        metadata: {name: web, %s}
                        spec:
                          type: NodePort
                          clusterIP: 10.96.0.20
                          externalIPs: [198.51.100.1, 198.51.100.2]
                          ports: [{port: 80, nodePort: 30080, protocol: TCP}]
                        """.formatted(CREATED),
                        "Name, Type, Cluster-IP, External-IP, Port(s), Age, Selector*", """
                        ["web","NodePort","10.96.0.20","198.51.100.1,198.51.100.2","80:30080/TCP","3h","<none>"]"""),
                arguments("service, LoadBalancer pending", "", "services", """
                        apiVersion: v1
                        kind: Service
                        metadata: {name: lb, %s}
                        spec: {type: LoadBalancer, clusterIPs: [10.96.0.30], ports: [{port: 443, nodePort: 31443, protocol: TCP}]}
                        """.formatted(CREATED),
                        "Name, Type, Cluster-IP, External-IP, Port(s), Age, Selector*", """
                        ["lb","LoadBalancer","10.96.0.30","<pending>","443:31443/TCP","3h","<none>"]"""),
                arguments("service, LoadBalancer with ingress and external IPs", "", "services", """
                        apiVersion: v1
                        kind: Service
                        metadata: {name: lb, %s}
                        spec:
                          type: LoadBalancer
                          clusterIPs: [10.96.0.30]
                          externalIPs: [198.51.100.9]
                          ports: [{port: 443, nodePort: 31443, protocol: TCP}]
                        status:
                          loadBalancer:
                            ingress: [{ip: 203.0.113.20}, {hostname: a1b2c3d4e5f6.elb.example.com}, {ip: 203.0.113.10}, {ip: 203.0.113.10}]
                        """.formatted(CREATED),
                        "Name, Type, Cluster-IP, External-IP, Port(s), Age, Selector*", """
                        ["lb","LoadBalancer","10.96.0.30","203.0.113.10,203.0.113.20,a1b2c3d4e5f6.elb.example.com,198.51.100.9","443:31443/TCP","3h","<none>"]"""),
                arguments("service, ExternalName", "", "services", """
                        apiVersion: v1
                        kind: Service
                        metadata: {name: search, %s}
                        spec: {type: ExternalName, externalName: search.example.com}
                        """.formatted(CREATED),
                        "Name, Type, Cluster-IP, External-IP, Port(s), Age, Selector*", """
                        ["search","ExternalName","<none>","search.example.com","<none>","3h","<none>"]"""),
                arguments("configmap", "", "configmaps", """
                        apiVersion: v1
                        kind: ConfigMap
                        metadata: {name: settings, %s}
                        data: {a: "1", b: "2"}
                        binaryData: {logo.png: iVBORw0KGgo=}
                        """.formatted(CREATED),
                        "Name, Data, Age", """
                        ["settings",3,"3h"]"""),
                arguments("secret", "", "secrets", """
                        apiVersion: v1
                        kind: Secret
                        metadata: {name: tls, %s}
                        type: kubernetes.io/tls
                        data: {tls.crt: LS0t, tls.key: LS0t}
                        """.formatted(CREATED),
                        "Name, Type, Data, Age", """
                        ["tls","kubernetes.io/tls",2,"3h"]"""),
                arguments("serviceaccount", "", "serviceaccounts", """
                        apiVersion: v1
                        kind: ServiceAccount
                        metadata: {name: default, %s}
                        """.formatted(CREATED),
                        "Name, Secrets, Age", """
                        ["default",0,"3h"]"""),
                arguments("persistentvolumeclaim, bound", "", "persistentvolumeclaims", """
                        apiVersion: v1
                        kind: PersistentVolumeClaim
                        metadata: {name: data, %s}
                        spec:
                          accessModes: [ReadWriteOnce]
                          resources: {requests: {storage: 5Gi}}
                          storageClassName: standard
                          volumeName: pvc-0d9f
                          volumeMode: Filesystem
                        status: {phase: Bound, accessModes: [ReadWriteOnce, ReadWriteOncePod], capacity: {storage: 8Gi}}
                        """.formatted(CREATED),
                        "Name, Status, Volume, Capacity, Access Modes, StorageClass, VolumeAttributesClass, Age, VolumeMode*", """
                        ["data","Bound","pvc-0d9f","8Gi","RWO,RWOP","standard","<unset>","3h","Filesystem"]"""),
                arguments("persistentvolumeclaim, pending and being deleted, beta class annotation", "", "persistentvolumeclaims", """
                        apiVersion: v1
                        kind: PersistentVolumeClaim
                        metadata:
                          name: scratch
                          %s
                          deletionTimestamp: "2025-06-01T11:00:00Z"
                          annotations: {volume.beta.kubernetes.io/storage-class: legacy}
                        spec: {accessModes: [ReadWriteMany], resources: {requests: {storage: 1Gi}}, storageClassName: standard}
                        status: {phase: Pending}
                        """.formatted(CREATED),
                        "Name, Status, Volume, Capacity, Access Modes, StorageClass, VolumeAttributesClass, Age, VolumeMode*", """
                        ["scratch","Terminating","","","","legacy","<unset>","3h","<unset>"]"""),
                arguments("persistentvolume", "", "persistentvolumes", """
                        apiVersion: v1
                        kind: PersistentVolume
                        metadata: {name: pvc-0d9f, %s}
                        spec:
                          capacity: {storage: 8Gi}
                          accessModes: [ReadWriteMany, ReadOnlyMany, ReadWriteOnce, ReadWriteOnce]
                          persistentVolumeReclaimPolicy: Delete
                          storageClassName: standard
                          volumeMode: Block
                          volumeAttributesClassName: gold
                          claimRef: {kind: PersistentVolumeClaim, namespace: shop, name: data}
                        status: {phase: Bound}
                        """.formatted(CREATED),
                        "Name, Capacity, Access Modes, Reclaim Policy, Status, Claim, StorageClass, VolumeAttributesClass, Reason, Age, VolumeMode*", """
                        ["pvc-0d9f","8Gi","RWO,ROX,RWX","Delete","Bound","shop/data","standard","gold","","3h","Block"]"""),
                arguments("persistentvolume, failed and unclaimed", "", "persistentvolumes", """
                        apiVersion: v1
                        kind: PersistentVolume
                        metadata: {name: old, %s}
                        spec: {persistentVolumeReclaimPolicy: Recycle}
                        status: {phase: Failed, reason: RecycleFailed}
                        """.formatted(CREATED),
                        "Name, Capacity, Access Modes, Reclaim Policy, Status, Claim, StorageClass, VolumeAttributesClass, Reason, Age, VolumeMode*", """
                        ["old","0","","Recycle","Failed","","","<unset>","RecycleFailed","3h","<unset>"]"""),
                arguments("storageclass, default", "storage.k8s.io", "storageclasses", """
                        apiVersion: storage.k8s.io/v1
                        kind: StorageClass
                        metadata:
                          name: standard
                          %s
                          annotations: {storageclass.kubernetes.io/is-default-class: "true"}
                        provisioner: rancher.io/local-path
                        reclaimPolicy: Retain
                        volumeBindingMode: WaitForFirstConsumer
                        allowVolumeExpansion: true
                        """.formatted(CREATED),
                        "Name, Provisioner, ReclaimPolicy, VolumeBindingMode, AllowVolumeExpansion, Age", """
                        ["standard (default)","rancher.io/local-path","Retain","WaitForFirstConsumer",true,"3h"]"""),
                arguments("storageclass, API defaults", "storage.k8s.io", "storageclasses", """
                        apiVersion: storage.k8s.io/v1
                        kind: StorageClass
                        metadata: {name: fast, %s}
                        provisioner: ebs.csi.aws.com
                        """.formatted(CREATED),
                        "Name, Provisioner, ReclaimPolicy, VolumeBindingMode, AllowVolumeExpansion, Age", """
                        ["fast","ebs.csi.aws.com","Delete","Immediate",false,"3h"]"""),
                arguments("daemonset", "apps", "daemonsets", """
                        apiVersion: apps/v1
                        kind: DaemonSet
                        metadata: {name: kube-proxy, namespace: kube-system, %s}
                        spec:
                          selector: {matchLabels: {k8s-app: kube-proxy}}
                          template:
                            spec:
                              nodeSelector: {kubernetes.io/os: linux}
                              containers: [{name: kube-proxy, image: "registry.k8s.io/kube-proxy:v1.32.2"}]
                        status: {desiredNumberScheduled: 3, currentNumberScheduled: 3, numberReady: 2, updatedNumberScheduled: 3, numberAvailable: 2}
                        """.formatted(CREATED),
                        "Name, Desired, Current, Ready, Up-to-date, Available, Node Selector, Age, Containers*, Images*, Selector*", """
                        ["kube-proxy",3,3,2,3,2,"kubernetes.io/os=linux","3h","kube-proxy","registry.k8s.io/kube-proxy:v1.32.2","k8s-app=kube-proxy"]"""),
                arguments("deployment", "apps", "deployments", """
                        apiVersion: apps/v1
                        kind: Deployment
                        metadata: {name: web, %s}
                        spec:
                          replicas: 3
                          selector:
                            matchLabels: {app: web}
                            matchExpressions:
                            - {key: tier, operator: In, values: [frontend, edge]}
                            - {key: canary, operator: DoesNotExist}
                            - {key: zone, operator: NotIn, values: [b]}
                            - {key: arch, operator: Exists}
                          template:
                            spec:
                              containers: [{name: nginx, image: "nginx:1.27"}, {name: exporter, image: "nginx/exporter:1.4"}]
                        status: {replicas: 3, updatedReplicas: 3, readyReplicas: 2, availableReplicas: 2}
                        """.formatted(CREATED),
                        "Name, Ready, Up-to-date, Available, Age, Containers*, Images*, Selector*", """
                        ["web","2/3",3,2,"3h","nginx,exporter","nginx:1.27,nginx/exporter:1.4",
                         "app=web,arch,!canary,tier in (edge,frontend),zone notin (b)"]"""),
                arguments("deployment, replicas defaulted, no status yet", "apps", "deployments", """
                        apiVersion: apps/v1
                        kind: Deployment
                        metadata: {name: new, %s}
                        spec:
                          selector: {}
                          template: {spec: {containers: [{name: app, image: "app:1"}]}}
                        """.formatted(CREATED),
                        "Name, Ready, Up-to-date, Available, Age, Containers*, Images*, Selector*", """
                        ["new","0/1",0,0,"3h","app","app:1",""]"""),
                arguments("replicaset", "apps", "replicasets", """
                        apiVersion: apps/v1
                        kind: ReplicaSet
                        metadata: {name: web-7d4b9c, %s}
                        spec:
                          replicas: 3
                          selector: {matchLabels: {app: web, pod-template-hash: 7d4b9c}}
                          template: {spec: {containers: [{name: nginx, image: "nginx:1.27"}]}}
                        status: {replicas: 3, readyReplicas: 1}
                        """.formatted(CREATED),
                        "Name, Desired, Current, Ready, Age, Containers*, Images*, Selector*", """
                        ["web-7d4b9c",3,3,1,"3h","nginx","nginx:1.27","app=web,pod-template-hash=7d4b9c"]"""),
                arguments("replicaset, scaled to zero with an empty selector", "apps", "replicasets", """
                        apiVersion: apps/v1
                        kind: ReplicaSet
                        metadata: {name: old, %s}
                        spec: {replicas: 0, selector: {}, template: {spec: {containers: []}}}
                        """.formatted(CREATED),
                        "Name, Desired, Current, Ready, Age, Containers*, Images*, Selector*", """
                        ["old",0,0,0,"3h","","","<none>"]"""),
                arguments("statefulset", "apps", "statefulsets", """
                        apiVersion: apps/v1
                        kind: StatefulSet
                        metadata: {name: db, %s}
                        spec:
                          replicas: 3
                          serviceName: db
                          selector: {matchLabels: {app: db}}
                          template: {spec: {containers: [{name: postgres, image: "postgres:17"}]}}
                        status: {replicas: 3, readyReplicas: 3}
                        """.formatted(CREATED),
                        "Name, Ready, Age, Containers*, Images*", """
                        ["db","3/3","3h","postgres","postgres:17"]"""),
                arguments("poddisruptionbudget, minAvailable", "policy", "poddisruptionbudgets", """
                        apiVersion: policy/v1
                        kind: PodDisruptionBudget
                        metadata: {name: web, %s}
                        spec: {minAvailable: 2, selector: {matchLabels: {app: web}}}
                        status: {disruptionsAllowed: 1, currentHealthy: 3, desiredHealthy: 2, expectedPods: 3}
                        """.formatted(CREATED),
                        "Name, Min Available, Max Unavailable, Allowed Disruptions, Age", """
                        ["web","2","N/A",1,"3h"]"""),
                arguments("poddisruptionbudget, maxUnavailable percentage", "policy", "poddisruptionbudgets", """
                        apiVersion: policy/v1
                        kind: PodDisruptionBudget
                        metadata: {name: db, %s}
                        spec: {maxUnavailable: "25%%", selector: {matchLabels: {app: db}}}
                        """.formatted(CREATED),
                        "Name, Min Available, Max Unavailable, Allowed Disruptions, Age", """
                        ["db","N/A","25%",0,"3h"]"""),
                arguments("lease", "coordination.k8s.io", "leases", """
                        apiVersion: coordination.k8s.io/v1
                        kind: Lease
                        metadata: {name: kube-scheduler, namespace: kube-system, %s}
                        spec: {holderIdentity: "cp-1_6f1c2d3e", leaseDurationSeconds: 15}
                        """.formatted(CREATED),
                        "Name, Holder, Age", """
                        ["kube-scheduler","cp-1_6f1c2d3e","3h"]"""),
                arguments("lease without holder", "coordination.k8s.io", "leases", """
                        apiVersion: coordination.k8s.io/v1
                        kind: Lease
                        metadata: {name: free, %s}
                        spec: {}
                        """.formatted(CREATED),
                        "Name, Holder, Age", """
                        ["free","","3h"]"""),
                arguments("customresourcedefinition", "apiextensions.k8s.io", "customresourcedefinitions", """
                        apiVersion: apiextensions.k8s.io/v1
                        kind: CustomResourceDefinition
                        metadata: {name: widgets.example.com, creationTimestamp: "2025-05-02T08:30:15Z"}
                        spec: {group: example.com, names: {plural: widgets, kind: Widget}, scope: Namespaced}
                        """,
                        "Name, Created At", """
                        ["widgets.example.com","2025-05-02T08:30:15Z"]"""),
                arguments("validatingwebhookconfiguration", "admissionregistration.k8s.io", "validatingwebhookconfigurations", """
                        apiVersion: admissionregistration.k8s.io/v1
                        kind: ValidatingWebhookConfiguration
                        metadata: {name: policy, %s}
                        webhooks: [{name: a.example.com}, {name: b.example.com}]
                        """.formatted(CREATED),
                        "Name, Webhooks, Age", """
                        ["policy",2,"3h"]"""),
                arguments("mutatingwebhookconfiguration", "admissionregistration.k8s.io", "mutatingwebhookconfigurations", """
                        apiVersion: admissionregistration.k8s.io/v1
                        kind: MutatingWebhookConfiguration
                        metadata: {name: inject, %s}
                        webhooks: [{name: sidecar.example.com}]
                        """.formatted(CREATED),
                        "Name, Webhooks, Age", """
                        ["inject",1,"3h"]"""),
                arguments("resource without a printer", "rbac.authorization.k8s.io", "roles", """
                        apiVersion: rbac.authorization.k8s.io/v1
                        kind: Role
                        metadata: {name: reader, %s}
                        rules: []
                        """.formatted(CREATED),
                        "Name, Age", """
                        ["reader","3h"]"""),
                arguments("object without a creation time", "", "configmaps", """
                        apiVersion: v1
                        kind: ConfigMap
                        metadata: {name: draft}
                        """,
                        "Name, Data, Age", """
                        ["draft",0,"<unknown>"]"""));
    }
}
