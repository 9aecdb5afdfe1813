package dev.drainboard.cluster.e2e;

import static java.util.concurrent.TimeUnit.SECONDS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.drainboard.testing.RequiresKubectl;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What an operator types around a maintenance window, run with the real kubectl against the
 * embedded cluster loaded with the built-in demo scenario. Each test works on its own objects.
 */
@DisplayName("kubectl against the embedded cluster: everyday commands")
@RequiresKubectl
class KubectlEverydayCommandsTest {

    @TempDir
    static Path workDir;

    private static E2eCluster e2e;
    private static Kubectl kubectl;

    @BeforeAll
    static void startCluster() throws Exception {
        e2e = E2eCluster.startWithKubectl("demo", workDir);
        kubectl = e2e.kubectl();
    }

    @AfterAll
    static void stopCluster() {
        if (e2e != null) {
            e2e.close();
        }
    }

    @Test
    @DisplayName("api-resources lists the built-in types with their short names and groups")
    void apiResources() {
        var result = kubectl.succeed("api-resources");

        assertThat(result.stdout().lines().findFirst()).get().asString()
                .contains("NAME", "SHORTNAMES", "APIVERSION", "NAMESPACED", "KIND");
        assertThat(result.stdout()).containsPattern("pods\\s+po\\s+v1\\s+true\\s+Pod")
                .containsPattern("nodes\\s+no\\s+v1\\s+false\\s+Node")
                .containsPattern("poddisruptionbudgets\\s+pdb\\s+policy/v1\\s+true\\s+PodDisruptionBudget")
                .containsPattern("daemonsets\\s+ds\\s+apps/v1\\s+true\\s+DaemonSet")
                .contains("customresourcedefinitions", "validatingwebhookconfigurations", "leases");
    }

    @Test
    @DisplayName("get nodes -o wide prints the wide node columns")
    void getNodesWide() {
        var result = kubectl.succeed("get", "nodes", "-o", "wide");

        assertThat(columns(result.stdout().lines().findFirst().orElseThrow())).containsExactly(
                "NAME", "STATUS", "ROLES", "AGE", "VERSION", "INTERNAL-IP", "EXTERNAL-IP", "OS-IMAGE",
                "KERNEL-VERSION", "CONTAINER-RUNTIME");
        assertThat(result.stdout()).containsPattern("node01\\s+Ready\\s+control-plane\\s+")
                .containsPattern("node02\\s+Ready\\s+worker\\s+");
    }

    @Test
    @DisplayName("get pods -o wide prints the wide pod columns with IP and node")
    void getPodsWide() {
        var result = kubectl.succeed("get", "pods", "-n", "demo", "-o", "wide");

        assertThat(columns(result.stdout().lines().findFirst().orElseThrow())).containsExactly(
                "NAME", "READY", "STATUS", "RESTARTS", "AGE", "IP", "NODE", "NOMINATED", "NODE", "READINESS", "GATES");
        assertThat(result.stdout()).containsPattern("web-6b9d8f7c5-r8vzq\\s+1/1\\s+Running\\s+0\\s+\\S+\\s+[0-9.]+\\s+node02\\s+<none>");
    }

    @Test
    @DisplayName("describe node shows its pods, allocation and events sections without errors")
    void describeNode() {
        var result = kubectl.succeed("describe", "node", "node02");

        assertThat(result.stderr()).isEmpty();
        assertThat(result.stdout()).contains("Name:               node02", "Conditions:", "Non-terminated Pods:",
                "web-6b9d8f7c5-r8vzq", "node-exporter-node02", "Allocated resources:", "Events:");
    }

    @Test
    @DisplayName("describe pod shows its containers, conditions and events sections without errors")
    void describePod() {
        var result = kubectl.succeed("describe", "pod", "-n", "demo", "web-6b9d8f7c5-r8vzq");

        assertThat(result.stderr()).isEmpty();
        String nodeIp = kubectl.succeed("get", "node", "node02",
                "-o", "jsonpath={.status.addresses[?(@.type==\"InternalIP\")].address}").stdout();
        assertThat(result.stdout()).containsPattern("Name:\\s+web-6b9d8f7c5-r8vzq\n").containsPattern("Status:\\s+Running\n")
                .containsPattern("Node:\\s+node02/" + nodeIp.replace(".", "\\.") + "\n")
                .containsPattern("Port:\\s+80/TCP\n")
                .contains("Containers:", "nginx:", "Conditions:", "Ready", "Events:");
    }

