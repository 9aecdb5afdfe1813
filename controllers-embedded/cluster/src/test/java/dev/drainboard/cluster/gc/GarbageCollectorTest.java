package dev.drainboard.cluster.gc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.drainboard.cluster.fabric8.Fabric8Cluster;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.DeletionPropagation;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.Resource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;

/**
 * Owner-reference garbage collection in a running embedded cluster, with ConfigMaps as owners and
 * dependents (nothing else acts on them, so every change seen is the collector's).
 */
class GarbageCollectorTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(30);
    private static final String HOLD = "test.drainboard.dev/hold";

    private static Fabric8Cluster cluster;
    private static KubernetesClient client;

    @BeforeAll
    static void start() throws Exception {
        cluster = Fabric8Cluster.start();
        client = cluster.client();
    }

    @AfterAll
    static void stop() {
        cluster.close();
    }

    @Test
    void backgroundDeletionRemovesTheOwnerAtOnceAndThenItsDependents() {
        String ns = cluster.newNamespace("gc-background");
        ConfigMap owner = create(ns, "owner", List.of());
        create(ns, "child-1", List.of(ownerRef(owner)));
        create(ns, "child-2", List.of(ownerRef(owner)));
        create(ns, "unrelated", List.of());

        get(ns, "owner").withPropagationPolicy(DeletionPropagation.BACKGROUND).delete();

        assertThat(get(ns, "owner").get()).isNull();
        await().atMost(TIMEOUT).until(() -> get(ns, "child-1").get() == null && get(ns, "child-2").get() == null);
        assertThat(get(ns, "unrelated").get()).isNotNull();
    }

    @Test
    void foregroundDeletionKeepsTheOwnerUntilItsDependentsAreGone() {
        String ns = cluster.newNamespace("gc-foreground");
        ConfigMap owner = create(ns, "owner", List.of());
        create(ns, "quick", List.of(ownerRef(owner)));
        ConfigMap held = new ConfigMapBuilder(configMap(ns, "held", List.of(ownerRef(owner))))
                .editMetadata().addToFinalizers(HOLD).endMetadata().build();
        client.configMaps().resource(held).create();

        get(ns, "owner").withPropagationPolicy(DeletionPropagation.FOREGROUND).delete();

        await().atMost(TIMEOUT).until(() -> get(ns, "quick").get() == null);
        await().atMost(TIMEOUT).until(() -> get(ns, "held").get().getMetadata().getDeletionTimestamp() != null);
        ConfigMap waiting = get(ns, "owner").get();
        assertThat(waiting).as("the owner waits for its held dependent").isNotNull();
        assertThat(waiting.getMetadata().getDeletionTimestamp()).isNotNull();
        assertThat(waiting.getMetadata().getFinalizers()).contains("foregroundDeletion");

        get(ns, "held").edit(cm -> new ConfigMapBuilder(cm).editMetadata().removeFromFinalizers(HOLD).endMetadata().build());

        await().atMost(TIMEOUT).until(() -> get(ns, "held").get() == null && get(ns, "owner").get() == null);
    }

    @Test
    void orphanDeletionReleasesTheDependents() {
        String ns = cluster.newNamespace("gc-orphan");
        ConfigMap owner = create(ns, "owner", List.of());
        create(ns, "child", List.of(ownerRef(owner)));

        get(ns, "owner").withPropagationPolicy(DeletionPropagation.ORPHAN).delete();

        await().atMost(TIMEOUT).until(() -> get(ns, "owner").get() == null);
        ConfigMap child = get(ns, "child").get();
        assertThat(child).isNotNull();
        assertThat(child.getMetadata().getDeletionTimestamp()).isNull();
        assertThat(child.getMetadata().getOwnerReferences()).isNullOrEmpty();
    }

    @Test
    void aDependentWithAnotherLiveOwnerOnlyLosesTheReferenceToTheDeletedOne() {
        String ns = cluster.newNamespace("gc-two-owners");
        ConfigMap first = create(ns, "first", List.of());
        ConfigMap second = create(ns, "second", List.of());
        create(ns, "shared", List.of(ownerRef(first), ownerRef(second)));

        get(ns, "first").delete();

        await().atMost(TIMEOUT).untilAsserted(() -> assertThat(get(ns, "shared").get().getMetadata().getOwnerReferences())
                .extracting(OwnerReference::getName).containsExactly("second"));
        assertThat(get(ns, "shared").get().getMetadata().getDeletionTimestamp()).isNull();

        get(ns, "second").delete();
        await().atMost(TIMEOUT).until(() -> get(ns, "shared").get() == null);
    }

    @Test
    void aDependentCreatedAfterItsOwnerIsGoneIsCollected() {
        String ns = cluster.newNamespace("gc-dangling");
        ConfigMap owner = create(ns, "owner", List.of());
        get(ns, "owner").delete();
        await().atMost(TIMEOUT).until(() -> get(ns, "owner").get() == null);

        create(ns, "late", List.of(ownerRef(owner)));

        await().atMost(TIMEOUT).until(() -> get(ns, "late").get() == null);
    }

    private static Resource<ConfigMap> get(String ns, String name) {
        return client.configMaps().inNamespace(ns).withName(name);
    }

    private static ConfigMap create(String ns, String name, List<OwnerReference> owners) {
        return client.configMaps().resource(configMap(ns, name, owners)).create();
    }

    private static ConfigMap configMap(String ns, String name, List<OwnerReference> owners) {
        return new ConfigMapBuilder().withNewMetadata().withNamespace(ns).withName(name)
                .withOwnerReferences(owners).endMetadata().addToData("k", "v").build();
    }

    private static OwnerReference ownerRef(ConfigMap owner) {
        return new OwnerReferenceBuilder().withApiVersion("v1").withKind("ConfigMap")
                .withName(owner.getMetadata().getName()).withUid(owner.getMetadata().getUid()).build();
    }
}
