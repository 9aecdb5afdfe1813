package dev.drainboard.cluster.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import dev.drainboard.testing.RequiresKubectl;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * KubeVirt's whole API as an operator meets it with kubectl: every kind KubeVirt installs can be applied, a misspelled
 * field is refused with kube-apiserver's words, {@code kubectl explain} knows KubeVirt's fields, and the deprecated
 * kubevirt.io/v1alpha3 is served with its warning.
 */
@DisplayName("kubectl and KubeVirt's API")
@RequiresKubectl
class KubectlKubeVirtApiTest {

    @TempDir
    static Path workDir;

    private static E2eCluster e2e;
    private static Kubectl kubectl;

    @BeforeAll
    static void start() throws Exception {
        e2e = E2eCluster.startWithKubectl(null, workDir);
        kubectl = e2e.kubectl();
    }

    @AfterAll
    static void stop() {
        if (e2e != null) {
            e2e.close();
        }
    }

    @Test
    @DisplayName("one manifest of every kind KubeVirt installs is applied as on a real cluster")
    void everyKindApplies() {
        var result = kubectl.apply("""
                apiVersion: instancetype.kubevirt.io/v1beta1
                kind: VirtualMachineInstancetype
                metadata: {name: u1.medium, namespace: default}
                spec:
                  cpu: {guest: 1}
                  memory: {guest: 4Gi}
                ---
                apiVersion: instancetype.kubevirt.io/v1beta1
                kind: VirtualMachineClusterInstancetype
                metadata: {name: cx1.large}
                spec:
                  cpu: {guest: 2, dedicatedCPUPlacement: true}
                  memory: {guest: 4Gi}
                ---
                apiVersion: instancetype.kubevirt.io/v1beta1
                kind: VirtualMachinePreference
                metadata: {name: fedora, namespace: default}
                spec:
                  devices: {preferredDiskBus: virtio}
                ---
                apiVersion: instancetype.kubevirt.io/v1beta1
                kind: VirtualMachineClusterPreference
                metadata: {name: windows.2k22}
                spec:
                  firmware: {preferredUseEfi: true}
                ---
                apiVersion: pool.kubevirt.io/v1beta1
                kind: VirtualMachinePool
                metadata: {name: web, namespace: default}
                spec:
                  replicas: 2
                  selector: {matchLabels: {app: web}}
                  virtualMachineTemplate:
                    metadata: {labels: {app: web}}
                    spec:
                      runStrategy: Halted
                      template:
                        metadata: {labels: {app: web}}
                        spec:
                          domain: {devices: {}, resources: {requests: {memory: 1Gi}}}
                ---
                apiVersion: migrations.kubevirt.io/v1alpha1
                kind: MigrationPolicy
                metadata: {name: fast-lane}
                spec:
                  allowAutoConverge: true
                  bandwidthPerMigration: 1Gi
                  completionTimeoutPerGiB: 60
                  selectors:
                    namespaceSelector: {tier: gold}
                ---
                apiVersion: kubevirt.io/v1
                kind: VirtualMachineInstancePreset
                metadata: {name: small, namespace: default}
                spec:
                  selector: {matchLabels: {size: small}}
                  domain:
                    devices: {}
                    resources: {requests: {memory: 512Mi}}
                ---
                apiVersion: snapshot.kubevirt.io/v1beta1
                kind: VirtualMachineSnapshot
                metadata: {name: db-before-upgrade, namespace: default}
                spec:
                  source: {apiGroup: kubevirt.io, kind: VirtualMachine, name: db}
                ---
                apiVersion: snapshot.kubevirt.io/v1beta1
                kind: VirtualMachineRestore
                metadata: {name: db-restore, namespace: default}
                spec:
                  target: {apiGroup: kubevirt.io, kind: VirtualMachine, name: db}
                  virtualMachineSnapshotName: db-before-upgrade
                ---
                apiVersion: export.kubevirt.io/v1
                kind: VirtualMachineExport
                metadata: {name: db-export, namespace: default}
                spec:
                  source: {apiGroup: kubevirt.io, kind: VirtualMachine, name: db}
                ---
                apiVersion: clone.kubevirt.io/v1beta1
                kind: VirtualMachineClone
                metadata: {name: db-clone, namespace: default}
                spec:
                  source: {apiGroup: kubevirt.io, kind: VirtualMachine, name: db}
                  target: {apiGroup: kubevirt.io, kind: VirtualMachine, name: db-copy}
                """);

        assertThat(result.stdout().lines().toList()).containsExactly(
                "virtualmachineinstancetype.instancetype.kubevirt.io/u1.medium created",
                "virtualmachineclusterinstancetype.instancetype.kubevirt.io/cx1.large created",
                "virtualmachinepreference.instancetype.kubevirt.io/fedora created",
                "virtualmachineclusterpreference.instancetype.kubevirt.io/windows.2k22 created",
                "virtualmachinepool.pool.kubevirt.io/web created",
                "migrationpolicy.migrations.kubevirt.io/fast-lane created",
                "virtualmachineinstancepreset.kubevirt.io/small created",
                "virtualmachinesnapshot.snapshot.kubevirt.io/db-before-upgrade created",
                "virtualmachinerestore.snapshot.kubevirt.io/db-restore created",
                "virtualmachineexport.export.kubevirt.io/db-export created",
                "virtualmachineclone.clone.kubevirt.io/db-clone created");
        // Presets are deprecated in every version KubeVirt serves.
        assertThat(result.stderr()).contains(
                "Warning: kubevirt.io/v1 VirtualMachineInstancePresets is now deprecated and will be removed in v2.");

        // The new kinds' printer columns and short names.
        assertThat(header(kubectl.succeed("get", "vmpool", "-n", "default").stdout()))
                .containsExactly("NAME", "DESIRED", "CURRENT", "READY", "AGE");
        assertThat(kubectl.succeed("get", "vmpool", "-n", "default").stdout()).containsPattern("web\\s+2\\s+");
        assertThat(header(kubectl.succeed("get", "vmsnapshot", "-n", "default").stdout()))
                .containsExactly("NAME", "SOURCEKIND", "SOURCENAME", "PHASE", "READYTOUSE", "CREATIONTIME", "ERROR");
        assertThat(kubectl.succeed("get", "vmsnapshot", "-n", "default").stdout())
                .containsPattern("db-before-upgrade\\s+VirtualMachine\\s+db");
        assertThat(header(kubectl.succeed("get", "vmclone", "-n", "default").stdout()))
                .containsExactly("NAME", "PHASE", "SOURCEVIRTUALMACHINE", "TARGETVIRTUALMACHINE");
        assertThat(header(kubectl.succeed("get", "vmexport", "-n", "default").stdout()))
                .containsExactly("NAME", "SOURCEKIND", "SOURCENAME", "PHASE");
        assertThat(kubectl.succeed("get", "vmcf", "-o", "name").stdout())
                .isEqualTo("virtualmachineclusterinstancetype.instancetype.kubevirt.io/cx1.large\n");
        assertThat(kubectl.succeed("get", "migrationpolicies", "-o", "jsonpath={.items[0].spec.bandwidthPerMigration}").stdout())
                .isEqualTo("1Gi");
    }

