package dev.drainboard.cluster.apiserver.patch;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.assertj.core.api.Assertions.assertThat;

/** Spot checks of the built-in schemas against the struct tags of k8s.io/api. */
class PatchSchemasTest {

    @ParameterizedTest(name = "{1} {2}: {3} {4}")
    @CsvSource(delimiter = '|', nullValues = "-", textBlock = """
            v1                               | Pod                            | metadata.finalizers                                  | MERGE_PRIMITIVES | -
            v1                               | Pod                            | metadata.ownerReferences                             | MERGE_BY_KEY     | uid
            v1                               | Pod                            | metadata.managedFields                               | ATOMIC           | -
            v1                               | Pod                            | spec.containers                                      | MERGE_BY_KEY     | name
            v1                               | Pod                            | spec.initContainers                                  | MERGE_BY_KEY     | name
            v1                               | Pod                            | spec.ephemeralContainers                             | MERGE_BY_KEY     | name
            v1                               | Pod                            | spec.containers[*].ports                             | MERGE_BY_KEY     | containerPort
            v1                               | Pod                            | spec.containers[*].env                               | MERGE_BY_KEY     | name
            v1                               | Pod                            | spec.containers[*].volumeMounts                      | MERGE_BY_KEY     | mountPath
            v1                               | Pod                            | spec.containers[*].volumeDevices                     | MERGE_BY_KEY     | devicePath
            v1                               | Pod                            | spec.containers[*].envFrom                           | ATOMIC           | -
            v1                               | Pod                            | spec.containers[*].args                              | ATOMIC           | -
            v1                               | Pod                            | spec.initContainers[*].env                           | MERGE_BY_KEY     | name
            v1                               | Pod                            | spec.volumes                                         | MERGE_BY_KEY     | name
            v1                               | Pod                            | spec.imagePullSecrets                                | MERGE_BY_KEY     | name
            v1                               | Pod                            | spec.hostAliases                                     | MERGE_BY_KEY     | ip
            v1                               | Pod                            | spec.topologySpreadConstraints                       | MERGE_BY_KEY     | topologyKey
            v1                               | Pod                            | spec.schedulingGates                                 | MERGE_BY_KEY     | name
            v1                               | Pod                            | spec.resourceClaims                                  | MERGE_BY_KEY     | name
            v1                               | Pod                            | spec.tolerations                                     | ATOMIC           | -
            v1                               | Pod                            | spec.readinessGates                                  | ATOMIC           | -
            v1                               | Pod                            | status.conditions                                    | MERGE_BY_KEY     | type
            v1                               | Pod                            | status.podIPs                                        | MERGE_BY_KEY     | ip
            v1                               | Pod                            | status.hostIPs                                       | MERGE_BY_KEY     | ip
            v1                               | Pod                            | status.containerStatuses                             | ATOMIC           | -
            v1                               | Node                           | spec.taints                                          | ATOMIC           | -
            v1                               | Node                           | spec.podCIDRs                                        | MERGE_PRIMITIVES | -
            v1                               | Node                           | status.conditions                                    | MERGE_BY_KEY     | type
            v1                               | Node                           | status.addresses                                     | MERGE_BY_KEY     | type
            v1                               | Node                           | status.images                                        | ATOMIC           | -
            v1                               | Namespace                      | spec.finalizers                                      | ATOMIC           | -
            v1                               | Namespace                      | status.conditions                                    | MERGE_BY_KEY     | type
            v1                               | Service                        | spec.ports                                           | MERGE_BY_KEY     | port
            v1                               | Service                        | status.conditions                                    | MERGE_BY_KEY     | type
            v1                               | Service                        | status.loadBalancer.ingress                          | ATOMIC           | -
            v1                               | PersistentVolumeClaim          | status.conditions                                    | MERGE_BY_KEY     | type
            v1                               | PersistentVolumeClaim          | spec.accessModes                                     | ATOMIC           | -
            v1                               | PersistentVolume               | spec.mountOptions                                    | ATOMIC           | -
            v1                               | Secret                         | metadata.finalizers                                  | MERGE_PRIMITIVES | -
            events.k8s.io/v1                 | Event                          | metadata.ownerReferences                             | MERGE_BY_KEY     | uid
            apps/v1                          | Deployment                     | spec.template.spec.containers                        | MERGE_BY_KEY     | name
            apps/v1                          | Deployment                     | spec.template.spec.containers[*].env                 | MERGE_BY_KEY     | name
            apps/v1                          | Deployment                     | spec.template.metadata.finalizers                    | MERGE_PRIMITIVES | -
            apps/v1                          | Deployment                     | spec.template.spec.tolerations                       | ATOMIC           | -
            apps/v1                          | Deployment                     | status.conditions                                    | MERGE_BY_KEY     | type
            apps/v1                          | DaemonSet                      | spec.template.spec.volumes                           | MERGE_BY_KEY     | name
            apps/v1                          | DaemonSet                      | status.conditions                                    | MERGE_BY_KEY     | type
            apps/v1                          | ReplicaSet                     | spec.template.metadata.ownerReferences               | MERGE_BY_KEY     | uid
            apps/v1                          | ReplicaSet                     | status.conditions                                    | MERGE_BY_KEY     | type
            apps/v1                          | StatefulSet                    | spec.template.spec.initContainers[*].volumeMounts    | MERGE_BY_KEY     | mountPath
            apps/v1                          | StatefulSet                    | spec.volumeClaimTemplates                            | ATOMIC           | -
            apps/v1                          | StatefulSet                    | status.conditions                                    | MERGE_BY_KEY     | type
            policy/v1                        | PodDisruptionBudget            | status.conditions                                    | MERGE_BY_KEY     | type
            coordination.k8s.io/v1           | Lease                          | metadata.finalizers                                  | MERGE_PRIMITIVES | -
            apiextensions.k8s.io/v1          | CustomResourceDefinition       | spec.versions                                        | ATOMIC           | -
            apiextensions.k8s.io/v1          | CustomResourceDefinition       | status.conditions                                    | ATOMIC           | -
            admissionregistration.k8s.io/v1  | ValidatingWebhookConfiguration | webhooks                                             | MERGE_BY_KEY     | name
            admissionregistration.k8s.io/v1  | MutatingWebhookConfiguration   | webhooks                                             | MERGE_BY_KEY     | name
            example.com/v1                   | Widget                         | spec.items                                           | ATOMIC           | -
            example.com/v1                   | Widget                         | status.conditions                                    | ATOMIC           | -
            example.com/v1                   | Widget                         | metadata.finalizers                                  | MERGE_PRIMITIVES | -
            example.com/v1                   | Widget                         | metadata.ownerReferences                             | MERGE_BY_KEY     | uid
            example.com/v1                   | Pod                            | spec.containers                                      | ATOMIC           | -
            """)
    void describesListsAsTheStructTagsDo(String apiVersion, String kind, String path, ListStrategy.Kind expectedKind, String mergeKey) {
        ListStrategy strategy = PatchSchemas.forKind(apiVersion, kind).listAt(path);
        assertThat(strategy.kind()).isEqualTo(expectedKind);
        assertThat(strategy.mergeKey()).isEqualTo(mergeKey);
    }

