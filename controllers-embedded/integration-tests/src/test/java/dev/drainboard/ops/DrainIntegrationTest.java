package dev.drainboard.ops;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

import static dev.drainboard.ops.OpsTestCluster.WAIT;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

@DisplayName("Drain on the embedded cluster with Drainboard's control plane")
class DrainIntegrationTest {

    private static final String NODE = """
            apiVersion: v1
            kind: Node
            metadata: {name: node01, labels: {kubernetes.io/hostname: node01}}
            ---
            apiVersion: v1
            kind: Namespace
            metadata: {name: demo}
            """;

    private static final String WORKLOADS = NODE + """
            ---
            apiVersion: apps/v1
            kind: ReplicaSet
            metadata: {name: web, namespace: demo, uid: 00000000-0000-0000-0000-000000000001}
            spec:
              replicas: 2
              selector: {matchLabels: {app: web}}
              template:
                metadata: {labels: {app: web}}
                spec: {containers: [{name: c, image: nginx}]}
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
            apiVersion: apps/v1
            kind: DaemonSet
            metadata: {name: exporter, namespace: kube-system, uid: 00000000-0000-0000-0000-000000000003}
            spec:
              selector: {matchLabels: {app: exporter}}
              template:
                metadata: {labels: {app: exporter}}
                spec: {containers: [{name: c, image: exporter}]}
            ---
            apiVersion: policy/v1
            kind: PodDisruptionBudget
            metadata: {name: api, namespace: demo}
            spec:
              minAvailable: 1
              selector: {matchLabels: {app: api}}
            """
            + pod("web-a", "demo", "web", "ReplicaSet", "web", "00000000-0000-0000-0000-000000000001")
            + pod("web-b", "demo", "web", "ReplicaSet", "web", "00000000-0000-0000-0000-000000000001")
            + pod("api-1", "demo", "api", "ReplicaSet", "api", "00000000-0000-0000-0000-000000000002")
            + pod("exporter-node01", "kube-system", "exporter", "DaemonSet", "exporter", "00000000-0000-0000-0000-000000000003");

    /** A pod as its controller made it (a DaemonSet's carries the template generation it was made from). */
    private static String pod(String name, String ns, String app, String kind, String owner, String uid) {
        String labels = kind.equals("DaemonSet") ? app + ", pod-template-generation: \"1\"" : app;
        return """
                ---
                apiVersion: v1
                kind: Pod
                metadata:
                  name: %s
                  namespace: %s
                  labels: {app: %s}
                  ownerReferences: [{apiVersion: apps/v1, kind: %s, name: %s, uid: %s, controller: true, blockOwnerDeletion: true}]
                spec:
                  nodeName: node01
                  terminationGracePeriodSeconds: 5
                  containers: [{name: c, image: nginx}]
                """.formatted(name, ns, labels, kind, owner, uid);
    }

    private static String vmi(String name, String strategy) {
        return """
                ---
                apiVersion: kubevirt.io/v1
                kind: VirtualMachineInstance
                metadata: {name: %s, namespace: demo}
                spec:
                  evictionStrategy: %s
                  nodeSelector: {kubernetes.io/hostname: node01}
                  networks:
                  - name: default
                    pod: {}
                  domain:
                    memory: {guest: 1Gi}
                    resources: {requests: {memory: 1Gi}}
                    devices:
                      interfaces:
                      - name: default
                        masquerade: {}
                  volumes:
                  - name: rootdisk
                    containerDisk: {image: quay.io/containerdisks/alpine:3.20}
                """.formatted(name, strategy);
    }

    @TempDir
    Path dir;