    @Test
    @DisplayName("apply of a file: created, then unchanged, then configured")
    void applyCreatedUnchangedConfigured() throws Exception {
        Path manifest = workDir.resolve("settings.yaml");
        Files.writeString(manifest, configMap("apply-settings", "blue"));

        assertThat(kubectl.succeed("apply", "-f", manifest.toString()).stdout())
                .isEqualTo("configmap/apply-settings created\n");
        assertThat(kubectl.succeed("apply", "-f", manifest.toString()).stdout())
                .isEqualTo("configmap/apply-settings unchanged\n");

        Files.writeString(manifest, configMap("apply-settings", "green"));
        assertThat(kubectl.succeed("apply", "-f", manifest.toString()).stdout())
                .isEqualTo("configmap/apply-settings configured\n");
        assertThat(kubectl.succeed("get", "configmap", "-n", "demo", "apply-settings", "-o", "jsonpath={.data.colour}").stdout())
                .isEqualTo("green");
    }

    @Test
    @DisplayName("label add and remove")
    void labelAddAndRemove() {
        createPod("labelled", "node03");

        assertThat(kubectl.succeed("label", "pod", "-n", "demo", "labelled", "a=b").stdout()).isEqualTo("pod/labelled labeled\n");
        assertThat(jsonPath("pod", "labelled", "{.metadata.labels.a}")).isEqualTo("b");

        assertThat(kubectl.succeed("label", "pod", "-n", "demo", "labelled", "a-").stdout()).isEqualTo("pod/labelled unlabeled\n");
        assertThat(jsonPath("pod", "labelled", "{.metadata.labels}")).doesNotContain("\"a\"").contains("\"app\":\"labelled\"");
    }

    @Test
    @DisplayName("annotate add and remove")
    void annotateAddAndRemove() {
        createPod("annotated", "node03");

        assertThat(kubectl.succeed("annotate", "pod", "-n", "demo", "annotated", "owner=ops").stdout())
                .isEqualTo("pod/annotated annotated\n");
        assertThat(jsonPath("pod", "annotated", "{.metadata.annotations.owner}")).isEqualTo("ops");

        kubectl.succeed("annotate", "pod", "-n", "demo", "annotated", "owner-");
        assertThat(jsonPath("pod", "annotated", "{.metadata.annotations}")).doesNotContain("owner");
    }

    @Test
    @DisplayName("removing the last label leaves no empty labels map behind, as kube-apiserver stores it")
    void removingTheLastLabelLeavesNoEmptyMap() throws Exception {
        Path manifest = workDir.resolve("plain.yaml");
        Files.writeString(manifest, configMap("plain", "grey"));
        kubectl.succeed("create", "-f", manifest.toString());

        kubectl.succeed("label", "configmap", "-n", "demo", "plain", "owner=ops");
        kubectl.succeed("label", "configmap", "-n", "demo", "plain", "owner-");

        assertThat(kubectl.succeed("get", "configmap", "-n", "demo", "plain", "-o", "json").stdout()).doesNotContain("\"labels\"");
    }

    @Test
    @DisplayName("taint add and remove changes spec.taints")
    void taintAddAndRemove() {
        assertThat(kubectl.succeed("taint", "nodes", "node03", "dedicated=infra:NoSchedule").stdout())
                .isEqualTo("node/node03 tainted\n");
        assertThat(kubectl.succeed("get", "node", "node03", "-o", "jsonpath={.spec.taints}").stdout())
                .isEqualTo("[{\"effect\":\"NoSchedule\",\"key\":\"dedicated\",\"value\":\"infra\"}]");

        assertThat(kubectl.succeed("taint", "nodes", "node03", "dedicated=infra:NoSchedule-").stdout())
                .isEqualTo("node/node03 untainted\n");
        assertThat(kubectl.succeed("get", "node", "node03", "-o", "jsonpath={.spec.taints}").stdout()).isEmpty();
    }

    @Test
    @DisplayName("cordon and uncordon toggle spec.unschedulable and the SchedulingDisabled status")
    void cordonAndUncordon() {
        assertThat(kubectl.succeed("cordon", "node04").stdout()).isEqualTo("node/node04 cordoned\n");
        assertThat(kubectl.succeed("get", "node", "node04").stdout()).contains("Ready,SchedulingDisabled");
        assertThat(kubectl.succeed("get", "node", "node04", "-o", "jsonpath={.spec.unschedulable}").stdout()).isEqualTo("true");

        assertThat(kubectl.succeed("uncordon", "node04").stdout()).isEqualTo("node/node04 uncordoned\n");
        assertThat(kubectl.succeed("get", "node", "node04").stdout()).doesNotContain("SchedulingDisabled");
        assertThat(kubectl.succeed("get", "node", "node04", "-o", "jsonpath={.spec.unschedulable}").stdout()).isEmpty();
    }

