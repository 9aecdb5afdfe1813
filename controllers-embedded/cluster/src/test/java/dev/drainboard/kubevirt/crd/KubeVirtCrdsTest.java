package dev.drainboard.kubevirt.crd;

import dev.drainboard.cluster.EmbeddedCluster;
import dev.drainboard.cluster.EmbeddedClusterOptions;
import dev.drainboard.kubevirt.api.KubeVirt;
import dev.drainboard.kubevirt.api.VirtualMachine;
import dev.drainboard.kubevirt.api.VirtualMachineInstance;
import dev.drainboard.kubevirt.api.VirtualMachineInstanceMigration;
import dev.drainboard.kubevirt.api.VirtualMachineInstanceReplicaSet;
import dev.drainboard.testing.KubectlRequirement;
import dev.drainboard.testing.RequiresKubectl;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionVersion;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.utils.Serialization;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/** The CRD manifests, and what the real kubectl shows once they are installed. */
class KubeVirtCrdsTest {

    private static EmbeddedCluster cluster;
    private static KubernetesClient client;

    @TempDir
    static Path tempDir;

    @BeforeAll
    static void startCluster() throws Exception {
        cluster = EmbeddedCluster.start(EmbeddedClusterOptions.defaults().withoutKubeVirtCrds());
        client = new KubernetesClientBuilder()
                .withConfig(Config.fromKubeconfig(Files.readString(cluster.kubeconfig()))).build();
        assertThat(new CrdInstaller(client).installKubeVirtCrds(false))
                .extracting(CrdInstaller.Result::outcome).containsOnly(CrdInstaller.Outcome.CREATED);
    }

    @AfterAll
    static void stopCluster() {
        client.close();
        cluster.close();
    }

    @Test
    void manifestsMatchTheModelClasses() {
        Map<String, CustomResourceDefinition> byKind = KubeVirtCrds.definitions().stream()
                .collect(Collectors.toMap(crd -> crd.getSpec().getNames().getKind(), crd -> crd));
        for (Class<? extends CustomResource<?, ?>> type : List.of(VirtualMachineInstance.class, VirtualMachine.class,
                VirtualMachineInstanceMigration.class, VirtualMachineInstanceReplicaSet.class, KubeVirt.class)) {
            CustomResourceDefinition crd = byKind.get(io.fabric8.kubernetes.api.model.HasMetadata.getKind(type));
            assertThat(crd).as(type.getSimpleName()).isNotNull();
            assertThat(crd.getMetadata().getName()).isEqualTo(CustomResource.getCRDName(type));
            assertThat(crd.getSpec().getGroup()).isEqualTo("kubevirt.io");
            assertThat(crd.getSpec().getScope()).isEqualTo("Namespaced");
            assertThat(crd.getSpec().getNames().getShortNames()).containsExactly(CustomResource.getShortNames(type));
            assertThat(crd.getSpec().getNames().getCategories()).containsExactly("all");
            // KubeVirt's ApiSupportedVersions: v1 stored, v1alpha3 still served but deprecated.
            assertThat(crd.getSpec().getVersions()).extracting(CustomResourceDefinitionVersion::getName)
                    .containsExactly("v1", "v1alpha3");
            CustomResourceDefinitionVersion v1 = crd.getSpec().getVersions().get(0);
            assertThat(v1.getServed()).isTrue();
            assertThat(v1.getStorage()).isTrue();
            assertThat(v1.getDeprecated()).isNull();
            CustomResourceDefinitionVersion v1alpha3 = crd.getSpec().getVersions().get(1);
            assertThat(v1alpha3.getServed()).isTrue();
            assertThat(v1alpha3.getStorage()).isFalse();
            assertThat(v1alpha3.getDeprecated()).isTrue();
            assertThat(v1alpha3.getDeprecationWarning())
                    .isEqualTo("kubevirt.io/v1alpha3 is now deprecated and will be removed in a future release.");
            // KubeVirt's structural schema, the same on both versions: nothing kept blindly at the top.
            assertThat(v1.getSchema().getOpenAPIV3Schema().getType()).isEqualTo("object");
            assertThat(v1.getSchema().getOpenAPIV3Schema().getXKubernetesPreserveUnknownFields()).isNull();
            assertThat(v1.getSchema().getOpenAPIV3Schema().getProperties()).containsKeys("spec", "status");
            assertThat(v1alpha3.getSchema()).isEqualTo(v1.getSchema());
        }
        assertThat(KubeVirtCrds.NAMES).containsExactlyInAnyOrderElementsOf(
                KubeVirtCrds.definitions().stream().map(crd -> crd.getMetadata().getName()).toList());
    }