    @Test
    @DisplayName("ReplicaSet pods go, the DaemonSet pod stays, the PDB-held pod goes once the PDB allows it; DRAINED only then")
    void drainsOnceThePdbAllows() throws Exception {
        try (OpsTestCluster c = OpsTestCluster.start(dir, WORKLOADS)) {
            await().atMost(WAIT).until(() -> budgetSettled(c, "api"));
            List<String> leftWhenDrained = new CopyOnWriteArrayList<>();
            // One node: the replacements have nowhere to run (see refusesToStrand); the eviction loop is what is tested.
            DrainOperation drain = c.ops.drain("node01", DrainOptions.defaults().withIgnoreDaemonSets(true).withAllowStranded(true)
                            .withRetryInterval(Duration.ofMinutes(5)), // only events can make it finish in time
                    progress -> progress.result().filter(DrainResult::drained).ifPresent(r ->
                            c.podsOn("node01").forEach(p -> leftWhenDrained.add(p.getMetadata().getName()))));

            await().atMost(WAIT).untilAsserted(() -> {
                DrainProgress now = drain.progress();
                assertThat(state(now, "demo/web-a")).isEqualTo(PodState.GONE);
                assertThat(state(now, "demo/web-b")).isEqualTo(PodState.GONE);
                PodProgress api = pod(now, "demo/api-1");
                assertThat(api.state()).isEqualTo(PodState.BLOCKED);
                assertThat(api.lastCode()).isEqualTo(429);
                assertThat(api.lastMessage()).isEqualTo("Cannot evict pod as it would violate the pod's disruption budget.");
            });
            assertThat(drain.result()).isNotDone();
            assertThat(drain.progress().pods()).extracting(PodProgress::key).doesNotContain("kube-system/exporter-node01");
            assertThat(c.client.nodes().withName("node01").get().getSpec().getUnschedulable()).isTrue();

            c.client.policy().v1().podDisruptionBudget().inNamespace("demo").withName("api")
                    .patch(PatchContext.of(PatchType.JSON_MERGE), "{\"spec\":{\"minAvailable\":0}}");

            DrainResult result = drain.result().get(WAIT.toSeconds(), java.util.concurrent.TimeUnit.SECONDS);
            assertThat(result.status()).as(result.why()).isEqualTo(DrainResult.Status.DRAINED);
            assertThat(result.pods()).allSatisfy(p -> assertThat(p.state()).isEqualTo(PodState.GONE));
            assertThat(leftWhenDrained).containsExactly("exporter-node01");
            assertThat(result.clean()).as("drained, but not clean: the replacements have nowhere to run").isFalse();
            assertThat(result.why()).isEqualTo("node node01 drained: all 3 evicted pods are gone; 3 pods have nowhere to run: "
                    + "demo/api-1, demo/web-a, demo/web-b");
        }
    }

    @Test
    @DisplayName("a PDB that never allows it: TIMED_OUT, not success")
    void timesOut() throws Exception {
        try (OpsTestCluster c = OpsTestCluster.start(dir, WORKLOADS)) {
            await().atMost(WAIT).until(() -> budgetSettled(c, "api"));
            DrainResult result = c.ops.drain("node01", DrainOptions.defaults().withIgnoreDaemonSets(true).withAllowStranded(true)
                    .withTimeout(Duration.ofSeconds(3)).withPodSelector("app=api")).await();
            assertThat(result.status()).isEqualTo(DrainResult.Status.TIMED_OUT);
            assertThat(result.drained()).isFalse();
            assertThat(result.why()).contains("demo/api-1 BLOCKED (Cannot evict pod as it would violate the pod's disruption budget.)");
            assertThat(c.pod("demo", "api-1")).isNotNull();
            assertThat(c.pod("demo", "web-a")).as("the pod selector left it alone").isNotNull();
        }
    }

    @Test
    @DisplayName("a pod that needs --force: FAILED before anything is written")
    void refusesToStart() throws Exception {
        try (OpsTestCluster c = OpsTestCluster.start(dir, WORKLOADS)) {
            DrainResult result = c.ops.drain("node01", DrainOptions.defaults()).await();
            assertThat(result.status()).isEqualTo(DrainResult.Status.FAILED);
            assertThat(result.why()).isEqualTo(
                    "cannot delete DaemonSet-managed Pods (use --ignore-daemonsets to ignore): kube-system/exporter-node01");
            var spec = c.client.nodes().withName("node01").get().getSpec();
            assertThat(spec == null ? null : spec.getUnschedulable()).as("not cordoned").isNotEqualTo(Boolean.TRUE);
        }
    }

    @Test
    @DisplayName("what the drain moves has nowhere to run: FAILED before anything is written, each blocker named")
    void refusesToStrand() throws Exception {
        try (OpsTestCluster c = OpsTestCluster.start(dir, WORKLOADS)) {
            DrainResult result = c.ops.drain("node01", DrainOptions.defaults().withIgnoreDaemonSets(true)).await();
            assertThat(result.status()).isEqualTo(DrainResult.Status.FAILED);
            String nowhere = ": its replacement has nowhere to run: 0/1 nodes are available: 1 node(s) were unschedulable. "
                    + "preemption: 0/1 nodes are available: 1 Preemption is not helpful for scheduling.";
            assertThat(result.why()).isEqualTo("refused to start: 3 blocker(s) (--allow-stranded to drain anyway): "
                    + "Pod demo/api-1" + nowhere + "; Pod demo/web-a" + nowhere + "; Pod demo/web-b" + nowhere);
            var spec = c.client.nodes().withName("node01").get().getSpec();
            assertThat(spec == null ? null : spec.getUnschedulable()).as("not cordoned").isNotEqualTo(Boolean.TRUE);
            assertThat(c.pod("demo", "web-a")).isNotNull();
        }
    }

    @Test
    @DisplayName("a missing node: FAILED naming it")
    void missingNode() throws Exception {
        try (OpsTestCluster c = OpsTestCluster.start(dir, NODE)) {
            DrainResult result = c.ops.drain("node99", DrainOptions.defaults()).await();
            assertThat(result.status()).isEqualTo(DrainResult.Status.FAILED);
            assertThat(result.why()).isEqualTo("node \"node99\" not found");
        }
    }

