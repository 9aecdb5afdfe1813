package dev.drainboard.cluster.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import dev.drainboard.testing.RequiresKubectl;

import java.nio.file.Path;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * KubeVirt's admission, as virt-api's webhooks do it, seen through the real kubectl: defaults visible in
 * {@code kubectl get vmi -o yaml}, refusals in kube-apiserver's words for a webhook denial.
 */
@DisplayName("kubectl and KubeVirt's admission (virt-api)")
@RequiresKubectl
class KubectlVirtApiTest {

    @TempDir
    static Path workDir;

    private static E2eCluster e2e;
    private static Kubectl kubectl;

    @BeforeAll
    static void startCluster() throws Exception {
        e2e = E2eCluster.startWithKubectl(null, workDir);
        kubectl = e2e.kubectl();
    }

    @AfterAll
    static void stopCluster() {
        if (e2e != null) {
            e2e.close();
        }
    }

    private static String vmi(String name, String spec) {
        return """
                apiVersion: kubevirt.io/v1
                kind: VirtualMachineInstance
                metadata:
                  name: %s
                  namespace: default
                spec:
                %s
                """.formatted(name, spec.indent(2).stripTrailing());
    }

    private static final String INSTANCETYPE_CRD = """
            apiVersion: apiextensions.k8s.io/v1
            kind: CustomResourceDefinition
            metadata: {name: virtualmachineclusterinstancetypes.instancetype.kubevirt.io}
            spec:
              group: instancetype.kubevirt.io
              scope: Cluster
              names: {plural: virtualmachineclusterinstancetypes, singular: virtualmachineclusterinstancetype,
                      kind: VirtualMachineClusterInstancetype, shortNames: [vmclusterinstancetype]}
              versions:
              - name: v1beta1
                served: true
                storage: true
                schema: {openAPIV3Schema: {type: object, x-kubernetes-preserve-unknown-fields: true}}
            """;

    @Test
    @DisplayName("a VMI without interfaces gets the pod network bound by bridge, and the defaults kubectl shows")
    void defaultsVisibleInGetYaml() {
        kubectl.apply(vmi("plain", """
                domain:
                  resources:
                    requests:
                      memory: 1Gi
                  devices: {}
                """));

        String yaml = kubectl.succeed("get", "vmi", "plain", "-o", "yaml").stdout();

        assertThat(yaml).contains("""
                    devices:
                      interfaces:
                      - bridge: {}
                        name: default
                """, """
                  evictionStrategy: None
                  networks:
                  - name: default
                    pod: {}
                """, """
                    memory:
                      guest: 1Gi
                """, """
                  finalizers:
                  - kubevirt.io/foregroundDeleteVirtualMachine
                """, """
                    machine:
                      type: q35
                """, "  phase: Pending\n");
    }

    @Test
    @DisplayName("the KubeVirt CR's defaultNetworkInterface: masquerade binds the default interface")
    void defaultBindingFromTheKubeVirtCr() {
        kubectl.apply("""
                apiVersion: kubevirt.io/v1
                kind: KubeVirt
                metadata: {name: kubevirt, namespace: kubevirt}
                spec:
                  configuration:
                    network: {defaultNetworkInterface: masquerade}
                """.replace("namespace: kubevirt}", "namespace: default}"));
        try {
            kubectl.apply(vmi("masq", "domain: {devices: {}, memory: {guest: 1Gi}}"));
            assertThat(kubectl.succeed("get", "vmi", "masq", "-o", "jsonpath={.spec.domain.devices.interfaces}").stdout())
                    .isEqualTo("[{\"masquerade\":{},\"name\":\"default\"}]");
        } finally {
            kubectl.succeed("delete", "kubevirt", "kubevirt", "-n", "default");
        }
    }

