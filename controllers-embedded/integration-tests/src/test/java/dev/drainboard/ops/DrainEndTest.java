package dev.drainboard.ops;

import dev.drainboard.history.DrainRecord;
import dev.drainboard.history.RecordResult;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static dev.drainboard.ops.OpsTestCluster.WAIT;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * What a CLI drain waits for between its last eviction and its exit, and what it reads before its first one: the
 * drain history's end is written when the drains end (not at the next periodic write), and drains started on
 * previews the caller has read act on those previews (docs/benchmarks.md, "Cold drain from the command line").
 */
@DisplayName("A drain's end and start: the history's end written at once, the caller's preview acted on")
class DrainEndTest {

    private static final String SCENARIO = """
            apiVersion: v1
            kind: Node
            metadata: {name: node01, labels: {kubernetes.io/hostname: node01}}
            ---
            apiVersion: v1
            kind: Node
            metadata: {name: node02, labels: {kubernetes.io/hostname: node02}}
            ---
            apiVersion: v1
            kind: Namespace
            metadata: {name: demo}
            ---
            apiVersion: apps/v1
            kind: ReplicaSet
            metadata: {name: api, namespace: demo, uid: 00000000-0000-0000-0000-000000000002}
            spec:
              replicas: 1
              selector: {matchLabels: {app: api}}
              template:
                metadata: {labels: {app: api}}
                spec: {containers: [{name: c, image: nginx}]}
            ---
            apiVersion: policy/v1
            kind: PodDisruptionBudget
            metadata: {name: api, namespace: demo}
            spec:
              minAvailable: 1
              selector: {matchLabels: {app: api}}
            ---
            apiVersion: v1
            kind: Pod
            metadata:
              name: api-1
              namespace: demo
              labels: {app: api}
              ownerReferences: [{apiVersion: apps/v1, kind: ReplicaSet, name: api, uid: 00000000-0000-0000-0000-000000000002, controller: true, blockOwnerDeletion: true}]
            spec:
              nodeName: node01
              terminationGracePeriodSeconds: 1
              containers: [{name: c, image: nginx}]
            """;

    @TempDir
    Path dir;

    @Test
    @DisplayName("the record's end is written once the drain ends, though the next periodic write is an hour away")
    void endWrittenWhenTheDrainEnds() throws Exception {
        try (OpsTestCluster c = OpsTestCluster.start(dir, SCENARIO)) {
            await().atMost(WAIT).until(() -> DrainIntegrationTest.budgetSettled(c, "api"));
            DrainHistory history = new DrainHistory(c.client, "tester", Duration.ofHours(1));
            DrainOperation drain = c.ops.drain("node01", DrainOptions.defaults().withRetryInterval(Duration.ofMinutes(5)));
            DrainHistory.Recording recording = history.record(List.of(drain), notice -> { });
            await().atMost(WAIT).until(() -> drain.progress().pods().stream().anyMatch(p -> p.state() == PodState.BLOCKED));
            assertThat(recording.written()).as("the drain has not ended").isNotDone();

            c.client.policy().v1().podDisruptionBudget().inNamespace("demo").withName("api")
                    .patch(PatchContext.of(PatchType.JSON_MERGE), "{\"spec\":{\"minAvailable\":0}}");

            assertThat(drain.result().get(WAIT.toSeconds(), TimeUnit.SECONDS).status()).isEqualTo(DrainResult.Status.DRAINED);
            recording.written().get(WAIT.toSeconds(), TimeUnit.SECONDS);
            DrainRecord record = history.store().get(recording.name()).orElseThrow();
            assertThat(record.getStatus().result()).isEqualTo(RecordResult.Drained);
            assertThat(record.getStatus().endedAt()).isNotNull();
        }
    }

    @Test
    @DisplayName("drains started on previews act on those previews: a pod that came after them is not read again")
    void drainsOnTheCallersPreviews() throws Exception {
        try (OpsTestCluster c = OpsTestCluster.start(dir, SCENARIO)) {
            await().atMost(WAIT).until(() -> DrainIntegrationTest.budgetSettled(c, "api"));
            DrainOptions options = DrainOptions.defaults().withAllowStranded(true).withRetryInterval(Duration.ofMinutes(5));
            List<DrainPreview> previews = c.ops.previewAll(List.of("node01"), options);
            assertThat(previews.getFirst().toEvict()).extracting(PodPreview::name).containsExactly("api-1");
            c.client.pods().inNamespace("demo").resource(new PodBuilder().withNewMetadata().withName("late").endMetadata()
                    .withNewSpec().withNodeName("node01").addNewContainer().withName("c").withImage("nginx").endContainer()
                    .endSpec().build()).create();

            List<DrainOperation> drains = c.ops.drainPreviewed(previews, options);

            DrainOperation drain = drains.getFirst();
            await().atMost(WAIT).until(() -> drain.progress().phase() == DrainProgress.Phase.EVICTING || drain.result().isDone());
            assertThat(drain.result()).as("read again, the late pod (no controller, no --force) would refuse the drain").isNotDone();
            assertThat(drain.progress().pods()).extracting(PodProgress::key).containsExactly("demo/api-1");
            assertThat(c.pod("demo", "late")).as("not in the preview: left alone").isNotNull();
            drains.forEach(DrainOperation::cancel);
        }
    }
}
