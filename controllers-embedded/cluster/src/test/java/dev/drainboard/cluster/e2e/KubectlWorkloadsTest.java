package dev.drainboard.cluster.e2e;

import static java.util.concurrent.TimeUnit.SECONDS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The real kubectl against the embedded cluster's workload controllers: {@code kubectl rollout status} for a
 * Deployment, a DaemonSet and a StatefulSet; {@code kubectl drain} evicting Deployment pods that are replaced on
 * other nodes, a second drain waiting on the app's PodDisruptionBudget only until the replacement is ready; daemon
 * pods surviving the cordon and coming back on their node; a StatefulSet ordinal created again under its name.
 */
@DisplayName("kubectl and the workload controllers")
class KubectlWorkloadsTest {

    private static final String PDB_REFUSAL = "Cannot evict pod as it would violate the pod's disruption budget.";

    @TempDir
    static Path workDir;

    private static E2eCluster e2e;
    private static Kubectl kubectl;

    @BeforeAll
    static void startCluster() throws Exception {
        e2e = E2eCluster.start(null, workDir);
        kubectl = e2e.kubectl();
        for (String node : List.of("node01", "node02", "node03", "node04")) {
            kubectl.apply("""
                    apiVersion: v1
                    kind: Node
                    metadata: {name: %s, labels: {kubernetes.io/hostname: %s}}
                    """.formatted(node, node));
        }
        kubectl.apply("""
                apiVersion: v1
                kind: Namespace
                metadata: {name: shop}
                """);
    }

    @AfterAll
    static void stopCluster() {
        if (e2e != null) {
            e2e.close();
        }
    }

    @Test
    @DisplayName("a Deployment rolls out; drains evict its pods, which come back elsewhere; its budget only holds a drain until they are ready")
    void deploymentSurvivesTwoDrains() {
        kubectl.apply("""
                apiVersion: apps/v1
                kind: DaemonSet
                metadata: {name: node-agent, namespace: kube-system}
                spec:
                  selector: {matchLabels: {app: node-agent}}
                  template:
                    metadata: {labels: {app: node-agent}}
                    spec:
                      containers: [{name: agent, image: "agent:1"}]
                ---
                apiVersion: apps/v1
                kind: Deployment
                metadata: {name: web, namespace: shop}
                spec:
                  replicas: 3
                  selector: {matchLabels: {app: web}}
                  template:
                    metadata:
                      labels: {app: web}
                      # Replacements take a moment to become ready, as real ones do.
                      annotations: {sim.drainboard.dev/start-delay: 5s}
                    spec:
                      containers:
                      - name: nginx
                        image: "nginx:1.27"
                        volumeMounts: [{name: cache, mountPath: /cache}]
                      volumes: [{name: cache, emptyDir: {}}]
                ---
                apiVersion: policy/v1
                kind: PodDisruptionBudget
                metadata: {name: web, namespace: shop}
                spec:
                  minAvailable: 2
                  selector: {matchLabels: {app: web}}
                """);

        Kubectl.Result rollout = kubectl.succeed("rollout", "status", "deployment/web", "-n", "shop", "--timeout=60s");
        assertThat(rollout.stdout()).endsWith("deployment \"web\" successfully rolled out\n");
        assertThat(kubectl.succeed("rollout", "status", "ds/node-agent", "-n", "kube-system", "--timeout=60s").stdout())
                .endsWith("daemon set \"node-agent\" successfully rolled out\n");
        await().atMost(30, SECONDS).until(() -> pdb("web").equals("3/1"));

        List<String[]> original = webPods();
        String evicted = original.get(0)[0];
        String first = original.get(0)[1];
        String second = original.stream().map(p -> p[1]).filter(n -> !n.equals(first)).findFirst().orElseThrow();
        Kubectl.Result drain = kubectl.run("drain", first, "--ignore-daemonsets", "--delete-emptydir-data", "--timeout=90s");
        assertThat(drain.exitCode()).as(drain.describe()).isZero();

        // At once, while the replacement is still starting: the budget refuses, then lets the drain finish.
        try (var again = kubectl.start("drain", second, "--ignore-daemonsets", "--delete-emptydir-data", "--timeout=90s")) {
            assertThat(drain.output()).contains("pod/" + evicted + " evicted", "node/" + first + " drained");
            assertThat(webPods()).as("the evicted pod is replaced on another node").hasSize(3)
                    .noneMatch(p -> p[0].equals(evicted) || p[1].equals(first));
            assertThat(kubectl.succeed("get", "pods", "-n", "kube-system", "--field-selector", "spec.nodeName=" + first, "-o", "name").stdout())
                    .as("the daemon pod stays on the cordoned node").startsWith("pod/node-agent-");

            await().atMost(90, SECONDS).until(() -> !again.isRunning());
            assertThat(again.exitCode()).as(again.output()).isZero();
            assertThat(again.output()).contains(PDB_REFUSAL, "node/" + second + " drained");
        }

        assertThat(kubectl.succeed("rollout", "status", "deployment/web", "-n", "shop", "--timeout=60s").stdout())
                .endsWith("deployment \"web\" successfully rolled out\n");
        await().atMost(30, SECONDS).untilAsserted(() -> assertThat(kubectl.succeed("get", "deployment", "web", "-n", "shop", "-o",
                "jsonpath={.status.replicas}/{.status.updatedReplicas}/{.status.readyReplicas}/{.status.availableReplicas}").stdout())
                .isEqualTo("3/3/3/3"));
        assertThat(webPods()).hasSize(3).noneMatch(p -> p[1].equals(first) || p[1].equals(second));
        kubectl.succeed("uncordon", first, second);
    }

