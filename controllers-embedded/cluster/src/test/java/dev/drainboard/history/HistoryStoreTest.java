package dev.drainboard.history;

import dev.drainboard.cluster.EmbeddedCluster;
import dev.drainboard.cluster.EmbeddedClusterOptions;
import dev.drainboard.kubevirt.crd.CrdInstaller;
import dev.drainboard.kubevirt.crd.DrainboardCrds;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.ServiceAccountBuilder;
import io.fabric8.kubernetes.api.model.authentication.TokenRequestBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The drain records against a real API server: the CRD as served, bounded history, and why history is not kept. */
class HistoryStoreTest {

    static EmbeddedCluster cluster;
    static KubernetesClient client;

    @BeforeAll
    static void start() throws Exception {
        cluster = EmbeddedCluster.start(EmbeddedClusterOptions.defaults());
        client = new KubernetesClientBuilder().withConfig(Config.fromKubeconfig(Files.readString(cluster.kubeconfig()))).build();
    }

    @AfterAll
    static void stop() {
        client.close();
        cluster.close();
    }

    static DrainRecordStatus status(RecordResult result, String started) {
        return new DrainRecordStatus(result, "m", started, null, 1.5,
                List.of(new DrainRecordStatus.PodEntry("demo", "p", "node01", "v", "LIVE_MIGRATION", "GONE", 1, "")),
                List.of(new DrainRecordStatus.MigrationEntry("demo", "m1", "v", "node01", "node02", "Succeeded",
                        started, started, 1024L, null)), List.of(), null);
    }

    @Test
    void servedByTheEmbeddedClusterWithItsSchema() throws Exception {
        assertThat(DrainboardCrds.NAMES).contains(DrainRecord.CRD_NAME);
        var crd = client.apiextensions().v1().customResourceDefinitions().withName(DrainRecord.CRD_NAME).get();
        assertThat(crd).isNotNull();
        assertThat(crd.getStatus().getConditions()).anyMatch(c -> c.getType().equals("Established") && c.getStatus().equals("True"));
        assertThat(crd.getSpec().getScope()).isEqualTo("Cluster");
        assertThat(crd.getSpec().getVersions()).singleElement().satisfies(v -> {
            assertThat(v.getName()).isEqualTo(DrainRecord.VERSION);
            assertThat(v.getSubresources().getStatus()).isNotNull();
            assertThat(v.getAdditionalPrinterColumns()).extracting(c -> c.getName())
                    .containsExactly("Kind", "Nodes", "Result", "Started", "Duration", "Estimate", "By");
        });

        HistoryStore store = new HistoryStore(client);
        DrainRecord created = store.create(new DrainRecord("drain-node01-",
                new DrainRecordSpec(RecordKind.Drain, List.of("node01"), "alice@ops1", 12.5)), status(RecordResult.Running, "2026-11-28T10:00:00Z"));
        assertThat(created.name()).startsWith("drain-node01-");
        assertThat(created.getMetadata().getLabels()).containsEntry(DrainRecord.KIND_LABEL, "drain");
        DrainRecord ended = store.writeStatus(created, status(RecordResult.Drained, "2026-11-28T10:00:00Z"));
        DrainRecord read = store.get(created.name()).orElseThrow();
        assertThat(read.getSpec()).isEqualTo(created.getSpec());
        assertThat(read.getStatus()).isEqualTo(ended.getStatus());
        assertThat(read.getStatus().result()).isEqualTo(RecordResult.Drained);
        assertThat(read.getStatus().migrations().getFirst().bytes()).isEqualTo(1024L);

        // A stale copy still writes (a conflict is read again once).
        DrainRecord third = store.writeStatus(created, status(RecordResult.Failed, "2026-11-28T10:00:00Z"));
        assertThat(third.getStatus().result()).isEqualTo(RecordResult.Failed);

        // The schema refuses what is not a record.
        GenericKubernetesResource bad = new GenericKubernetesResource();
        bad.setApiVersion(DrainRecord.API_VERSION);
        bad.setKind("DrainRecord");
        bad.setMetadata(new io.fabric8.kubernetes.api.model.ObjectMetaBuilder().withName("bad").build());
        bad.setAdditionalProperty("spec", Map.of("kind", "Reboot", "nodes", List.of("node01")));
        assertThatThrownBy(() -> client.genericKubernetesResources(DrainRecord.API_VERSION, "DrainRecord").resource(bad).create())
                .isInstanceOf(KubernetesClientException.class)
                .hasMessageContaining("spec.kind: Unsupported value: \"Reboot\"");
        client.resources(DrainRecord.class).withName(created.name()).delete();
    }

