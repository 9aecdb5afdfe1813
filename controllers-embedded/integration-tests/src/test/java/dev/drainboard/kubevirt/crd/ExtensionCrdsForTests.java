package dev.drainboard.kubevirt.crd;

import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.utils.Serialization;

import java.time.Duration;

import static org.awaitility.Awaitility.await;

/**
 * Minimal CRDs of KubeVirt's instancetype.kubevirt.io, migrations.kubevirt.io and pool.kubevirt.io kinds for tests
 * (schemas that keep every field; the pool's status and scale subresources), installed through the API. An existing
 * CRD (once the full manifests ship with {@link KubeVirtCrds}) is left as it is.
 */
public final class ExtensionCrdsForTests {

    private static final String CRD = """
            apiVersion: apiextensions.k8s.io/v1
            kind: CustomResourceDefinition
            metadata: {name: %s.%s}
            spec:
              group: %s
              scope: %s
              names: {kind: %s, listKind: %sList, plural: %s, singular: %s, shortNames: [%s]}
              versions:
                - name: %s
                  served: true
                  storage: true
                  schema: {openAPIV3Schema: {type: object, x-kubernetes-preserve-unknown-fields: true}}
            %s
            """;
    private static final String POOL_SUBRESOURCES = """
                  subresources:
                    status: {}
                    scale: {specReplicasPath: .spec.replicas, statusReplicasPath: .status.replicas, labelSelectorPath: .status.labelSelector}
            """;

    private ExtensionCrdsForTests() {
    }

    /** Installs the instance type, preference, migration policy and pool CRDs and waits until each is served. */
    public static void install(KubernetesClient client) {
        String it = "instancetype.kubevirt.io";
        crd(client, it, "Namespaced", "VirtualMachineInstancetype", "virtualmachineinstancetypes", "vminstancetype, vmf", "v1beta1", "");
        crd(client, it, "Cluster", "VirtualMachineClusterInstancetype", "virtualmachineclusterinstancetypes", "vmclusterinstancetype, vmcf", "v1beta1", "");
        crd(client, it, "Namespaced", "VirtualMachinePreference", "virtualmachinepreferences", "vmpref, vmp", "v1beta1", "");
        crd(client, it, "Cluster", "VirtualMachineClusterPreference", "virtualmachineclusterpreferences", "vmcp", "v1beta1", "");
        crd(client, "migrations.kubevirt.io", "Cluster", "MigrationPolicy", "migrationpolicies", "migrationpolicy", "v1alpha1", "");
        crd(client, "pool.kubevirt.io", "Namespaced", "VirtualMachinePool", "virtualmachinepools", "vmpool, vmpools", "v1alpha1", POOL_SUBRESOURCES);
    }

    private static void crd(KubernetesClient client, String group, String scope, String kind, String plural, String shortNames,
                            String version, String subresources) {
        String singular = kind.toLowerCase(java.util.Locale.ROOT);
        CustomResourceDefinition crd = Serialization.unmarshal(CRD.formatted(plural, group, group, scope, kind, kind, plural,
                singular, shortNames, version, subresources), CustomResourceDefinition.class);
        try {
            client.apiextensions().v1().customResourceDefinitions().resource(crd).create();
        } catch (KubernetesClientException e) {
            if (e.getCode() != 409) {
                throw e;
            }
        }
        String path = "/apis/" + group + "/" + version + "/" + plural;
        await().atMost(Duration.ofSeconds(30)).ignoreExceptions()
                .until(() -> client.raw(path) != null);
    }
}