    @Test
    @DisplayName("patch with a strategic merge patch (the default) merges containers by name")
    void strategicMergePatch() {
        createPod("patched-smp", "node03");

        kubectl.succeed("patch", "pod", "-n", "demo", "patched-smp",
                "-p", "{\"metadata\":{\"labels\":{\"tier\":\"front\"}},\"spec\":{\"containers\":[{\"name\":\"main\",\"image\":\"busybox:1.37\"}]}}");

        assertThat(jsonPath("pod", "patched-smp", "{.metadata.labels.tier} {.spec.containers[*].name} {.spec.containers[0].image}"))
                .isEqualTo("front main busybox:1.37");
        assertThat(jsonPath("pod", "patched-smp", "{.spec.containers[0].command}")).contains("sleep");
    }

    @Test
    @DisplayName("patch --type merge: null removes a key")
    void mergePatch() {
        createPod("patched-merge", "node03");
        kubectl.succeed("label", "pod", "-n", "demo", "patched-merge", "temporary=yes");

        kubectl.succeed("patch", "pod", "-n", "demo", "patched-merge", "--type", "merge",
                "-p", "{\"metadata\":{\"labels\":{\"temporary\":null,\"tier\":\"back\"}}}");

        assertThat(jsonPath("pod", "patched-merge", "{.metadata.labels}"))
                .contains("\"tier\":\"back\"").doesNotContain("temporary");
    }

    @Test
    @DisplayName("patch --type json applies RFC 6902 operations")
    void jsonPatch() {
        createPod("patched-json", "node03");

        kubectl.succeed("patch", "pod", "-n", "demo", "patched-json", "--type", "json",
                "-p", "[{\"op\":\"add\",\"path\":\"/metadata/labels/tier\",\"value\":\"db\"},"
                        + "{\"op\":\"replace\",\"path\":\"/spec/containers/0/image\",\"value\":\"busybox:1.38\"}]");

        assertThat(jsonPath("pod", "patched-json", "{.metadata.labels.tier} {.spec.containers[0].image}"))
                .isEqualTo("db busybox:1.38");
    }

    @Test
    @DisplayName("patch --type json with a failing test operation is refused")
    void jsonPatchTestFails() {
        createPod("patched-json-test", "node03");

        var result = kubectl.run("patch", "pod", "-n", "demo", "patched-json-test", "--type", "json",
                "-p", "[{\"op\":\"test\",\"path\":\"/metadata/labels/app\",\"value\":\"other\"}]");

        // kube-apiserver answers a failed test operation with a bare 422, which kubectl prints this way.
        assertThat(result.exitCode()).as(result.describe()).isNotZero();
        assertThat(result.stderr()).contains("The request is invalid");
        assertThat(jsonPath("pod", "patched-json-test", "{.metadata.labels.app}")).isEqualTo("patched-json-test");
    }

    @Test
    @DisplayName("get -w sees a label change made by another kubectl")
    void watchSeesAChange() {
        createPod("watched", "node04");
        try (var watch = kubectl.start("get", "pods", "-n", "demo", "-w", "--show-labels")) {
            await().atMost(30, SECONDS).until(() -> watch.output().contains("watched"));

            kubectl.succeed("label", "pod", "-n", "demo", "watched", "seen=yes");

            await().atMost(30, SECONDS).untilAsserted(() ->
                    assertThat(watch.output()).containsPattern("watched\\s.*seen=yes"));
            assertThat(watch.isRunning()).as(watch.output()).isTrue();
        }
    }

    @Test
    @DisplayName("wait --for=condition=Ready returns once the pod is ready")
    void waitForReady() {
        createPod("awaited", "node02");

        var result = kubectl.succeed("wait", "--for=condition=Ready", "pod/awaited", "-n", "demo", "--timeout=45s");

        assertThat(result.stdout()).isEqualTo("pod/awaited condition met\n");
    }

    @Test
    @DisplayName("label selector with in")
    void labelSelectorIn() {
        createPod("sel-web", "node02", "app: sel-web", "tier: front");
        createPod("sel-db", "node02", "app: sel-db", "tier: back");
        createPod("sel-cache", "node02", "app: sel-cache", "tier: cache");

        var result = kubectl.succeed("get", "pods", "-n", "demo", "-l", "app in (sel-web,sel-db)", "-o", "name");

        assertThat(result.stdout().lines()).containsExactlyInAnyOrder("pod/sel-web", "pod/sel-db");
    }