    @Test
    @DisplayName("a deleted daemon pod comes back on its node; kubectl rollout status ds/NAME completes")
    void daemonPodComesBackOnItsNode() {
        kubectl.apply("""
                apiVersion: apps/v1
                kind: DaemonSet
                metadata: {name: log-agent, namespace: shop}
                spec:
                  selector: {matchLabels: {app: log-agent}}
                  template:
                    metadata: {labels: {app: log-agent}}
                    spec:
                      containers: [{name: agent, image: "fluent/fluent-bit:3.1"}]
                """);
        assertThat(kubectl.succeed("rollout", "status", "ds/log-agent", "-n", "shop", "--timeout=60s").stdout())
                .endsWith("daemon set \"log-agent\" successfully rolled out\n");
        String victim = kubectl.succeed("get", "pods", "-n", "shop", "-l", "app=log-agent", "--field-selector", "spec.nodeName=node02",
                "-o", "jsonpath={.items[0].metadata.name}").stdout();
        assertThat(kubectl.succeed("get", "pod", victim, "-n", "shop", "-o",
                "jsonpath={.spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchFields[0].values[0]}"
                        + " {.spec.tolerations[?(@.key==\"node.kubernetes.io/unschedulable\")].effect}").stdout())
                .isEqualTo("node02 NoSchedule");

        kubectl.succeed("delete", "pod", victim, "-n", "shop");

        await().atMost(30, SECONDS).untilAsserted(() -> assertThat(kubectl.succeed("get", "pods", "-n", "shop", "-l", "app=log-agent",
                "--field-selector", "spec.nodeName=node02", "-o", "jsonpath={.items[*].metadata.name} {.items[*].status.phase}").stdout())
                .matches("log-agent-\\w{5} Running").doesNotContain(victim));
        assertThat(kubectl.succeed("rollout", "status", "ds/log-agent", "-n", "shop", "--timeout=60s").stdout())
                .endsWith("daemon set \"log-agent\" successfully rolled out\n");
        assertThat(kubectl.succeed("get", "ds", "log-agent", "-n", "shop", "-o",
                "jsonpath={.status.desiredNumberScheduled}/{.status.currentNumberScheduled}/{.status.numberReady}/{.status.updatedNumberScheduled}/{.status.numberAvailable}").stdout())
                .isEqualTo("4/4/4/4/4");
    }