    @Test
    @DisplayName("a VMI with an unknown eviction strategy, no memory and unmatched interfaces: refused, with every cause")
    void invalidVmiRefused() {
        var result = kubectl.runWithInput(vmi("bad", """
                evictionStrategy: Sometimes
                domain:
                  devices:
                    interfaces:
                    - name: eth0
                      masquerade: {}
                networks:
                - name: default
                  pod: {}
                """), "create", "-f", "-");

        assertThat(result.exitCode()).as(result.describe()).isEqualTo(1);
        assertThat(result.stderr()).isEqualTo("""
                The request is invalid:\s
                * spec.domain.devices.interfaces[0].name: Masquerade interface only implemented with pod network
                * spec.networks[0].name: spec.networks[0].name 'default' not found.
                * spec.domain.devices.interfaces[0].name: spec.domain.devices.interfaces[0].name 'eth0' not found.
                * spec.evictionStrategy: spec.evictionStrategy is set with an unrecognized option: Sometimes
                * : no memory requested, at least one of 'spec.domain.memory.guest', 'spec.domain.memory.hugepages.pageSize' or 'spec.domain.resources.requests.memory' must be set
                """);
        assertThat(kubectl.run("get", "vmi", "bad").exitCode()).as("nothing stored").isEqualTo(1);
    }

    @Test
    @DisplayName("kubectl patch, replace or edit of a VMI's spec: refused; labels and status: allowed")
    void vmiSpecIsFixed() {
        kubectl.apply(vmi("fixed", "domain: {devices: {}, memory: {guest: 1Gi}}"));

        var patch = kubectl.run("patch", "vmi", "fixed", "--type", "merge", "-p", "{\"spec\":{\"evictionStrategy\":\"LiveMigrate\"}}");
        assertThat(patch.exitCode()).as(patch.describe()).isEqualTo(1);
        assertThat(patch.stderr()).isEqualTo("The request is invalid: : update of VMI object is restricted\n");

        String edited = kubectl.succeed("get", "vmi", "fixed", "-o", "yaml").stdout().replace("evictionStrategy: None", "evictionStrategy: External");
        var replace = kubectl.runWithInput(edited, "replace", "-f", "-");
        assertThat(replace.exitCode()).as(replace.describe()).isEqualTo(1);
        assertThat(replace.stderr()).contains("update of VMI object is restricted");
        assertThat(kubectl.succeed("get", "vmi", "fixed", "-o", "jsonpath={.spec.evictionStrategy}").stdout()).isEqualTo("None");

        var edit = kubectl.runWithEditor("sed -i -e 's/evictionStrategy: None/evictionStrategy: LiveMigrate/'", null,
                "edit", "vmi", "fixed");
        assertThat(edit.exitCode()).as(edit.describe()).isEqualTo(1);
        assertThat(edit.stderr()).startsWith("error: virtualmachineinstances.kubevirt.io \"fixed\" is invalid\n")
                .contains("error: Edit cancelled, no valid changes were saved.");
        // kubectl edit keeps the edited copy, the server's reason as a comment on top
        var copy = java.util.regex.Pattern.compile("stored to \"([^\"]+)\"").matcher(edit.stderr());
        assertThat(copy.find()).as(edit.describe()).isTrue();
        try {
            assertThat(java.nio.file.Files.readString(Path.of(copy.group(1))))
                    .contains("# virtualmachineinstances.kubevirt.io \"fixed\" was not valid:", "update of VMI object is restricted");
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        } finally {
            Path.of(copy.group(1)).toFile().delete();
        }
        assertThat(kubectl.succeed("get", "vmi", "fixed", "-o", "jsonpath={.spec.evictionStrategy}").stdout()).isEqualTo("None");

        kubectl.succeed("label", "vmi", "fixed", "team=db");
        kubectl.succeed("patch", "vmi", "fixed", "--type", "merge", "-p", "{\"status\":{\"phase\":\"Scheduling\"}}");
        assertThat(kubectl.succeed("get", "vmi", "fixed", "-o", "jsonpath={.metadata.labels.team} {.status.phase}").stdout())
                .isEqualTo("db Scheduling");
    }

