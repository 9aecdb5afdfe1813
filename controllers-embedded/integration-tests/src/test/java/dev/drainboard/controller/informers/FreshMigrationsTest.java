package dev.drainboard.controller.informers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.drainboard.cluster.EmbeddedCluster;
import dev.drainboard.cluster.EmbeddedClusterOptions;
import dev.drainboard.kubevirt.api.VirtualMachineInstanceMigration;
import dev.drainboard.kubevirt.api.VirtualMachineInstanceMigrationSpec;
import dev.drainboard.kubevirt.api.VirtualMachineInstanceMigrationStatus;
import dev.drainboard.runtime.Keys;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.informers.SharedInformerFactory;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

@DisplayName("fresh migrations: the VMIM cache plus this process's own writes it does not show yet")
class FreshMigrationsTest {

    static EmbeddedCluster cluster;
    static KubernetesClient client;
    static SharedInformerFactory factory;
    static SharedInformers informers;

    @BeforeAll
    static void start(@TempDir Path dir) throws Exception {
        cluster = EmbeddedCluster.start(EmbeddedClusterOptions.defaults().withPort(0).withKubeconfigOut(dir.resolve("kubeconfig")));
        client = new KubernetesClientBuilder().withConfig(Config.fromKubeconfig(Files.readString(cluster.kubeconfig()))).build();
        factory = client.informers();
        informers = new SharedInformers(client, factory);
        factory.startAllRegisteredInformers().get();
    }

    @AfterAll
    static void stop() {
        factory.stopAllRegisteredInformers();
        client.close();
        cluster.close();
    }

    static VirtualMachineInstanceMigration vmim(String uid, String resourceVersion) {
        VirtualMachineInstanceMigration m = new VirtualMachineInstanceMigration();
        m.setMetadata(new ObjectMetaBuilder().withNamespace("default").withName("m").withUid(uid).withResourceVersion(resourceVersion).build());
        return m;
    }

    @ParameterizedTest(name = "{0} rv {1} newer than {2} rv {3}: {4}")
    @CsvSource({
            "a, 12, a, 11, true",
            "a, 11, a, 11, false",
            "a, 9,  a, 11, false",
            "a, 12, b, 11, false",   // another incarnation: the cache knows best
            "a, x,  a, 11, false",   // opaque resourceVersion: the cache stays in charge
            "a, 12, a, x,  false",
    })
    void newer(String uidA, String rvA, String uidB, String rvB, boolean newer) {
        assertThat(FreshMigrations.newer(vmim(uidA, rvA), vmim(uidB, rvB))).isEqualTo(newer);
        assertThat(FreshMigrations.newer(vmim(uidA, rvA), null)).isTrue();
    }

    @Test
    @DisplayName("a write is visible and heard at once, and forgotten once the cache has caught up")
    void ownWrites() {
        FreshMigrations fresh = informers.freshMigrations();
        List<VirtualMachineInstanceMigration> heard = new CopyOnWriteArrayList<>();
        fresh.addWriteListener(heard::add);

        // virt-api admits a migration only of a VMI that exists
        client.resources(dev.drainboard.kubevirt.api.VirtualMachineInstance.class).inNamespace("default").resource(
                io.fabric8.kubernetes.client.utils.Serialization.unmarshal("""
                        apiVersion: kubevirt.io/v1
                        kind: VirtualMachineInstance
                        metadata: {name: vm-a, namespace: default}
                        spec: {domain: {devices: {}, memory: {guest: 1Gi}}}
                        """, dev.drainboard.kubevirt.api.VirtualMachineInstance.class)).create();
        VirtualMachineInstanceMigration m = new VirtualMachineInstanceMigration();
        m.setMetadata(new ObjectMetaBuilder().withNamespace("default").withGenerateName("mig-").build());
        m.setSpec(new VirtualMachineInstanceMigrationSpec("vm-a"));
        VirtualMachineInstanceMigration created = client.resources(VirtualMachineInstanceMigration.class).inNamespace("default")
                .resource(m).create();
        fresh.written(created);
        String key = Keys.of(created);
        assertThat(heard).containsExactly(created);
        assertThat(fresh.get(key)).isNotNull();
        assertThat(fresh.list()).extracting(Keys::of).contains(key);
        assertThat(fresh.of("default/vm-a")).extracting(Keys::of).containsExactly(key);
        assertThat(fresh.of("default/vm-b")).isEmpty();

        // A status write seen here before the watch brings it: the phase is known at once.
        VirtualMachineInstanceMigration running = client.resources(VirtualMachineInstanceMigration.class).inNamespace("default")
                .withName(created.getMetadata().getName()).get();
        running.setStatus(new VirtualMachineInstanceMigrationStatus());
        running.getStatus().setPhase("Succeeded");
        VirtualMachineInstanceMigration answer = client.resources(VirtualMachineInstanceMigration.class).inNamespace("default")
                .resource(running).updateStatus();
        fresh.written(answer);
        assertThat(fresh.get(key).isFinal()).isTrue();
        assertThat(fresh.of("default/vm-a")).allMatch(VirtualMachineInstanceMigration::isFinal);

        await().atMost(Duration.ofSeconds(10)).until(() -> informers.migrations().getStore().getByKey(key) != null
                && informers.migrations().getStore().getByKey(key).isFinal());
        await().atMost(Duration.ofSeconds(10)).until(() -> fresh.remembered() == 0);

        // An older answer arriving late never hides what the cache already has.
        fresh.written(created);
        assertThat(fresh.get(key).isFinal()).isTrue();
        assertThat(fresh.remembered()).isZero();
    }
}