    @Test
    @DisplayName("label selector with notin and exists")
    void labelSelectorNotIn() {
        createPod("nsel-web", "node02", "app: nsel-web", "tier: front");
        createPod("nsel-cache", "node02", "app: nsel-cache", "tier: cache");

        var result = kubectl.succeed("get", "pods", "-n", "demo", "-l", "tier,tier notin (cache),app in (nsel-web,nsel-cache)", "-o", "name");

        assertThat(result.stdout().lines()).containsExactly("pod/nsel-web");
    }

    @Test
    @DisplayName("field selector spec.nodeName lists the pods of one node")
    void fieldSelectorNodeName() {
        var result = kubectl.succeed("get", "pods", "-A", "--field-selector", "spec.nodeName=node02", "-o", "name");

        assertThat(result.stdout().lines()).contains("pod/web-6b9d8f7c5-r8vzq", "pod/node-exporter-node02")
                .doesNotContain("pod/web-6b9d8f7c5-kx2lp", "pod/node-exporter-node01");
    }

    @Test
    @DisplayName("an unsupported field selector is an error, not an unfiltered list")
    void unsupportedFieldSelector() {
        var result = kubectl.run("get", "pods", "-A", "--field-selector", "spec.hostname=web");

        assertThat(result.exitCode()).as(result.describe()).isNotZero();
        assertThat(result.stdout()).isEmpty();
        assertThat(result.stderr()).contains("Error from server (BadRequest)", "field label not supported: spec.hostname");
    }

    @Test
    @DisplayName("delete --grace-period marks the pod terminating with that grace period")
    void deleteWithGracePeriod() {
        kubectl.apply(pod("graceful", "node04", List.of("app: graceful"), "sim.drainboard.dev/shutdown-delay: 1h"));
        kubectl.succeed("wait", "--for=condition=Ready", "pod/graceful", "-n", "demo", "--timeout=45s");

        var result = kubectl.succeed("delete", "pod", "-n", "demo", "graceful", "--grace-period=3", "--wait=false");

        assertThat(result.stdout()).isEqualTo("pod \"graceful\" deleted\n");
        assertThat(jsonPath("pod", "graceful", "{.metadata.deletionGracePeriodSeconds}")).isEqualTo("3");
        assertThat(kubectl.succeed("get", "pod", "-n", "demo", "graceful").stdout()).contains("Terminating");
        // The simulated container ignores SIGTERM for an hour, so it is killed when the grace period ends.
        await().atMost(45, SECONDS).untilAsserted(() ->
                assertThat(kubectl.run("get", "pod", "-n", "demo", "graceful").stderr()).contains("NotFound"));
    }

    @Test
    @DisplayName("delete --grace-period=0 --force removes the pod at once")
    void deleteForce() {
        createPod("forced", "node04");

        var result = kubectl.succeed("delete", "pod", "-n", "demo", "forced", "--grace-period=0", "--force");

        assertThat(result.output()).contains("pod \"forced\" force deleted");
        assertThat(kubectl.run("get", "pod", "-n", "demo", "forced").stderr()).contains("NotFound");
    }

    @Test
    @DisplayName("--dry-run=server create leaves nothing behind")
    void dryRunCreate() {
        var result = kubectl.succeed("run", "dry-pod", "-n", "demo", "--image=busybox:1.36", "--dry-run=server");

        assertThat(result.stdout()).isEqualTo("pod/dry-pod created (server dry run)\n");
        assertThat(kubectl.run("get", "pod", "-n", "demo", "dry-pod").stderr())
                .contains("Error from server (NotFound): pods \"dry-pod\" not found");
    }

    @Test
    @DisplayName("--dry-run=server delete leaves the object in place")
    void dryRunDelete() {
        createPod("dry-delete", "node04");

        var result = kubectl.succeed("delete", "pod", "-n", "demo", "dry-delete", "--dry-run=server");

        assertThat(result.stdout()).isEqualTo("pod \"dry-delete\" deleted (server dry run)\n");
        assertThat(jsonPath("pod", "dry-delete", "{.metadata.deletionTimestamp}")).isEmpty();
        assertThat(kubectl.succeed("get", "pod", "-n", "demo", "dry-delete").stdout()).contains("Running");
    }

    @Test
    @DisplayName("replace with a stale resourceVersion gives kubectl's conflict message")
    void staleReplaceConflicts() throws Exception {
        kubectl.apply(configMap("contested", "red"));
        Path stale = workDir.resolve("contested.yaml");
        Files.writeString(stale, kubectl.succeed("get", "configmap", "-n", "demo", "contested", "-o", "yaml").stdout());
        kubectl.succeed("label", "configmap", "-n", "demo", "contested", "changed=meanwhile");

        var result = kubectl.run("replace", "-f", stale.toString());

        assertThat(result.exitCode()).as(result.describe()).isNotZero();
        assertThat(result.stderr()).contains("Error from server (Conflict)",
                "Operation cannot be fulfilled on configmaps \"contested\": the object has been modified; "
                        + "please apply your changes to the latest version and try again");
        assertThat(jsonPath("configmap", "contested", "{.metadata.labels.changed}")).isEqualTo("meanwhile");
    }