    @Test
    void theLoadedManifestsAreTheYamlOnes() throws Exception {
        var yaml = new com.fasterxml.jackson.databind.ObjectMapper(new com.fasterxml.jackson.dataformat.yaml.YAMLFactory());
        var loaded = KubeVirtCrds.manifests();
        for (int i = 0; i < KubeVirtCrds.NAMES.size(); i++) {
            String name = KubeVirtCrds.NAMES.get(i);
            try (var in = KubeVirtCrds.class.getResourceAsStream("/kubevirt/crds/" + name + ".yaml")) {
                assertThat(in).as(name).isNotNull();
                assertThat(loaded.get(i)).as(name).isEqualTo(yaml.readTree(in));
            }
        }
    }

    @Test
    void everyCrdOfAKubeVirtInstallation() {
        assertThat(KubeVirtCrds.NAMES).containsExactly(
                "virtualmachineinstances.kubevirt.io", "virtualmachineinstancepresets.kubevirt.io",
                "virtualmachineinstancereplicasets.kubevirt.io", "virtualmachines.kubevirt.io",
                "virtualmachineinstancemigrations.kubevirt.io", "virtualmachinesnapshots.snapshot.kubevirt.io",
                "virtualmachinesnapshotcontents.snapshot.kubevirt.io", "virtualmachinerestores.snapshot.kubevirt.io",
                "virtualmachineinstancetypes.instancetype.kubevirt.io",
                "virtualmachineclusterinstancetypes.instancetype.kubevirt.io",
                "virtualmachinepools.pool.kubevirt.io", "migrationpolicies.migrations.kubevirt.io",
                "virtualmachinepreferences.instancetype.kubevirt.io",
                "virtualmachineclusterpreferences.instancetype.kubevirt.io",
                "virtualmachineexports.export.kubevirt.io", "virtualmachineclones.clone.kubevirt.io",
                "virtualmachinebackups.backup.kubevirt.io", "virtualmachinebackuptrackers.backup.kubevirt.io",
                "plugins.plugin.kubevirt.io", "kubevirts.kubevirt.io");
        Map<String, CustomResourceDefinition> byName = KubeVirtCrds.definitions().stream()
                .collect(Collectors.toMap(crd -> crd.getMetadata().getName(), crd -> crd));
        // Stored version first in KubeVirt's list or not, exactly one version stores.
        byName.values().forEach(crd -> assertThat(crd.getSpec().getVersions())
                .filteredOn(CustomResourceDefinitionVersion::getStorage).as(crd.getMetadata().getName()).hasSize(1));
        var pool = byName.get("virtualmachinepools.pool.kubevirt.io").getSpec();
        assertThat(pool.getVersions()).extracting(CustomResourceDefinitionVersion::getName).containsExactly("v1alpha1", "v1beta1");
        assertThat(pool.getVersions().get(1).getSubresources().getScale().getSpecReplicasPath()).isEqualTo(".spec.replicas");
        assertThat(byName.get("migrationpolicies.migrations.kubevirt.io").getSpec().getScope()).isEqualTo("Cluster");
        assertThat(byName.get("virtualmachineclusterinstancetypes.instancetype.kubevirt.io").getSpec().getNames().getShortNames())
                .containsExactly("vmclusterinstancetype", "vmclusterinstancetypes", "vmcf", "vmcfs");
        var export = byName.get("virtualmachineexports.export.kubevirt.io").getSpec().getVersions();
        assertThat(export.getFirst().getDeprecationWarning())
                .isEqualTo("export.kubevirt.io/v1beta1 VirtualMachineExport is now deprecated and will be removed in a future version.");
    }