    @Test
    @DisplayName("a misspelled field is refused with kube-apiserver's strict decoding error")
    void misspelledFieldRefused() {
        var created = kubectl.runWithInput(vmi("typo", "domian"), "apply", "-f", "-");

        assertThat(created.exitCode()).as(created.describe()).isEqualTo(1);
        assertThat(created.stderr()).contains("Error from server (BadRequest): error when creating \"STDIN\": "
                + "VirtualMachineInstance in version \"v1\" cannot be handled as a VirtualMachineInstance: "
                + "strict decoding error: unknown field \"spec.domian\"");
        assertThat(kubectl.run("get", "vmi", "typo", "-n", "default").exitCode()).isEqualTo(1);

        // On an existing object kubectl sends a patch: the same refusal, in patch words.
        kubectl.apply(vmi("typo", "domain"));
        var patched = kubectl.runWithInput(vmi("typo", "domain").replace("evictionStrategy", "evictionStrategi"),
                "apply", "-f", "-");
        assertThat(patched.exitCode()).as(patched.describe()).isEqualTo(1);
        assertThat(patched.stderr()).contains("strict decoding error: unknown field \"spec.evictionStrategi\"");

        // --validate=warn: kept out of the object, and said.
        var warned = kubectl.runWithInput(vmi("warned", "domain").replace("evictionStrategy", "evictionStrategi"),
                "apply", "--validate=warn", "-f", "-");
        assertThat(warned.exitCode()).as(warned.describe()).isZero();
        assertThat(warned.stderr()).contains("Warning: unknown field \"spec.evictionStrategi\"");
        assertThat(kubectl.succeed("get", "vmi", "warned", "-n", "default", "-o", "jsonpath={.spec}").stdout())
                .doesNotContain("evictionStrategi");
    }