    @Test
    @DisplayName("a StatefulSet's pods come up in order; a deleted ordinal comes back under its name")
    void statefulSetOrdinalsComeBack() {
        kubectl.apply("""
                apiVersion: apps/v1
                kind: StatefulSet
                metadata: {name: db, namespace: shop}
                spec:
                  replicas: 3
                  serviceName: db
                  selector: {matchLabels: {app: db}}
                  template:
                    metadata: {labels: {app: db}}
                    spec:
                      containers: [{name: postgres, image: "postgres:17"}]
                """);
        Kubectl.Result rollout = kubectl.succeed("rollout", "status", "sts/db", "-n", "shop", "--timeout=60s");
        assertThat(rollout.stdout()).endsWith("partitioned roll out complete: 3 new pods have been updated...\n");
        assertThat(kubectl.succeed("get", "pods", "-n", "shop", "-l", "app=db", "-o",
                "jsonpath={range .items[*]}{.metadata.name}:{.metadata.labels.apps\\.kubernetes\\.io/pod-index}:{.spec.hostname} {end}").stdout())
                .isEqualTo("db-0:0:db-0 db-1:1:db-1 db-2:2:db-2 ");
        String uid = kubectl.succeed("get", "pod", "db-1", "-n", "shop", "-o", "jsonpath={.metadata.uid}").stdout();

        kubectl.succeed("delete", "pod", "db-1", "-n", "shop");

        await().atMost(30, SECONDS).untilAsserted(() -> {
            Kubectl.Result pod = kubectl.run("get", "pod", "db-1", "-n", "shop", "-o", "jsonpath={.metadata.uid} {.status.phase}");
            assertThat(pod.exitCode()).isZero();
            assertThat(pod.stdout()).endsWith(" Running").doesNotStartWith(uid);
        });
        assertThat(kubectl.succeed("rollout", "status", "sts/db", "-n", "shop", "--timeout=60s").stdout())
                .endsWith("partitioned roll out complete: 3 new pods have been updated...\n");
        String revisions = kubectl.succeed("get", "sts", "db", "-n", "shop", "-o",
                "jsonpath={.status.currentRevision} {.status.updateRevision} {.status.readyReplicas}").stdout();
        assertThat(revisions).matches("(db-\\w+) \\1 3");
    }

    @Test
    @DisplayName("a ReplicaSet whose pods a webhook refuses reports ReplicaFailure and a FailedCreate event, and recovers")
    void refusedPodsShowAsReplicaFailure() throws Exception {
        kubectl.apply("""
                apiVersion: v1
                kind: Namespace
                metadata: {name: guarded, labels: {guard: "on"}}
                """);
        try (var webhook = new AdmissionWebhookServer(403, "no new pods during the freeze")) {
            kubectl.apply("""
                    apiVersion: admissionregistration.k8s.io/v1
                    kind: ValidatingWebhookConfiguration
                    metadata: {name: pod-freeze}
                    webhooks:
                    - name: freeze.drainboard.dev
                      admissionReviewVersions: ["v1"]
                      sideEffects: None
                      failurePolicy: Fail
                      namespaceSelector: {matchLabels: {guard: "on"}}
                      clientConfig: {url: %s, caBundle: %s}
                      rules: [{operations: ["CREATE"], apiGroups: [""], apiVersions: ["v1"], resources: ["pods"]}]
                    """.formatted(webhook.url(), webhook.caBundle()));
            kubectl.apply("""
                    apiVersion: apps/v1
                    kind: ReplicaSet
                    metadata: {name: api, namespace: guarded}
                    spec:
                      replicas: 2
                      selector: {matchLabels: {app: api}}
                      template:
                        metadata: {labels: {app: api}}
                        spec: {containers: [{name: api, image: "api:1"}]}
                    """);
            await().atMost(30, SECONDS).untilAsserted(() -> assertThat(kubectl.succeed("get", "rs", "api", "-n", "guarded", "-o",
                    "jsonpath={.status.conditions[0].type}/{.status.conditions[0].reason}: {.status.conditions[0].message}").stdout())
                    .startsWith("ReplicaFailure/FailedCreate: admission webhook \"freeze.drainboard.dev\" denied the request")
                    .contains("no new pods during the freeze"));
            assertThat(kubectl.succeed("get", "events", "-n", "guarded", "--field-selector", "reason=FailedCreate", "-o",
                    "jsonpath={.items[0].type} {.items[0].source.component} {.items[0].message}").stdout())
                    .startsWith("Warning replicaset-controller Error creating: admission webhook");
            kubectl.succeed("delete", "validatingwebhookconfiguration", "pod-freeze");
        }
        await().atMost(60, SECONDS).untilAsserted(() -> assertThat(kubectl.succeed("get", "rs", "api", "-n", "guarded", "-o",
                "jsonpath={.status.readyReplicas}/{.status.conditions}").stdout()).isEqualTo("2/"));
    }

    /** The web pods as [name, node], by name. */
    private static List<String[]> webPods() {
        String out = kubectl.succeed("get", "pods", "-n", "shop", "-l", "app=web", "-o",
                "jsonpath={range .items[*]}{.metadata.name}={.spec.nodeName}{\"\\n\"}{end}").stdout();
        return Arrays.stream(out.split("\n")).filter(l -> !l.isBlank()).map(l -> l.split("=", 2)).toList();
    }

    private static String pdb(String name) {
        return kubectl.succeed("get", "pdb", name, "-n", "shop", "-o", "jsonpath={.status.currentHealthy}/{.status.disruptionsAllowed}").stdout();
    }
}
