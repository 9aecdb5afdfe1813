package dev.drainboard.admission;

import static java.util.concurrent.TimeUnit.SECONDS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.drainboard.admission.EvictionTestCluster.EvictionResult;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.Locale;

/**
 * The "Eviction Approval Summary" of KubeVirt's {@code docs/handling-eviction-requests.md}, one test per row, through
 * the real path: an Eviction POSTed to the embedded API server, which calls Drainboard's webhook over HTTPS and then
 * checks the PDB Drainboard's disruption budget controller keeps.
 */
@DisplayName("eviction approval summary, end to end (webhook over HTTPS, then PDB)")
class EvictionApprovalSummaryTest {

    private static final String WEBHOOK_DENIED = "admission webhook \"virt-launcher-eviction-interceptor.kubevirt.io\" denied the request: ";
    private static final String PDB_VIOLATION = "Cannot evict pod as it would violate the pod's disruption budget.";

    @TempDir
    static Path workDir;
    private static EvictionTestCluster cluster;

    @BeforeAll
    static void start() throws Exception {
        cluster = EvictionTestCluster.start(workDir);
    }

    @AfterAll
    static void stop() {
        if (cluster != null) {
            cluster.close();
        }
    }

    private static String vmiName(String prefix, String strategy, boolean migratable) {
        return prefix + "-" + strategy.toLowerCase(Locale.ROOT) + (migratable ? "-mig" : "-nomig");
    }

    @ParameterizedTest(name = "{0}, migratable={1}: marked={2}, PDB={3} → {4}")
    @DisplayName("first eviction request")
    @CsvSource(delimiter = '|', textBlock = """
            None                  | true  | false | false | 200 - Eviction granted
            None                  | false | false | false | 200 - Eviction granted
            LiveMigrate           | true  | true  | true  | 429 - Eviction denied (evacuation was triggered)
            LiveMigrate           | false | false | true  | 429 - Eviction denied by webhook
            LiveMigrateIfPossible | true  | true  | true  | 429 - Eviction denied (evacuation was triggered)
            LiveMigrateIfPossible | false | false | false | 200 - Eviction granted
            External              | true  | true  | true  | 429 - Eviction denied (evacuation was triggered)
            External              | false | true  | true  | 429 - Eviction denied (evacuation was triggered)
            """)
    void firstRequest(String strategy, boolean migratable, boolean marked, boolean pdb, String response) throws Exception {
        String vmi = vmiName("first", strategy, migratable);
        Pod pod = cluster.runVmi(vmi, strategy, migratable, "node01");
        cluster.awaitBudget(vmi, pdb);

        EvictionResult result = cluster.evict(pod.getMetadata().getName());

        if (response.startsWith("200")) {
            assertThat(result.code()).as(result.message()).isEqualTo(201);
            assertThat(cluster.client().pods().inNamespace("default").withName(pod.getMetadata().getName()).get())
                    .satisfiesAnyOf(p -> assertThat(p).isNull(), p -> assertThat(p.getMetadata().getDeletionTimestamp()).isNotNull());
        } else {
            assertThat(result.code()).isEqualTo(429);
            assertThat(result.message()).isEqualTo(WEBHOOK_DENIED + (response.endsWith("(evacuation was triggered)")
                    ? "Eviction triggered evacuation of VMI \"default/" + vmi + "\""
                    : "VMI " + vmi + " is configured with an eviction strategy but is not live-migratable"));
        }
        assertThat(cluster.vmi(vmi).isMarkedForEviction()).as("VMI marked for evacuation").isEqualTo(marked);
        if (marked) {
            assertThat(cluster.vmi(vmi).getStatus().getEvacuationNodeName()).isEqualTo("node01");
        }
    }

    @ParameterizedTest(name = "{0}, migratable={1} → {2}")
    @DisplayName("additional requests on a VMI already marked for evacuation")
    @CsvSource(delimiter = '|', textBlock = """
            LiveMigrate           | true  | 429 - Eviction blocked by PDB
            LiveMigrateIfPossible | true  | 429 - Eviction blocked by PDB
            External              | true  | 429 - Eviction blocked by PDB
            External              | false | 429 - Eviction blocked by PDB
            """)
    void additionalRequests(String strategy, boolean migratable, String response) throws Exception {
        String vmi = vmiName("again", strategy, migratable);
        Pod pod = cluster.runVmi(vmi, strategy, migratable, "node01");
        cluster.awaitBudget(vmi, true);
        assertThat(cluster.evict(pod.getMetadata().getName()).message()).contains("Eviction triggered evacuation");
        assertThat(cluster.vmi(vmi).isMarkedForEviction()).isTrue();

        EvictionResult second = cluster.evict(pod.getMetadata().getName());
        EvictionResult third = cluster.evict(pod.getMetadata().getName());

        assertThat(response).isEqualTo("429 - Eviction blocked by PDB");
        assertThat(second).isEqualTo(new EvictionResult(429, PDB_VIOLATION));
        assertThat(third).isEqualTo(new EvictionResult(429, PDB_VIOLATION));
        assertThat(cluster.client().pods().inNamespace("default").withName(pod.getMetadata().getName()).get()
                .getMetadata().getDeletionTimestamp()).isNull();
    }

    @ParameterizedTest(name = "launcher pod {0}")
    @DisplayName("a completed launcher pod of a non-migratable LiveMigrate VMI is evicted (KubeVirt lets it go)")
    @CsvSource({"Succeeded", "Failed"})
    void completedLauncherPodIsEvicted(String phase) throws Exception {
        String vmi = "completed-" + phase.toLowerCase(Locale.ROOT);
        Pod pod = cluster.runVmi(vmi, "LiveMigrate", false, "node01");
        cluster.awaitBudget(vmi, true);
        assertThat(cluster.evict(pod.getMetadata().getName()).message())
                .as("refused while it runs").endsWith("is configured with an eviction strategy but is not live-migratable");
        cluster.client().pods().inNamespace("default").withName(pod.getMetadata().getName())
                .editStatus(p -> new PodBuilder(p).editStatus().withPhase(phase).withConditions().endStatus().build());

        // The webhook reads pods from its informer, which may not have seen the new phase yet: a client retries a
        // 429 (kubectl drain every 5 s), so the eviction must succeed once the phase is seen, and never mark the VMI.
        await().atMost(30, SECONDS).until(() -> cluster.evict(pod.getMetadata().getName()).code() == 201);

        assertThat(cluster.client().pods().inNamespace("default").withName(pod.getMetadata().getName()).get())
                .satisfiesAnyOf(p -> assertThat(p).isNull(), p -> assertThat(p.getMetadata().getDeletionTimestamp()).isNotNull());
        assertThat(cluster.vmi(vmi).isMarkedForEviction()).as("VMI marked for evacuation").isFalse();
    }
}