    @Test
    @DisplayName("a value of the wrong type is refused with the schema's 422")
    void wrongTypeRefused() {
        var result = kubectl.runWithInput(vmi("wrong-type", "domain").replace("LiveMigrate", "[1]"), "apply", "-f", "-");

        assertThat(result.exitCode()).as(result.describe()).isEqualTo(1);
        assertThat(result.stderr()).contains("The VirtualMachineInstance \"wrong-type\" is invalid: spec.evictionStrategy: "
                + "Invalid value: \"array\": spec.evictionStrategy in body must be of type string: \"array\"");
    }

    @Test
    @DisplayName("kubectl explain knows KubeVirt's fields")
    void explain() {
        String vmiSpec = kubectl.succeed("explain", "vmi.spec").stdout();
        assertThat(vmiSpec).contains("GROUP:      kubevirt.io", "KIND:       VirtualMachineInstance", "VERSION:    v1",
                "FIELD: spec <Object>", "evictionStrategy\t<string>", "domain\t<Object> -required-");

        String domain = kubectl.succeed("explain", "vm.spec.template.spec.domain").stdout();
        assertThat(domain).contains("KIND:       VirtualMachine", "FIELD: domain <Object>", "devices\t<Object> -required-");
    }

    @Test
    @DisplayName("kubevirt.io/v1alpha3 is served, converted, with KubeVirt's deprecation warning")
    void v1alpha3() {
        var applied = kubectl.runWithInput(vmi("old-client", "domain").replace("kubevirt.io/v1", "kubevirt.io/v1alpha3"),
                "apply", "-f", "-");
        assertThat(applied.exitCode()).as(applied.describe()).isZero();
        assertThat(applied.stderr()).contains(
                "Warning: kubevirt.io/v1alpha3 is now deprecated and will be removed in a future release.");

        // The full resource name: kubectl 1.32 drops the version when it expands a short name ("vmis.v1alpha3…"
        // lists v1, on a real cluster too: shortcutExpander in client-go's restmapper keeps only group and resource).
        var listed = kubectl.succeed("get", "virtualmachineinstances.v1alpha3.kubevirt.io", "-n", "default");
        assertThat(listed.stdout()).contains("old-client");
        assertThat(listed.stderr()).contains(
                "Warning: kubevirt.io/v1alpha3 is now deprecated and will be removed in a future release.");
        // Converted as KubeVirt's CRDs declare (strategy None): the apiVersion asked for.
        assertThat(kubectl.succeed("get", "--raw",
                "/apis/kubevirt.io/v1alpha3/namespaces/default/virtualmachineinstances/old-client").stdout())
                .contains("\"apiVersion\":\"kubevirt.io/v1alpha3\"");
        // The same object in v1, without a warning.
        var current = kubectl.succeed("get", "vmi", "old-client", "-n", "default", "-o", "jsonpath={.apiVersion}");
        assertThat(current.stdout()).isEqualTo("kubevirt.io/v1");
        assertThat(current.stderr()).doesNotContain("deprecated");
    }

    private static String vmi(String name, String domainField) {
        return """
                apiVersion: kubevirt.io/v1
                kind: VirtualMachineInstance
                metadata: {name: %s, namespace: default}
                spec:
                  evictionStrategy: LiveMigrate
                  %s:
                    devices: {}
                    resources: {requests: {memory: 1Gi}}
                """.formatted(name, domainField);
    }

    private static List<String> header(String table) {
        return Arrays.asList(table.lines().findFirst().orElseThrow().trim().split("\\s{2,}"));
    }
}
