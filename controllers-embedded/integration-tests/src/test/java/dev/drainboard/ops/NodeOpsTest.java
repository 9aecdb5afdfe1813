package dev.drainboard.ops;

import dev.drainboard.cluster.EmbeddedCluster;
import dev.drainboard.cluster.EmbeddedClusterOptions;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.client.Config;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

@DisplayName("Cordon, uncordon, taint and evict through the API")
class NodeOpsTest {

    @TempDir
    static Path dir;
    static EmbeddedCluster cluster;
    static Ops ops;

    @BeforeAll
    static void start() throws Exception {
        Path scenario = dir.resolve("s.yaml");
        Files.writeString(scenario, """
                apiVersion: v1
                kind: Node
                metadata: {name: node01}
                ---
                apiVersion: v1
                kind: Node
                metadata: {name: node02}
                ---
                apiVersion: v1
                kind: Pod
                metadata: {name: lonely, namespace: default}
                spec:
                  nodeName: node02
                  containers: [{name: c, image: nginx}]
                """);
        cluster = EmbeddedCluster.start(EmbeddedClusterOptions.defaults().withScenario(scenario.toString()).withPort(0)
                .withKubeconfigOut(dir.resolve("kubeconfig")));
        ops = Ops.connect(Config.fromKubeconfig(Files.readString(cluster.kubeconfig())));
    }

    @AfterAll
    static void stop() {
        ops.close();
        cluster.close();
    }

    private static Node node01() {
        return ops.client().nodes().withName("node01").get();
    }

    @Test
    void cordonAndUncordonAsKubectlSaysIt() {
        assertThat(ops.cordon("node01")).isEqualTo(new NodeChange("node01", true, "node/node01 cordoned"));
        assertThat(node01().getSpec().getUnschedulable()).isTrue();
        assertThat(ops.cordon("node01").message()).isEqualTo("node/node01 already cordoned");
        assertThat(ops.uncordon("node01").message()).isEqualTo("node/node01 uncordoned");
        assertThat(node01().getSpec().getUnschedulable()).isNull();
        assertThat(ops.uncordon("node01").changed()).isFalse();
    }

    @Test
    void taintAndUntaint() throws Exception {
        assertThat(ops.taint("node01", List.of("dedicated=gpu:NoSchedule", "kubevirt.io/drain:NoSchedule"), false).message())
                .isEqualTo("node/node01 tainted");
        assertThat(node01().getSpec().getTaints()).extracting(Taints::describe)
                .containsExactly("dedicated=gpu:NoSchedule", "kubevirt.io/drain:NoSchedule");
        assertThatThrownBy(() -> ops.taint("node01", List.of("dedicated=cpu:NoSchedule"), false))
                .hasMessage("Node node01 already has dedicated taint(s) with same effect(s) and --overwrite is false");
        ops.taint("node01", List.of("dedicated=cpu:NoSchedule"), true);
        assertThat(ops.nodes().removeKubeVirtDrainTaint("node01").message()).isEqualTo("node/node01 untainted");
        assertThat(ops.taint("node01", List.of("dedicated-"), false).message()).isEqualTo("node/node01 untainted");
        assertThat(node01().getSpec().getTaints()).isNullOrEmpty();
        assertThat(ops.nodes().addKubeVirtDrainTaint("node01").changed()).isTrue();
        assertThat(ops.nodes().addKubeVirtDrainTaint("node01").changed()).isFalse();
        ops.nodes().removeKubeVirtDrainTaint("node01");
    }

    @Test
    void invalidTaintsWriteNothing() {
        String before = node01().getMetadata().getResourceVersion();
        assertThatThrownBy(() -> ops.taint("node01", List.of("ok=1:NoSchedule", "bad key=1:NoSchedule"), false))
                .isInstanceOf(InvalidTaintException.class).hasMessageStartingWith("invalid taint spec: bad key=1:NoSchedule, name part");
        assertThatThrownBy(() -> ops.taint("node01", List.of("ok=1:Sometimes"), false))
                .hasMessage("invalid taint effect: Sometimes, unsupported taint effect");
        assertThat(node01().getMetadata().getResourceVersion()).isEqualTo(before);
    }

    @Test
    void missingNode() {
        assertThatThrownBy(() -> ops.cordon("node99")).isInstanceOf(OpsException.class).hasMessage("node \"node99\" not found")
                .extracting(e -> ((OpsException) e).kind()).isEqualTo(OpsException.Kind.NOT_FOUND);
    }

    @Test
    void evictReturnsTheAnswerVerbatim() {
        assertThat(ops.evict("default", "nothere")).isEqualTo(new EvictionResponse(404, "NotFound", "pods \"nothere\" not found"));
        EvictionResponse dryRun = ops.evict("default", "lonely", java.util.OptionalLong.empty(), true);
        assertThat(dryRun.accepted()).isTrue();
        assertThat(ops.client().pods().inNamespace("default").withName("lonely").get()).isNotNull();
        assertThat(ops.evict("default", "lonely").accepted()).isTrue();
    }
}
