package dev.drainboard.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Files;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import dev.drainboard.cluster.EmbeddedCluster;
import dev.drainboard.cluster.EmbeddedClusterOptions;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import org.junit.jupiter.api.Test;

class ControllerManagerTest {

    @Test
    void withoutElectionRunsRegisteredControllersOnSharedInformersAndReportsFigures() throws Exception {
        try (EmbeddedCluster cluster = EmbeddedCluster.start(EmbeddedClusterOptions.defaults());
             ControllerManager manager = new ControllerManager(
                     new KubernetesClientBuilder().withConfig(Config.fromKubeconfig(Files.readString(cluster.kubeconfig()))).build(),
                     null)) {
            var informer = manager.informers().inNamespace("default").sharedIndexInformerFor(ConfigMap.class, 0);
            Set<String> seen = ConcurrentHashMap.newKeySet();
            manager.register(ControllerLoop.<String>builder("configmap-controller", key -> {
                seen.add(key);
                return Result.done();
            }).workers(2).watch(informer, Keys::of).build());

            manager.start();
            manager.client().configMaps().inNamespace("default")
                    .resource(new ConfigMapBuilder().withNewMetadata().withName("one").endMetadata().build()).create();

            await().until(() -> seen.contains("default/one"));
            assertThat(manager.isLeader()).isTrue();
            assertThat(manager.leaderState().lease()).isNull();
            assertThat(manager.leaderState().currentLeader()).isEqualTo(manager.leaderState().identity());
            assertThat(manager.figures()).singleElement().satisfies(f -> {
                assertThat(f.name()).isEqualTo("configmap-controller");
                assertThat(f.state()).isEqualTo(ControllerFigures.State.RUNNING);
                assertThat(f.reconciles()).isPositive();
            });

            manager.stop();
            assertThat(manager.figures().getFirst().state()).isEqualTo(ControllerFigures.State.STOPPED);
        }
    }

    @Test
    void identityNamesUserHostAndProcess() {
        assertThat(LeaderIdentity.of("alice", "workstation-42", 1234, "a1b2c3")).isEqualTo("alice@workstation-42/pid-1234-a1b2c3");
        String generated = LeaderIdentity.generate();
        assertThat(generated).startsWith(System.getProperty("user.name") + "@")
                .contains("/pid-" + ProcessHandle.current().pid() + "-");
        assertThat(LeaderIdentity.generate()).as("two runs in one JVM differ").isNotEqualTo(generated);
    }
}