    @Test
    @DisplayName("a migration of a missing, a non-migratable or an already migrating VMI: refused as virt-api refuses it")
    void migrationsRefused() {
        var ghost = kubectl.runWithInput(migration("to-nowhere", "ghost"), "create", "-f", "-");
        assertThat(ghost.exitCode()).as(ghost.describe()).isEqualTo(1);
        assertThat(ghost.stderr()).isEqualTo("Error from server: error when creating \"STDIN\": admission webhook "
                + "\"migration-create-validator.kubevirt.io\" denied the request: the VMI \"default/ghost\" does not exist\n");

        kubectl.apply(vmi("pinned", "domain: {devices: {}, memory: {guest: 1Gi}}"));
        kubectl.succeed("patch", "vmi", "pinned", "--type", "merge", "-p", """
                {"status":{"phase":"Running","conditions":[{"type":"LiveMigratable","status":"False","reason":"DisksNotLiveMigratable",\
                "message":"cannot migrate VMI: PVC data is not shared, live migration requires that all PVCs must be shared (using ReadWriteMany access mode)"}]}}""");
        var pinned = kubectl.runWithInput(migration("move-pinned", "pinned"), "create", "-f", "-");
        assertThat(pinned.exitCode()).as(pinned.describe()).isEqualTo(1);
        assertThat(pinned.stderr()).isEqualTo("Error from server: error when creating \"STDIN\": admission webhook "
                + "\"migration-create-validator.kubevirt.io\" denied the request: Cannot migrate VMI, Reason: DisksNotLiveMigratable, "
                + "Message: cannot migrate VMI: PVC data is not shared, live migration requires that all PVCs must be shared (using ReadWriteMany access mode)\n");

        kubectl.apply(vmi("mobile", "domain: {devices: {}, memory: {guest: 1Gi}}"));
        kubectl.succeed("patch", "vmi", "mobile", "--type", "merge", "-p",
                "{\"status\":{\"phase\":\"Running\",\"conditions\":[{\"type\":\"LiveMigratable\",\"status\":\"True\"}]}}");
        kubectl.runWithInput(migration("first", "mobile"), "create", "-f", "-");
        assertThat(kubectl.succeed("get", "vmim", "first", "-o", "jsonpath={.metadata.labels.kubevirt\\.io/vmi-name} {.metadata.finalizers}")
                .stdout()).isEqualTo("mobile [\"kubevirt.io/migrationJobFinalize\"]");
        String uid = kubectl.succeed("get", "vmim", "first", "-o", "jsonpath={.metadata.uid}").stdout();
        var second = kubectl.runWithInput(migration("second", "mobile"), "create", "-f", "-");
        assertThat(second.exitCode()).as(second.describe()).isEqualTo(1);
        assertThat(second.stderr()).isEqualTo("Error from server: error when creating \"STDIN\": admission webhook "
                + "\"migration-create-validator.kubevirt.io\" denied the request: in-flight migration detected. Active migration job ("
                + uid + ") is currently already in progress for VMI mobile.\n");
    }

    @Test
    @DisplayName("a VM naming a missing instancetype: refused; one naming an existing one: accepted")
    void vmInstancetypeMustExist() {
        var crd = kubectl.runWithInput(INSTANCETYPE_CRD, "create", "-f", "-");
        assertThat(crd.exitCode() == 0 || crd.stderr().contains("AlreadyExists")).as(crd.describe()).isTrue();

        var missing = kubectl.runWithInput(vm("sized", "u1.small"), "create", "-f", "-");
        assertThat(missing.exitCode()).as(missing.describe()).isEqualTo(1);
        assertThat(missing.stderr()).isEqualTo("The request is invalid: spec.instancetype: Failure to find instancetype: "
                + "virtualmachineclusterinstancetypes.instancetype.kubevirt.io \"u1.small\" not found\n");

        kubectl.apply("""
                apiVersion: instancetype.kubevirt.io/v1beta1
                kind: VirtualMachineClusterInstancetype
                metadata: {name: u1.small}
                spec: {cpu: {guest: 1}, memory: {guest: 2Gi}}
                """);
        kubectl.runWithInput(vm("sized", "u1.small"), "create", "-f", "-");
        assertThat(kubectl.succeed("get", "vm", "sized", "-o", "name").stdout()).isEqualTo("virtualmachine.kubevirt.io/sized\n");
    }

    private static String migration(String name, String vmiName) {
        return """
                apiVersion: kubevirt.io/v1
                kind: VirtualMachineInstanceMigration
                metadata: {name: %s, namespace: default}
                spec: {vmiName: %s}
                """.formatted(name, vmiName);
    }

    private static String vm(String name, String instancetype) {
        return """
                apiVersion: kubevirt.io/v1
                kind: VirtualMachine
                metadata: {name: %s, namespace: default}
                spec:
                  runStrategy: Halted
                  instancetype: {name: %s}
                  template:
                    spec:
                      domain: {devices: {}}
                """.formatted(name, instancetype);
    }
}
