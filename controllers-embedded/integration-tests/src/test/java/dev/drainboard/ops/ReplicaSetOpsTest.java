package dev.drainboard.ops;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.drainboard.cluster.EmbeddedCluster;
import dev.drainboard.cluster.EmbeddedClusterOptions;
import dev.drainboard.kubevirt.api.VirtualMachineInstanceReplicaSet;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.utils.Serialization;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.nio.file.Files;
import java.nio.file.Path;

/** Ops on replica sets: the replica count as typed, scale through the subresource, and create refused on bad sets. */
class ReplicaSetOpsTest {

    @TempDir
    static Path dir;
    static EmbeddedCluster cluster;
    static Ops ops;

    @BeforeAll
    static void start() throws Exception {
        cluster = EmbeddedCluster.start(EmbeddedClusterOptions.defaults().withKubeconfigOut(dir.resolve("kubeconfig")));
        ops = Ops.connect(Config.fromKubeconfig(Files.readString(cluster.kubeconfig())));
    }

    @AfterAll
    static void stop() {
        ops.close();
        cluster.close();
    }

    @ParameterizedTest(name = "[{index}] \"{0}\" → {1}")
    @CsvSource(delimiter = '|', value = {
            "0 | 0",
            "5 | 5",
            "+7 | 7",
            " 12  | 12",
            "2147483647 | 2147483647",
            "-1 | --replicas must be 0 or more; got -1",
            "2147483648 | --replicas must be at most 2147483647; got 2147483648",
            "1.5 | --replicas must be a whole number, 0 or more; got '1.5'",
            "1e3 | --replicas must be a whole number, 0 or more; got '1e3'",
            "'' | --replicas must be a whole number, 0 or more; got ''",
    })
    void parseReplicas(String text, String expected) {
        if (expected.matches("[0-9]+")) {
            assertThat(ReplicaSetOps.parseReplicas(text)).isEqualTo(Integer.parseInt(expected));
        } else {
            assertThatThrownBy(() -> ReplicaSetOps.parseReplicas(text)).isInstanceOf(IllegalArgumentException.class).hasMessage(expected);
        }
    }

    static VirtualMachineInstanceReplicaSet set(String name, String templateLabel) {
        return Serialization.unmarshal("""
                apiVersion: kubevirt.io/v1
                kind: VirtualMachineInstanceReplicaSet
                metadata: {name: %s, namespace: default}
                spec:
                  replicas: 2
                  selector: {matchLabels: {app: web}}
                  template: {metadata: {labels: {app: %s}}, spec: {networks: [{name: default, pod: {}}], domain: {devices: {interfaces: [{name: default, masquerade: {}}]}, memory: {guest: 128Mi}}}}
                """.formatted(name, templateLabel), VirtualMachineInstanceReplicaSet.class);
    }

    @Test
    @DisplayName("create refuses a set whose selector does not match its template, before writing anything")
    void createValidates() {
        assertThatThrownBy(() -> ops.replicaSets().create(set("bad", "db")))
                .isInstanceOf(OpsException.class)
                .hasMessage("virtualmachineinstancereplicaset \"bad\" is invalid: spec.selector: Invalid value: \"app=web\": "
                        + "selector does not match labels. (template labels: app=db)")
                .satisfies(e -> assertThat(((OpsException) e).kind()).isEqualTo(OpsException.Kind.REFUSED));
        assertThat(ops.client().resources(VirtualMachineInstanceReplicaSet.class).inNamespace("default").withName("bad").get()).isNull();
    }

    @Test
    @DisplayName("scale goes through the scale subresource; a negative count is refused and nothing changes")
    void scale() {
        assertThat(ops.replicaSets().create(set("web", "web")).message()).isEqualTo("virtualmachineinstancereplicaset/web created");
        ReplicaSetChange change = ops.scale("default", "web", 4);
        assertThat(change.changed()).isTrue();
        assertThat(change.before()).isEqualTo(2);
        assertThat(change.after()).isEqualTo(4);
        assertThat(ops.client().resources(VirtualMachineInstanceReplicaSet.class).inNamespace("default").withName("web").get()
                .getSpec().getReplicas()).isEqualTo(4);
        assertThatThrownBy(() -> ops.scale("default", "web", -1)).isInstanceOf(OpsException.class).hasMessage("--replicas must be 0 or more; got -1");
        assertThat(ops.client().resources(VirtualMachineInstanceReplicaSet.class).inNamespace("default").withName("web").get()
                .getSpec().getReplicas()).isEqualTo(4);
        assertThat(ops.scale("default", "web", 4).changed()).isFalse();
        assertThatThrownBy(() -> ops.scale("default", "nothere", 1)).isInstanceOf(OpsException.class)
                .satisfies(e -> assertThat(((OpsException) e).kind()).isEqualTo(OpsException.Kind.NOT_FOUND));
    }
}