    @Test
    void keepsTheNewest() throws Exception {
        HistoryStore store = new HistoryStore(client);
        List<String> names = IntStream.range(0, 6).mapToObj(i -> {
            try {
                return store.create(new DrainRecord("evacuation-node0" + i + "-",
                                new DrainRecordSpec(RecordKind.Evacuation, List.of("node0" + i), "evacuation", null)),
                        status(RecordResult.Drained, "2026-11-2" + i + "T10:00:00Z")).name();
            } catch (HistoryUnavailableException e) {
                throw new AssertionError(e);
            }
        }).toList();
        assertThat(store.prune(4)).isEqualTo(2);
        assertThat(store.list()).extracting(DrainRecord::name).containsExactly(
                names.get(5), names.get(4), names.get(3), names.get(2));
        assertThat(store.prune(4)).isZero();
        store.list().forEach(r -> client.resources(DrainRecord.class).withName(r.name()).delete());
    }

    @Test
    void withoutTheCrdItSaysHowToKeepHistory() throws Exception {
        try (EmbeddedCluster bare = EmbeddedCluster.start(EmbeddedClusterOptions.defaults().withoutKubeVirtCrds());
             KubernetesClient bareClient = new KubernetesClientBuilder()
                     .withConfig(Config.fromKubeconfig(Files.readString(bare.kubeconfig()))).build()) {
            HistoryStore store = new HistoryStore(bareClient);
            assertThatThrownBy(store::list).isInstanceOfSatisfying(HistoryUnavailableException.class, e -> {
                assertThat(e.reason()).isEqualTo(HistoryUnavailableException.Reason.NO_CRD);
                assertThat(e.permanent()).isTrue();
                assertThat(e.getMessage()).isEqualTo(HistoryStore.NO_CRD_MESSAGE);
            });
            assertThatThrownBy(() -> store.create(new DrainRecord("drain-x-",
                    new DrainRecordSpec(RecordKind.Drain, List.of("x"), "a@b", null)), status(RecordResult.Running, null)))
                    .isInstanceOfSatisfying(HistoryUnavailableException.class,
                            e -> assertThat(e.reason()).isEqualTo(HistoryUnavailableException.Reason.NO_CRD));

            assertThat(new CrdInstaller(bareClient).installDrainboardCrds(false))
                    .extracting(CrdInstaller.Result::outcome).hasSize(DrainboardCrds.NAMES.size()).containsOnly(CrdInstaller.Outcome.CREATED);
            assertThat(store.list()).isEmpty();
        }
    }

    @Test
    void withoutPermissionItSaysWhatTheApiServerSaid() throws Exception {
        client.serviceAccounts().inNamespace("default").resource(new ServiceAccountBuilder().withNewMetadata()
                .withName("nobody").endMetadata().build()).create();
        String token = client.serviceAccounts().inNamespace("default").withName("nobody")
                .tokenRequest(new TokenRequestBuilder().withNewSpec().withExpirationSeconds(3600L).endSpec().build())
                .getStatus().getToken();
        Config config = new ConfigBuilder(Config.fromKubeconfig(Files.readString(cluster.kubeconfig()))).withOauthToken(token).build();
        try (KubernetesClient nobody = new KubernetesClientBuilder().withConfig(config).build()) {
            assertThatThrownBy(() -> new HistoryStore(nobody).list()).isInstanceOfSatisfying(HistoryUnavailableException.class, e -> {
                assertThat(e.reason()).isEqualTo(HistoryUnavailableException.Reason.FORBIDDEN);
                assertThat(e.getMessage()).isEqualTo("drain history is not kept on this cluster: drainrecords.drainboard.dev is "
                        + "forbidden: User \"system:serviceaccount:default:nobody\" cannot list resource \"drainrecords\" in "
                        + "API group \"drainboard.dev\" at the cluster scope");
            });
        }
    }
}