    @Test
    void subresourcesAreThoseKubeVirtHas() {
        Map<String, CustomResourceDefinitionVersion> v1 = KubeVirtCrds.definitions().stream()
                .filter(crd -> crd.getSpec().getGroup().equals("kubevirt.io"))
                .collect(Collectors.toMap(crd -> crd.getSpec().getNames().getShortNames().getFirst(),
                        crd -> crd.getSpec().getVersions().getFirst()));
        // The VMI has none: its status is written on the main resource.
        assertThat(v1.get("vmi").getSubresources()).isNull();
        assertThat(v1.get("vm").getSubresources().getStatus()).isNotNull();
        assertThat(v1.get("vmim").getSubresources().getStatus()).isNotNull();
        assertThat(v1.get("kv").getSubresources().getStatus()).isNotNull();
        var vmirs = v1.get("vmirs").getSubresources();
        assertThat(vmirs.getStatus()).isNotNull();
        assertThat(vmirs.getScale().getSpecReplicasPath()).isEqualTo(".spec.replicas");
        assertThat(vmirs.getScale().getStatusReplicasPath()).isEqualTo(".status.replicas");
        assertThat(vmirs.getScale().getLabelSelectorPath()).isEqualTo(".status.labelSelector");
    }

    @RequiresKubectl
    @Test
    void kubectlGetShowsKubeVirtsPrinterColumns() throws Exception {
        client.namespaces().resource(Serialization.unmarshal(
                "{\"apiVersion\":\"v1\",\"kind\":\"Namespace\",\"metadata\":{\"name\":\"prod\"}}",
                io.fabric8.kubernetes.api.model.Namespace.class)).create();
        // The VMI carries its status on the main resource; the others get theirs through /status.
        client.resources(VirtualMachineInstance.class).resource(load(VirtualMachineInstance.class, """
                {"apiVersion":"kubevirt.io/v1","kind":"VirtualMachineInstance","metadata":{"name":"db-01","namespace":"prod"},
                 "spec":{"evictionStrategy":"LiveMigrate","domain":{"devices":{},"memory":{"guest":"1Gi"}}},
                 "status":{"phase":"Running","nodeName":"worker-2","interfaces":[{"name":"default","ipAddress":"10.244.2.17"}],
                   "conditions":[{"type":"Ready","status":"True"}]}}
                """)).create();
        createWithStatus(VirtualMachine.class, """
                {"apiVersion":"kubevirt.io/v1","kind":"VirtualMachine","metadata":{"name":"db-01","namespace":"prod"},
                 "spec":{"runStrategy":"Always","template":{"spec":{"domain":{"devices":{}}}}},
                 "status":{"printableStatus":"Running","ready":true,"conditions":[{"type":"Ready","status":"True"}]}}
                """);
        createWithStatus(VirtualMachineInstanceMigration.class, """
                {"apiVersion":"kubevirt.io/v1","kind":"VirtualMachineInstanceMigration",
                 "metadata":{"name":"kubevirt-evacuation-8k2lx","namespace":"prod"},
                 "spec":{"vmiName":"db-01"},"status":{"phase":"Scheduling"}}
                """);
        // Not migratable from now on (virt-api refuses a migration of a VMI that is LiveMigratable=False).
        client.resources(VirtualMachineInstance.class).inNamespace("prod").withName("db-01").patch(
                io.fabric8.kubernetes.client.dsl.base.PatchContext.of(io.fabric8.kubernetes.client.dsl.base.PatchType.JSON_MERGE),
                "{\"status\":{\"conditions\":[{\"type\":\"Ready\",\"status\":\"True\"},{\"type\":\"LiveMigratable\",\"status\":\"False\"}]}}");
        createWithStatus(VirtualMachineInstanceReplicaSet.class, """
                {"apiVersion":"kubevirt.io/v1","kind":"VirtualMachineInstanceReplicaSet","metadata":{"name":"web","namespace":"prod"},
                 "spec":{"replicas":3,"selector":{"matchLabels":{"app":"web"}},
                   "template":{"metadata":{"labels":{"app":"web"}},"spec":{"domain":{"devices":{},"memory":{"guest":"1Gi"}}}}},
                 "status":{"replicas":2,"readyReplicas":1,"labelSelector":"app=web"}}
                """);

        String out = kubectl("get", "vmi,vm,vmim,vmirs", "-A");

        // Several kinds at once: kubectl prints one table per kind, names qualified with the resource.
        List<List<String>> rows = Arrays.stream(out.split("\n")).filter(l -> !l.isBlank())
                .map(l -> List.of(l.trim().split("\\s{2,}"))).toList();
        assertThat(rows).contains(
                List.of("NAMESPACE", "NAME", "AGE", "PHASE", "IP", "NODENAME", "READY"),
                List.of("NAMESPACE", "NAME", "AGE", "STATUS", "READY"),
                List.of("NAMESPACE", "NAME", "PHASE", "VMI"),
                List.of("NAMESPACE", "NAME", "DESIRED", "CURRENT", "READY", "AGE"),
                List.of("prod", "virtualmachineinstancemigration.kubevirt.io/kubevirt-evacuation-8k2lx", "Scheduling", "db-01"));
        assertThat(rows).anySatisfy(row -> assertThat(row).startsWith("prod", "virtualmachineinstance.kubevirt.io/db-01")
                .endsWith("Running", "10.244.2.17", "worker-2", "True"));
        assertThat(rows).anySatisfy(row -> assertThat(row).startsWith("prod", "virtualmachine.kubevirt.io/db-01")
                .endsWith("Running", "True"));
        assertThat(rows).anySatisfy(row -> assertThat(row).startsWith("prod", "virtualmachineinstancereplicaset.kubevirt.io/web", "3", "2", "1"));

        // Short names, and the priority-1 columns in wide output.
        String wide = kubectl("get", "vmis", "-n", "prod", "-o", "wide");
        assertThat(wide.lines().findFirst().orElseThrow().trim().split("\\s{2,}"))
                .containsExactly("NAME", "AGE", "PHASE", "IP", "NODENAME", "READY", "LIVE-MIGRATABLE", "PAUSED");
        assertThat(wide).contains("False");

        // The scale subresource: kubectl scale changes spec.replicas.
        kubectl("scale", "vmirs", "web", "-n", "prod", "--replicas=5");
        assertThat(client.resources(VirtualMachineInstanceReplicaSet.class).inNamespace("prod").withName("web").get()
                .getSpec().getReplicas()).isEqualTo(5);
    }

