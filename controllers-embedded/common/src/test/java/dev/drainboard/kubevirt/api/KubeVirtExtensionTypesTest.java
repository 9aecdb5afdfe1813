package dev.drainboard.kubevirt.api;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.client.utils.Serialization;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** KubeVirt's newer kinds: their API coordinates, and objects read and written back unchanged. */
class KubeVirtExtensionTypesTest {

    @ParameterizedTest
    @CsvSource({
            "dev.drainboard.kubevirt.api.VirtualMachineInstancetype,        instancetype.kubevirt.io/v1beta1, virtualmachineinstancetypes,        true",
            "dev.drainboard.kubevirt.api.VirtualMachineClusterInstancetype, instancetype.kubevirt.io/v1beta1, virtualmachineclusterinstancetypes, false",
            "dev.drainboard.kubevirt.api.VirtualMachinePreference,          instancetype.kubevirt.io/v1beta1, virtualmachinepreferences,          true",
            "dev.drainboard.kubevirt.api.VirtualMachineClusterPreference,   instancetype.kubevirt.io/v1beta1, virtualmachineclusterpreferences,   false",
            "dev.drainboard.kubevirt.api.MigrationPolicy,                   migrations.kubevirt.io/v1alpha1,  migrationpolicies,                  false",
            "dev.drainboard.kubevirt.api.VirtualMachinePool,                pool.kubevirt.io/v1alpha1,        virtualmachinepools,                true",
    })
    void apiCoordinates(String type, String apiVersion, String plural, boolean namespaced) throws Exception {
        Class<? extends HasMetadata> kind = Class.forName(type).asSubclass(HasMetadata.class);
        assertThat(HasMetadata.getApiVersion(kind)).isEqualTo(apiVersion);
        assertThat(HasMetadata.getPlural(kind)).isEqualTo(plural);
        assertThat(Namespaced.class.isAssignableFrom(kind)).isEqualTo(namespaced);
    }

    private static void roundTrips(String yaml, Class<? extends HasMetadata> type) {
        JsonNode before = Serialization.unmarshal(yaml, JsonNode.class);
        HasMetadata read = Serialization.unmarshal(yaml, type);
        // Same tree (field order aside: Jackson writes modelled fields first).
        assertThat(Serialization.unmarshal(Serialization.asJson(read), JsonNode.class)).isEqualTo(before);
    }

    @Test
    void aPoolReadAndWrittenBackIsTheSame() {
        roundTrips("""
                apiVersion: pool.kubevirt.io/v1alpha1
                kind: VirtualMachinePool
                metadata: {name: web, namespace: default}
                spec:
                  replicas: 3
                  selector: {matchLabels: {pool: web}}
                  scaleInStrategy: {proactive: {selectionPolicy: {sortPolicy: Oldest}}}
                  virtualMachineTemplate:
                    metadata: {labels: {pool: web}}
                    spec:
                      runStrategy: Always
                      instancetype: {name: u1.medium}
                      preference: {name: fedora, kind: VirtualMachinePreference}
                      template: {spec: {domain: {devices: {}}}}
                status: {replicas: 3, readyReplicas: 2, labelSelector: pool=web}
                """, VirtualMachinePool.class);
    }

    @Test
    void aPolicyAndAnInstancetypeReadAndWrittenBackAreTheSame() {
        roundTrips("""
                apiVersion: migrations.kubevirt.io/v1alpha1
                kind: MigrationPolicy
                metadata: {name: slow}
                spec:
                  selectors: {namespaceSelector: {team: a}, virtualMachineInstanceSelector: {app: db}}
                  bandwidthPerMigration: 64Mi
                  completionTimeoutPerGiB: 20
                  allowAutoConverge: true
                  allowPostCopy: false
                """, MigrationPolicy.class);
        roundTrips("""
                apiVersion: instancetype.kubevirt.io/v1beta1
                kind: VirtualMachineClusterInstancetype
                metadata: {name: u1.medium}
                spec: {cpu: {guest: 1, model: host-passthrough}, memory: {guest: 4Gi, overcommitPercent: 10}, annotations: {a: b}}
                """, VirtualMachineClusterInstancetype.class);
    }
}
