package dev.drainboard.app;

import dev.drainboard.cluster.EmbeddedCluster;
import dev.drainboard.cluster.EmbeddedClusterOptions;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

@DisplayName("drain, cordon, uncordon, taint and evict commands: output and exit codes")
class OperatorCommandsTest {

    @TempDir
    static Path dir;
    static EmbeddedCluster cluster;
    static KubernetesClient client;
    static String kubeconfig;

    @BeforeAll
    static void start() throws Exception {
        Path scenario = dir.resolve("scenario.yaml");
        StringBuilder yaml = new StringBuilder("""
                apiVersion: v1
                kind: Namespace
                metadata: {name: demo}
                ---
                apiVersion: apps/v1
                kind: ReplicaSet
                metadata: {name: web, namespace: demo, uid: 00000000-0000-0000-0000-000000000001}
                spec:
                  replicas: 2
                  selector: {matchLabels: {app: web}}
                  template: {metadata: {labels: {app: web}}, spec: {containers: [{name: c, image: nginx}]}}
                ---
                apiVersion: apps/v1
                kind: ReplicaSet
                metadata: {name: api, namespace: demo, uid: 00000000-0000-0000-0000-000000000002}
                spec:
                  replicas: 1
                  selector: {matchLabels: {app: api}}
                  template: {metadata: {labels: {app: api}}, spec: {containers: [{name: c, image: nginx}]}}
                ---
                apiVersion: apps/v1
                kind: DaemonSet
                metadata: {name: exporter, namespace: kube-system, uid: 00000000-0000-0000-0000-000000000003}
                spec:
                  selector: {matchLabels: {app: exporter}}
                  template: {metadata: {labels: {app: exporter}}, spec: {containers: [{name: c, image: exporter}]}}
                ---
                apiVersion: policy/v1
                kind: PodDisruptionBudget
                metadata: {name: api, namespace: demo}
                spec: {minAvailable: 1, selector: {matchLabels: {app: api}}}
                """);
        for (String node : new String[]{"node01", "node02", "node03"}) {
            yaml.append("---\napiVersion: v1\nkind: Node\nmetadata: {name: ").append(node).append("}\n");
            yaml.append(pod("exporter-" + node, "kube-system", "exporter", node, "DaemonSet", "exporter", "00000000-0000-0000-0000-000000000003"));
        }
        yaml.append(pod("web-a", "demo", "web", "node01", "ReplicaSet", "web", "00000000-0000-0000-0000-000000000001"));
        yaml.append(pod("web-b", "demo", "web", "node01", "ReplicaSet", "web", "00000000-0000-0000-0000-000000000001"));
        yaml.append(pod("api-1", "demo", "api", "node02", "ReplicaSet", "api", "00000000-0000-0000-0000-000000000002"));
        yaml.append("""
                ---
                apiVersion: v1
                kind: Pod
                metadata: {name: lonely, namespace: demo}
                spec: {nodeName: node03, containers: [{name: c, image: nginx}]}
                """);
        Files.writeString(scenario, yaml.toString());
        cluster = EmbeddedCluster.start(EmbeddedClusterOptions.defaults().withScenario(scenario.toString()).withPort(0)
                .withKubeconfigOut(dir.resolve("kubeconfig")));
        kubeconfig = cluster.kubeconfig().toString();
        client = new KubernetesClientBuilder().withConfig(Config.fromKubeconfig(Files.readString(cluster.kubeconfig()))).build();
        await().atMost(Duration.ofSeconds(30)).until(() -> {
            var pdb = client.policy().v1().podDisruptionBudget().inNamespace("demo").withName("api").get();
            return pdb.getStatus() != null && Integer.valueOf(1).equals(pdb.getStatus().getCurrentHealthy());
        });
    }

    /** A pod as its controller made it (a DaemonSet's carries the template generation it was made from). */
    private static String pod(String name, String ns, String app, String node, String kind, String owner, String uid) {
        String labels = kind.equals("DaemonSet") ? app + ", pod-template-generation: \"1\"" : app;
        return """
                ---
                apiVersion: v1
                kind: Pod
                metadata:
                  name: %s
                  namespace: %s
                  labels: {app: %s}
                  ownerReferences: [{apiVersion: apps/v1, kind: %s, name: %s, uid: %s, controller: true}]
                spec: {nodeName: %s, terminationGracePeriodSeconds: 2, containers: [{name: c, image: nginx}]}
                """.formatted(name, ns, labels, kind, owner, uid, node);
    }

    @AfterAll
    static void stop() {
        client.close();
        cluster.close();
    }

    record Run(int exitCode, String out, String err) {
    }