    @Test
    @DisplayName("a migratable LiveMigrate VMI: the webhook's message verbatim, waiting for the migration until cancelled")
    void waitsForTheMigration() throws Exception {
        try (OpsTestCluster c = OpsTestCluster.start(dir, NODE + vmi("db", "LiveMigrate"))) {
            Pod launcher = c.awaitRunningLauncher("demo", "db");
            await().atMost(WAIT).until(() -> c.client.policy().v1().podDisruptionBudget().inNamespace("demo").list().getItems()
                    .stream().anyMatch(p -> p.getStatus() != null && Integer.valueOf(1).equals(p.getStatus().getCurrentHealthy())));
            String key = "demo/" + launcher.getMetadata().getName();
            Set<String> messages = ConcurrentHashMap.newKeySet();
            // One node: the migration has nowhere to go, so it waits (allowed); the webhook's answers are what is tested.
            DrainOperation drain = c.ops.drain("node01", DrainOptions.defaults().withIgnoreDaemonSets(true).withAllowStranded(true)
                    .withDeleteEmptyDirData(true).withRetryInterval(Duration.ofMillis(500)),
                    progress -> progress.pods().stream().filter(p -> p.key().equals(key)).findFirst()
                            .ifPresent(p -> messages.add(p.lastMessage())));
            String webhook = "admission webhook \"virt-launcher-eviction-interceptor.kubevirt.io\" denied the request: "
                    + "Eviction triggered evacuation of VMI \"demo/db\"";
            await().atMost(WAIT).untilAsserted(() -> {
                assertThat(messages).contains(webhook);
                assertThat(state(drain.progress(), key)).isEqualTo(PodState.WAITING_FOR_MIGRATION);
            });
            await().atMost(WAIT).untilAsserted(() -> {
                PodProgress pod = pod(drain.progress(), key);
                assertThat(pod.attempts()).isGreaterThanOrEqualTo(2);
                assertThat(pod.state()).isEqualTo(PodState.WAITING_FOR_MIGRATION);
                assertThat(pod.lastMessage()).isEqualTo("Cannot evict pod as it would violate the pod's disruption budget.");
            });
            assertThat(drain.progress().preview().pod("demo", launcher.getMetadata().getName()).orElseThrow().outcome())
                    .isEqualTo(PodOutcome.LIVE_MIGRATION);
            assertThat(c.vmi("demo", "db").getStatus().getEvacuationNodeName()).isEqualTo("node01");

            drain.cancel();
            DrainResult result = drain.await();
            assertThat(result.status()).isEqualTo(DrainResult.Status.CANCELLED);
            assertThat(c.pod("demo", launcher.getMetadata().getName())).isNotNull();
        }
    }

    @Test
    @DisplayName("a VMI with strategy None: evicted, DRAINED once its launcher pod is gone")
    void drainsAVmiWithStrategyNone() throws Exception {
        try (OpsTestCluster c = OpsTestCluster.start(dir, NODE + vmi("scratch", "None"))) {
            Pod launcher = c.awaitRunningLauncher("demo", "scratch");
            DrainResult result = c.ops.drain("node01", DrainOptions.defaults().withIgnoreDaemonSets(true)
                    .withDeleteEmptyDirData(true).withTimeout(WAIT)).await();
            assertThat(result.status()).as(result.why()).isEqualTo(DrainResult.Status.DRAINED);
            PodProgress pod = result.pods().getFirst();
            assertThat(pod.key()).isEqualTo("demo/" + launcher.getMetadata().getName());
            assertThat(pod.preview().outcome()).isEqualTo(PodOutcome.EVICTED_VMI_LOST);
            assertThat(pod.state()).isEqualTo(PodState.GONE);
            assertThat(c.pod("demo", launcher.getMetadata().getName())).isNull();
        }
    }

    static boolean budgetSettled(OpsTestCluster c, String name) {
        PodDisruptionBudget pdb = c.client.policy().v1().podDisruptionBudget().inNamespace("demo").withName(name).get();
        return pdb != null && pdb.getStatus() != null && pdb.getStatus().getObservedGeneration() != null
                && pdb.getStatus().getObservedGeneration().equals(pdb.getMetadata().getGeneration())
                && Integer.valueOf(1).equals(pdb.getStatus().getCurrentHealthy());
    }

    static PodProgress pod(DrainProgress progress, String key) {
        return progress.pods().stream().filter(p -> p.key().equals(key)).findFirst()
                .orElseThrow(() -> new AssertionError("no pod " + key + " in " + progress.pods()));
    }

    static PodState state(DrainProgress progress, String key) {
        return pod(progress, key).state();
    }
}
