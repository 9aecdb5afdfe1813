package dev.drainboard.admission;

import static org.assertj.core.api.Assertions.assertThat;

import dev.drainboard.admission.EvictionTestCluster.EvictionResult;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.nio.file.Path;
import java.util.Locale;

/**
 * As KubeVirt's {@code docs/handling-eviction-requests.md} notes: the webhook is registered with
 * {@code failurePolicy: Ignore}, so while it is down the API server lets evictions through to the PodDisruptionBudgets,
 * and the PDBs still protect every launcher pod that needs protection (only the evacuation is not triggered).
 */
@DisplayName("webhook stopped: failurePolicy Ignore passes evictions to the PDBs, which still protect launcher pods")
class WebhookDownTest {

    private static final String PDB_VIOLATION = "Cannot evict pod as it would violate the pod's disruption budget.";

    @TempDir
    static Path workDir;
    private static EvictionTestCluster cluster;

    @BeforeAll
    static void startThenStopWebhook() throws Exception {
        cluster = EvictionTestCluster.start(workDir);
        cluster.webhook().stop();
    }

    @AfterAll
    static void stop() {
        if (cluster != null) {
            cluster.close();
        }
    }

    @ParameterizedTest(name = "{0}, migratable={1}: PDB protects={2}")
    @CsvSource(delimiter = '|', textBlock = """
            None                  | true  | false
            None                  | false | false
            LiveMigrate           | true  | true
            LiveMigrate           | false | true
            LiveMigrateIfPossible | true  | true
            LiveMigrateIfPossible | false | false
            External              | true  | true
            External              | false | true
            """)
    void pdbStillProtects(String strategy, boolean migratable, boolean protectedByPdb) throws Exception {
        String vmi = "down-" + strategy.toLowerCase(Locale.ROOT) + (migratable ? "-mig" : "-nomig");
        String pod = cluster.runVmi(vmi, strategy, migratable, "node02").getMetadata().getName();
        cluster.awaitBudget(vmi, protectedByPdb);
        assertThat(cluster.client().admissionRegistration().v1().validatingWebhookConfigurations()
                .withName("virt-api-validator").get()).as("the configuration stays while the webhook is down").isNotNull();

        EvictionResult result = cluster.evict(pod);

        if (protectedByPdb) {
            assertThat(result).isEqualTo(new EvictionResult(429, PDB_VIOLATION));
            assertThat(cluster.client().pods().inNamespace("default").withName(pod).get().getMetadata().getDeletionTimestamp()).isNull();
        } else {
            assertThat(result.code()).as(result.message()).isEqualTo(201);
        }
        assertThat(cluster.vmi(vmi).isMarkedForEviction()).as("no evacuation without the webhook").isFalse();
    }
}