    @ParameterizedTest(name = "{1} {2}: {3}")
    @CsvSource(delimiter = '|', textBlock = """
            v1      | Pod        | spec.volumes[*]                        | true
            v1      | Pod        | spec.resourceClaims[*]                 | true
            v1      | Pod        | status.resourceClaimStatuses[*]        | true
            v1      | Pod        | spec.containers[*]                     | false
            v1      | Pod        | spec.securityContext                   | false
            apps/v1 | Deployment | spec.strategy                          | true
            apps/v1 | Deployment | spec.template.spec.volumes[*]          | true
            apps/v1 | DaemonSet  | spec.updateStrategy                    | false
            """)
    void knowsWhichMapsRetainKeys(String apiVersion, String kind, String path, boolean retainsKeys) {
        assertThat(PatchSchemas.forKind(apiVersion, kind).retainsKeys(path)).isEqualTo(retainsKeys);
    }

    @ParameterizedTest(name = "{0}: {1}")
    @CsvSource(delimiter = '|', textBlock = """
            spec.ports                            | port,protocol
            spec.template.spec.containers[*].ports | containerPort,protocol
            """)
    void givesServerSideApplyTheFullListMapKey(String path, String keys) {
        PatchSchema schema = path.startsWith("spec.template") ? PatchSchemas.forKind("apps/v1", "Deployment") : PatchSchemas.forKind("v1", "Service");
        assertThat(String.join(",", schema.listAt(path).listMapKeys())).isEqualTo(keys);
        assertThat(schema.listAt(path).keyDefaults()).containsEntry("protocol", "TCP");
    }
}