    @Test
    @DisplayName("get --chunk-size=2 lists every object across pages")
    void chunkedList() {
        for (int i = 1; i <= 5; i++) {
            kubectl.apply(configMap("chunk-" + i, "c" + i));
        }

        var result = kubectl.succeed("get", "configmaps", "-n", "demo", "--chunk-size=2", "-o", "name");

        assertThat(result.stdout().lines().filter(line -> line.startsWith("configmap/chunk-")))
                .containsExactly("configmap/chunk-1", "configmap/chunk-2", "configmap/chunk-3", "configmap/chunk-4", "configmap/chunk-5");
        var table = kubectl.succeed("get", "pods", "-A", "--chunk-size=2");
        assertThat(table.stdout().lines().filter(line -> line.startsWith("NAMESPACE"))).hasSize(1);
        assertThat(table.stdout()).contains("node-exporter-node01", "node-exporter-node04", "web-6b9d8f7c5-kx2lp", "web-6b9d8f7c5-r8vzq");
    }

    @Test
    @DisplayName("kubectl run creates the pod it describes")
    void kubectlRun() {
        var result = kubectl.succeed("run", "imperative", "-n", "demo", "--image=busybox:1.36", "--labels=made=by-run");

        assertThat(result.stdout()).isEqualTo("pod/imperative created\n");
        assertThat(jsonPath("pod", "imperative", "{.spec.containers[0].image} {.metadata.labels.made}"))
                .isEqualTo("busybox:1.36 by-run");
        // The scheduler binds it to a node, whose kubelet runs it.
        org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(30))
                .until(() -> jsonPath("pod", "imperative", "{.status.phase}").equals("Running")
                        && !jsonPath("pod", "imperative", "{.spec.nodeName}").isEmpty());
    }

    @Test
    @DisplayName("kubectl create namespace")
    void createNamespace() {
        var result = kubectl.succeed("create", "namespace", "created-imperatively");

        assertThat(result.stdout()).isEqualTo("namespace/created-imperatively created\n");
        assertThat(kubectl.succeed("get", "namespace", "created-imperatively").stdout()).contains("Active");
    }

    @Test
    @DisplayName("kubectl create configmap --from-literal")
    void createConfigMap() {
        var result = kubectl.succeed("create", "configmap", "literal", "-n", "demo", "--from-literal=window=22:00", "--from-literal=length=2h");

        assertThat(result.stdout()).isEqualTo("configmap/literal created\n");
        assertThat(jsonPath("configmap", "literal", "{.data.window} {.data.length}")).isEqualTo("22:00 2h");
    }

    // ---- helpers

    private static String jsonPath(String kind, String name, String template) {
        return kubectl.succeed("get", kind, "-n", "demo", name, "-o", "jsonpath=" + template).stdout();
    }

    private static List<String> columns(String header) {
        return Arrays.asList(header.trim().split("\\s+"));
    }

    /** Creates a pod in namespace demo bound to a node; the simulated kubelet runs it. */
    private static void createPod(String name, String node, String... labels) {
        List<String> labelLines = labels.length == 0 ? List.of("app: " + name) : List.of(labels);
        kubectl.apply(pod(name, node, labelLines));
    }

    private static String pod(String name, String node, List<String> labels, String... annotations) {
        StringBuilder yaml = new StringBuilder("""
                apiVersion: v1
                kind: Pod
                metadata:
                  name: %s
                  namespace: demo
                  labels:
                """.formatted(name));
        labels.forEach(label -> yaml.append("    ").append(label).append('\n'));
        if (annotations.length > 0) {
            yaml.append("  annotations:\n");
            Arrays.stream(annotations).forEach(a -> yaml.append("    ").append(a).append('\n'));
        }
        yaml.append("""
                spec:
                  nodeName: %s
                  terminationGracePeriodSeconds: 30
                  containers:
                  - name: main
                    image: busybox:1.36
                    command: ["sleep", "infinity"]
                """.formatted(node));
        return yaml.toString();
    }

    private static String configMap(String name, String colour) {
        return """
                apiVersion: v1
                kind: ConfigMap
                metadata:
                  name: %s
                  namespace: demo
                data:
                  colour: %s
                """.formatted(name, colour);
    }
}