    private static <T extends CustomResource<?, ?>> T load(Class<T> type, String json) {
        return Serialization.unmarshal(json, type);
    }

    private static <T extends CustomResource<?, ?>> void createWithStatus(Class<T> type, String json) {
        T wanted = load(type, json);
        var resources = client.resources(type);
        T created = resources.resource(wanted).create();
        // The status subresource ignores status on create; write it through /status.
        setStatus(created, wanted);
        resources.resource(created).updateStatus();
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static void setStatus(CustomResource target, CustomResource source) {
        target.setStatus(source.getStatus());
    }

    private static String kubectl(String... arguments) throws Exception {
        List<String> command = new ArrayList<>(List.of(KubectlRequirement.binary().toString(), "--kubeconfig", cluster.kubeconfig().toString(),
                "--cache-dir", tempDir.resolve("kube-cache").toString(), "--request-timeout", "10s"));
        command.addAll(List.of(arguments));
        Path stdout = Files.createTempFile(tempDir, "kubectl", ".out");
        Path stderr = Files.createTempFile(tempDir, "kubectl", ".err");
        ProcessBuilder builder = new ProcessBuilder(command).redirectOutput(stdout.toFile()).redirectError(stderr.toFile());
        builder.environment().put("HOME", tempDir.toString());
        builder.environment().remove("KUBECONFIG");
        Process process = builder.start();
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new AssertionError("kubectl did not finish within 30 seconds: " + command);
        }
        assertThat(process.exitValue()).as("kubectl %s failed: %s", command, Files.readString(stderr)).isZero();
        return Files.readString(stdout);
    }
}
