package dev.drainboard.kubevirt.crd;

import dev.drainboard.cluster.EmbeddedCluster;
import dev.drainboard.cluster.EmbeddedClusterOptions;
import dev.drainboard.kubevirt.crd.CrdInstaller.Outcome;
import dev.drainboard.kubevirt.crd.CrdInstaller.Result;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class CrdInstallerTest {

    private static final String VMI_CRD = "virtualmachineinstances.kubevirt.io";

    private EmbeddedCluster cluster;
    private KubernetesClient client;

    @BeforeEach
    void startCluster() throws Exception {
        cluster = EmbeddedCluster.start(EmbeddedClusterOptions.defaults().withoutKubeVirtCrds());
        client = new KubernetesClientBuilder()
                .withConfig(Config.fromKubeconfig(Files.readString(cluster.kubeconfig()))).build();
    }

    @AfterEach
    void stopCluster() {
        client.close();
        cluster.close();
    }

    @Test
    void createsMissingCrdsAndSkipsPresentOnes() {
        List<Result> first = new CrdInstaller(client).installKubeVirtCrds(false);

        assertThat(first).extracting(Result::name).containsExactlyElementsOf(KubeVirtCrds.NAMES);
        assertThat(first).extracting(Result::outcome).containsOnly(Outcome.CREATED);
        for (String name : KubeVirtCrds.NAMES) {
            assertThat(CrdInstaller.isEstablished(crd(name))).as(name).isTrue();
        }

        List<Result> second = new CrdInstaller(client).installKubeVirtCrds(false);
        assertThat(second).extracting(Result::outcome).containsOnly(Outcome.SKIPPED);
    }

    @Test
    void neverTouchesAnExistingCrdWithoutForce() {
        CustomResourceDefinition theirs = KubeVirtCrds.definitions().getFirst();
        theirs.getSpec().getVersions().getFirst().setAdditionalPrinterColumns(List.of());
        theirs.getMetadata().setLabels(Map.of("app.kubernetes.io/managed-by", "virt-operator"));
        client.apiextensions().v1().customResourceDefinitions().resource(theirs).create();
        String resourceVersion = crd(VMI_CRD).getMetadata().getResourceVersion();

        List<Result> results = new CrdInstaller(client).installKubeVirtCrds(false);

        assertThat(results.getFirst()).isEqualTo(new Result(VMI_CRD, Outcome.SKIPPED, ""));
        assertThat(results.subList(1, 5)).extracting(Result::outcome).containsOnly(Outcome.CREATED);
        CustomResourceDefinition after = crd(VMI_CRD);
        assertThat(after.getMetadata().getResourceVersion()).isEqualTo(resourceVersion);
        assertThat(after.getSpec().getVersions().getFirst().getAdditionalPrinterColumns()).isEmpty();
    }

    @Test
    void forceReplacesExistingCrdsKeepingOtherOwnersLabels() {
        CustomResourceDefinition theirs = KubeVirtCrds.definitions().getFirst();
        theirs.getSpec().getVersions().getFirst().setAdditionalPrinterColumns(List.of());
        theirs.getSpec().getNames().setShortNames(List.of("vmi"));
        theirs.getMetadata().setLabels(Map.of("app.kubernetes.io/managed-by", "virt-operator"));
        client.apiextensions().v1().customResourceDefinitions().resource(theirs).create();

        List<Result> results = new CrdInstaller(client).installKubeVirtCrds(true);

        assertThat(results.getFirst()).isEqualTo(new Result(VMI_CRD, Outcome.UPDATED, ""));
        assertThat(results.subList(1, 5)).extracting(Result::outcome).containsOnly(Outcome.CREATED);
        CustomResourceDefinition after = crd(VMI_CRD);
        assertThat(after.getSpec().getVersions().getFirst().getAdditionalPrinterColumns())
                .extracting(c -> c.getName()).startsWith("Age", "Phase", "IP", "NodeName", "Ready");
        assertThat(after.getSpec().getNames().getShortNames()).containsExactly("vmi", "vmis");
        assertThat(after.getMetadata().getLabels())
                .containsEntry("app.kubernetes.io/managed-by", "virt-operator")
                .containsEntry("kubevirt.io", "");

        assertThat(new CrdInstaller(client).installKubeVirtCrds(true)).extracting(Result::outcome).containsOnly(Outcome.UPDATED);
    }

    @Test
    void aRefusedCrdIsReportedAndTheOthersStillInstalled() {
        CustomResourceDefinition broken = KubeVirtCrds.definitions().getFirst();
        broken.getMetadata().setName("wrong-name.kubevirt.io"); // must be <plural>.<group>

        List<Result> results = new CrdInstaller(client).install(
                List.of(broken, KubeVirtCrds.definitions().get(1)), false);

        assertThat(results.getFirst().outcome()).isEqualTo(Outcome.FAILED);
        assertThat(results.getFirst().message()).isNotEmpty();
        assertThat(results.get(1).outcome()).isEqualTo(Outcome.CREATED);
    }

    private CustomResourceDefinition crd(String name) {
        return client.apiextensions().v1().customResourceDefinitions().withName(name).get();
    }
}