    static Run run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine commandLine = new CommandLine(new DrainboardCommand());
        commandLine.setOut(new PrintWriter(out));
        commandLine.setErr(new PrintWriter(err));
        int code = commandLine.execute(args);
        return new Run(code, out.toString(), err.toString());
    }

    @Test
    void serveRefusesAFaultShareOutsideZeroToOne() {
        Run run = run("serve", "--port", "0", "--inject-faults", "1.5");
        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.err()).contains("drainboard serve: --inject-faults must be a share between 0 and 1, got 1.5");
    }

    @Test
    void drainsANodeAndExitsZero() {
        Run run = run("drain", "node01", "--kubeconfig", kubeconfig, "--ignore-daemonsets", "--timeout", "60s");
        assertThat(run.exitCode()).as(run.err()).isEqualTo(0);
        assertThat(run.out()).contains("node/node01 cordoned: ", "demo/web-a", "GONE", "evicted", "node/node01 drained");
        assertThat(client.pods().inNamespace("demo").withName("web-a").get()).isNull();
        assertThat(client.pods().inNamespace("kube-system").withName("exporter-node01").get()).isNotNull();
    }

    @Test
    void timeoutExitsOne() {
        Run run = run("drain", "node02", "--kubeconfig", kubeconfig, "--ignore-daemonsets", "--timeout", "2s");
        assertThat(run.exitCode()).isEqualTo(1);
        assertThat(run.out()).contains("demo/api-1", "BLOCKED", "Cannot evict pod as it would violate the pod's disruption budget.");
        assertThat(run.err()).contains("error: drain of node/node02 TIMED_OUT: timed out after 2s with 1 pod(s) left")
                .contains("demo/api-1 is BLOCKED: PodDisruptionBudget demo/api allows no disruption now");
        assertThat(run.out()).doesNotContain("drained");
    }

    @Test
    void dryRunPrintsThePreviewAndWritesNothing() {
        Run run = run("drain", "node03", "--kubeconfig", kubeconfig, "--dry-run", "--ignore-daemonsets", "--force");
        assertThat(run.exitCode()).as(run.err()).isEqualTo(0);
        assertThat(run.out()).contains("POD", "OUTCOME", "REASON")
                .contains("kube-system/exporter-node03").contains("SKIPPED_DAEMONSET")
                .contains("demo/lonely").contains("declares no controller: evicted and gone for good (--force)");
        var spec = client.nodes().withName("node03").get().getSpec();
        assertThat(spec == null ? null : spec.getUnschedulable()).isNotEqualTo(Boolean.TRUE);
    }

    @Test
    void dryRunNamesWhatKubectlWouldRefuse() {
        Run run = run("drain", "node03", "--kubeconfig", kubeconfig, "--dry-run");
        assertThat(run.exitCode()).isEqualTo(1);
        assertThat(run.out()).contains("NEEDS_FORCE", "NEEDS_IGNORE_DAEMONSETS",
                "error: cannot delete Pods that declare no controller (use --force to override): demo/lonely");
    }

    @Test
    void refusedDrainExitsOneWithoutCordoning() {
        Run run = run("drain", "node03", "--kubeconfig", kubeconfig, "--ignore-daemonsets");
        assertThat(run.exitCode()).isEqualTo(1);
        assertThat(run.err()).contains("cannot delete Pods that declare no controller (use --force to override): demo/lonely");
    }

    @Test
    void missingNodeExitsOne() {
        Run run = run("drain", "node99", "--kubeconfig", kubeconfig);
        assertThat(run.exitCode()).isEqualTo(1);
        assertThat(run.err()).contains("node \"node99\" not found");
        assertThat(run("cordon", "node99", "--kubeconfig", kubeconfig).err()).contains("drainboard cordon: node \"node99\" not found");
    }

    @Test
    void badKubeconfigAndUnreachableClusterExitOne() throws Exception {
        Run missing = run("drain", "node01", "--kubeconfig", dir.resolve("nope").toString());
        assertThat(missing.exitCode()).isEqualTo(1);
        assertThat(missing.err()).isEqualTo("drainboard drain: kubeconfig " + dir.resolve("nope") + " does not exist\n");

        Run context = run("drain", "node01", "--kubeconfig", kubeconfig, "--context", "elsewhere");
        assertThat(context.exitCode()).isEqualTo(1);
        assertThat(context.err()).isEqualTo("drainboard drain: context \"elsewhere\" not found in " + kubeconfig
                + " (contexts: drainboard-embedded)\n");

        Path unreachable = dir.resolve("unreachable");
        Files.writeString(unreachable, """
                apiVersion: v1
                kind: Config
                clusters: [{name: c, cluster: {server: "https://127.0.0.1:1", insecure-skip-tls-verify: true}}]
                users: [{name: u, user: {token: x}}]
                contexts: [{name: x, context: {cluster: c, user: u}}]
                current-context: x
                """);
        Run down = run("drain", "node01", "--kubeconfig", unreachable.toString());
        assertThat(down.exitCode()).isEqualTo(1);
        assertThat(down.err()).contains("cannot reach the cluster at https://127.0.0.1:1");
    }

    @Test
    @DisplayName("a kubeconfig that names what it lacks: what is wrong, exit 1, never fabric8's in-cluster fallback")
    void kubeconfigsThatNameWhatTheyLackExitOne() throws Exception {
        String cluster = "clusters: [{name: c, cluster: {server: \"https://127.0.0.1:1\"}}]\n";
        String users = "users: [{name: u, user: {token: s3cr3t}}]\n";
        Path file = dir.resolve("lacking");
        for (String[] row : new String[][]{
                {cluster + users + "contexts: [{name: a, context: {cluster: c, user: u}}, {name: b, context: {cluster: c, user: u}}]\n"
                        + "current-context: foo\n", "current-context \"foo\" in F names no context (contexts: a, b)"},
                {cluster + users + "contexts: [{name: a, context: {cluster: gone, user: u}}]\ncurrent-context: a\n",
                        "context \"a\" in F names cluster \"gone\", which is not in the file (clusters: c)"},
                {cluster + users + "contexts: [{name: a, context: {cluster: c, user: gone}}]\ncurrent-context: a\n",
                        "context \"a\" in F names user \"gone\", which is not in the file (users: u)"},
                {cluster + "users:\n- name: u\n  user:\n    token: s3cr3t\n   x: [\n", "kubeconfig F is not valid YAML: "},
                // Base64, but of no certificate: fabric8 reads it only when it builds the client.
                {cluster + "users: [{name: u, user: {client-certificate-data: bm90IGEgY2VydA==, client-key-data: czNjcjN0}}]\n"
                        + "contexts: [{name: a, context: {cluster: c, user: u}}]\ncurrent-context: a\n",
                        "cannot use the credentials of kubeconfig F: "}}) {
            Files.writeString(file, row[0]);
            for (String command : new String[]{"drain", "cordon", "taint"}) {
                Run run = command.equals("taint") ? run("taint", "node01", "k=v:NoSchedule", "--kubeconfig", file.toString())
                        : run(command, "node01", "--kubeconfig", file.toString());
                assertThat(run.exitCode()).as(run.err()).isEqualTo(1);
                assertThat(run.err()).startsWith("drainboard " + command + ": " + row[1].replace(" F", " " + file))
                        .doesNotContain("kubernetes.default.svc", "s3cr3t");
            }
        }
    }

    @Test
    void usageErrorsExitTwo() {
        assertThat(run("drain", "--kubeconfig", kubeconfig).exitCode()).isEqualTo(2);
        assertThat(run("drain", "node01").exitCode()).isEqualTo(2);
        Run timeout = run("drain", "node01", "--kubeconfig", kubeconfig, "--timeout", "soon");
        assertThat(timeout.exitCode()).isEqualTo(2);
        assertThat(timeout.err()).contains("invalid duration \"soon\"");
        Run taint = run("taint", "node01", "bad key=1:NoSchedule", "--kubeconfig", kubeconfig);
        assertThat(taint.exitCode()).isEqualTo(2);
        assertThat(taint.err()).contains("drainboard taint: invalid taint spec: bad key=1:NoSchedule, name part");
        // No effect: kubectl reads "k1=v" as a key, and says the key is not one.
        Run noEffect = run("taint", "node01", "k1=v", "--kubeconfig", kubeconfig);
        assertThat(noEffect.exitCode()).isEqualTo(2);
        assertThat(noEffect.err()).startsWith("drainboard taint: invalid taint spec: k1=v, name part must consist of");
        Run badRemoval = run("taint", "node01", "k1=v-", "--kubeconfig", kubeconfig);
        assertThat(badRemoval.exitCode()).isEqualTo(2);
        assertThat(badRemoval.err()).startsWith("drainboard taint: invalid taint spec: k1=v, name part must consist of");
    }

    @Test
    void cordonUncordonTaintUntaint() {
        assertThat(run("cordon", "node03", "--kubeconfig", kubeconfig).out()).isEqualTo("node/node03 cordoned\n");
        assertThat(run("uncordon", "node03", "--kubeconfig", kubeconfig).out()).isEqualTo("node/node03 uncordoned\n");
        Run taint = run("taint", "node03", "kubevirt.io/drain:NoSchedule", "--kubeconfig", kubeconfig);
        assertThat(taint.exitCode()).isEqualTo(0);
        assertThat(taint.out()).isEqualTo("node/node03 tainted\n");
        Run again = run("taint", "node03", "kubevirt.io/drain:NoSchedule", "--kubeconfig", kubeconfig);
        assertThat(again.exitCode()).isEqualTo(1);
        assertThat(again.err()).contains("already has kubevirt.io/drain taint(s) with same effect(s) and --overwrite is false");
        assertThat(run("taint", "node03", "kubevirt.io/drain:NoSchedule-", "--kubeconfig", kubeconfig).out())
                .isEqualTo("node/node03 untainted\n");
    }

    @Test
    void evictPrintsTheAnswer() {
        Run missing = run("evict", "nothere", "-n", "demo", "--kubeconfig", kubeconfig);
        assertThat(missing.exitCode()).isEqualTo(1);
        assertThat(missing.err()).contains("(HTTP 404): pods \"nothere\" not found");
        Run dry = run("evict", "lonely", "-n", "demo", "--dry-run", "--kubeconfig", kubeconfig);
        assertThat(dry.exitCode()).isEqualTo(0);
        assertThat(dry.out()).contains("pod/lonely evicted (dry run)");
    }
}
