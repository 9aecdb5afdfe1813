package dev.drainboard.cluster.apiserver.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.drainboard.cluster.apiserver.ApiException;
import dev.drainboard.cluster.apiserver.BuiltinResources;
import dev.drainboard.cluster.apiserver.Json;
import dev.drainboard.cluster.apiserver.ResourceType;
import org.junit.jupiter.api.Test;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

/** The store on its own: identity, concurrency, generation, finalizers, watches and paging. */
class ObjectStoreTest {

    private static final Instant NOW = Instant.parse("2025-03-01T10:00:00Z");
    private static final ResourceType PODS = BuiltinResources.PODS;
    private static final ResourceType CONFIG_MAPS = BuiltinResources.CONFIG_MAPS;
    private static final ResourceType DEPLOYMENTS = BuiltinResources.DEPLOYMENTS;

    private final ObjectStore store = new ObjectStore(1_000, Clock.fixed(NOW, ZoneOffset.UTC));

    @Test
    void createAssignsIdentityAndAResourceVersion() {
        long before = store.resourceVersion();

        ObjectNode created = store.create(DEPLOYMENTS, deployment("ns", "web", 1), false, false);

        JsonAssert meta = new JsonAssert(created.get("metadata"));
        assertThat(meta.text("uid")).matches("[0-9a-f-]{36}");
        assertThat(meta.text("creationTimestamp")).isEqualTo("2025-03-01T10:00:00Z");
        assertThat(meta.text("resourceVersion")).isEqualTo(Long.toString(before + 1));
        assertThat(created.path("metadata").path("generation").asLong()).isEqualTo(1);
        assertThat(created.path("apiVersion").asText()).isEqualTo("apps/v1");
        assertThat(created.path("kind").asText()).isEqualTo("Deployment");
        assertThat(store.resourceVersion()).isEqualTo(before + 1);
        assertThat(store.get(DEPLOYMENTS, "ns", "web")).isEqualTo(created);
    }

    @Test
    void createIgnoresClientSuppliedIdentityUnlessAskedToKeepIt() {
        ObjectNode pod = pod("ns", "p");
        Json.metadata(pod).put("uid", "given-uid").put("creationTimestamp", "2020-01-01T00:00:00Z")
                .put("deletionTimestamp", "2020-01-01T00:00:00Z");

        ObjectNode fresh = store.create(PODS, pod, false, false);
        assertThat(Json.uid(fresh)).isNotEqualTo("given-uid");
        assertThat(fresh.path("metadata").has("deletionTimestamp")).isFalse();

        Json.metadata(pod).put("name", "kept");
        ObjectNode kept = store.create(PODS, pod, false, true);
        assertThat(Json.uid(kept)).isEqualTo("given-uid");
        assertThat(Json.text(kept, "metadata", "creationTimestamp")).isEqualTo("2020-01-01T00:00:00Z");
    }

    @Test
    void generateNameAddsARandomSuffix() {
        ObjectNode pod = pod("ns", "");
        Json.metadata(pod).remove("name");
        Json.metadata(pod).put("generateName", "worker-");

        String first = Json.name(store.create(PODS, pod, false, false));
        String second = Json.name(store.create(PODS, pod, false, false));

        assertThat(first).matches("worker-[a-z0-9]{5}");
        assertThat(second).matches("worker-[a-z0-9]{5}").isNotEqualTo(first);
    }

    @Test
    void anObjectWithoutNameOrGenerateNameIsInvalid() {
        ObjectNode pod = pod("ns", "");
        Json.metadata(pod).remove("name");

        assertThatThrownBy(() -> store.create(PODS, pod, false, false))
                .isInstanceOfSatisfying(ApiException.class, e -> assertThat(e.code()).isEqualTo(422));
    }

    @Test
    void creatingAnExistingNameIsAlreadyExists() {
        store.create(PODS, pod("ns", "p"), false, false);

        assertThatThrownBy(() -> store.create(PODS, pod("ns", "p"), false, false))
                .isInstanceOfSatisfying(ApiException.class, e -> {
                    assertThat(e.code()).isEqualTo(409);
                    assertThat(e.reason()).isEqualTo("AlreadyExists");
                    assertThat(e.getMessage()).isEqualTo("pods \"p\" already exists");
                });
        // The same name in another namespace is another object.
        store.create(PODS, pod("other", "p"), false, false);
        assertThat(store.count(PODS)).isEqualTo(2);
    }

    @Test
    void dryRunCreateStoresNothing() {
        long before = store.resourceVersion();

        ObjectNode answer = store.create(PODS, pod("ns", "p"), true, false);

        assertThat(Json.uid(answer)).isNotEmpty();
        assertThat(store.get(PODS, "ns", "p")).isNull();
        assertThat(store.resourceVersion()).isEqualTo(before);
    }

    @Test
    void aMutationCanRefuseAStaleUpdateAsAConflict() {
        ObjectNode created = store.create(CONFIG_MAPS, configMap("ns", "c", "1"), false, false);
        String seen = Json.text(created, "metadata", "resourceVersion");
        store.update(CONFIG_MAPS, "ns", "c", cm -> withData(cm, "2"), false);

        // What the API layer does with a client's resourceVersion precondition.
        assertThatThrownBy(() -> store.update(CONFIG_MAPS, "ns", "c", cm -> {
            if (!Json.text(cm, "metadata", "resourceVersion").equals(seen)) {
                throw ApiException.staleObject(CONFIG_MAPS, "c");
            }
            return withData(cm, "3");
        }, false)).isInstanceOfSatisfying(ApiException.class, e -> assertThat(e.code()).isEqualTo(409));
        assertThat(Json.text(store.get(CONFIG_MAPS, "ns", "c"), "data", "v")).isEqualTo("2");
    }

    @Test
    void updateOfAMissingObjectIsNotFound() {
        assertThatThrownBy(() -> store.update(PODS, "ns", "ghost", p -> p, false))
                .isInstanceOfSatisfying(ApiException.class, e -> assertThat(e.code()).isEqualTo(404));
    }

    @Test
    void generationMovesOnlyWhenTheSpecChanges() {
        store.create(DEPLOYMENTS, deployment("ns", "web", 1), false, false);

        ObjectNode labelled = store.update(DEPLOYMENTS, "ns", "web", d -> {
            Json.metadata(d).withObjectProperty("labels").put("tier", "front");
            return d;
        }, false);
        ObjectNode statusChanged = store.update(DEPLOYMENTS, "ns", "web", d -> {
            d.withObjectProperty("status").put("replicas", 1);
            return d;
        }, false);
        ObjectNode scaled = store.update(DEPLOYMENTS, "ns", "web", d -> {
            d.withObjectProperty("spec").put("replicas", 3);
            return d;
        }, false);

        assertThat(labelled.path("metadata").path("generation").asLong()).isEqualTo(1);
        assertThat(statusChanged.path("metadata").path("generation").asLong()).isEqualTo(1);
        assertThat(scaled.path("metadata").path("generation").asLong()).isEqualTo(2);
    }

    @Test
    void identityFieldsCannotBeChangedByAnUpdate() {
        ObjectNode created = store.create(PODS, pod("ns", "p"), false, false);

        ObjectNode updated = store.update(PODS, "ns", "p", p -> {
            Json.metadata(p).put("uid", "forged").put("creationTimestamp", "2000-01-01T00:00:00Z");
            Json.metadata(p).withObjectProperty("labels").put("a", "b");
            return p;
        }, false);

        assertThat(Json.uid(updated)).isEqualTo(Json.uid(created));
        assertThat(Json.text(updated, "metadata", "creationTimestamp")).isEqualTo(Json.text(created, "metadata", "creationTimestamp"));
    }

    @Test
    void aNoOpUpdateKeepsTheResourceVersionAndNotifiesNoOne() {
        ObjectNode created = store.create(CONFIG_MAPS, configMap("ns", "c", "1"), false, false);
        List<WatchEvent> events = new ArrayList<>();
        store.watch(CONFIG_MAPS, "ns", o -> true, store.resourceVersion(), events::add);
        long before = store.resourceVersion();

        ObjectNode same = store.update(CONFIG_MAPS, "ns", "c", cm -> withData(cm, "1"), false);

        assertThat(Json.text(same, "metadata", "resourceVersion")).isEqualTo(Json.text(created, "metadata", "resourceVersion"));
        assertThat(store.resourceVersion()).isEqualTo(before);
        assertThat(events).isEmpty();
    }

    @Test
    void finalizersKeepADeletedObjectUntilTheyAreRemoved() {
        ObjectNode cm = configMap("ns", "c", "1");
        Json.metadata(cm).putArray("finalizers").add("example.com/cleanup").add("example.com/audit");
        store.create(CONFIG_MAPS, cm, false, false);
        List<String> seen = new ArrayList<>();
        store.watch(CONFIG_MAPS, "ns", o -> true, store.resourceVersion(), e -> seen.add(e.type().name()));

        ObjectNode deleting = store.update(CONFIG_MAPS, "ns", "c", o -> {
            Json.metadata(o).put("deletionTimestamp", "2025-03-01T10:00:00Z").put("deletionGracePeriodSeconds", 0);
            return o;
        }, false);
        assertThat(store.get(CONFIG_MAPS, "ns", "c")).isEqualTo(deleting);

        // A deletionTimestamp cannot be taken back.
        ObjectNode stillDeleting = store.update(CONFIG_MAPS, "ns", "c", o -> {
            Json.metadata(o).remove("deletionTimestamp");
            Json.metadata(o).withArray("finalizers").remove(0);
            return o;
        }, false);
        assertThat(stillDeleting.path("metadata").has("deletionTimestamp")).isTrue();
        assertThat(store.get(CONFIG_MAPS, "ns", "c")).isNotNull();

        ObjectNode last = store.update(CONFIG_MAPS, "ns", "c", o -> {
            Json.metadata(o).remove("finalizers");
            return o;
        }, false);
        assertThat(store.get(CONFIG_MAPS, "ns", "c")).isNull();
        assertThat(Json.resourceVersion(last)).isEqualTo(store.resourceVersion());
        assertThat(seen).containsExactly("MODIFIED", "MODIFIED", "DELETED");
    }

    @Test
    void aWatchFromAResourceVersionReplaysWhatHappenedSince() {
        store.create(PODS, pod("ns", "a"), false, false);
        long from = store.resourceVersion();
        store.create(PODS, pod("ns", "b"), false, false);
        store.create(CONFIG_MAPS, configMap("ns", "c", "1"), false, false); // another resource: not replayed
        store.update(PODS, "ns", "a", p -> label(p, "x", "1"), false);
        store.remove(PODS, "ns", "b", false);

        List<String> events = new ArrayList<>();
        store.watch(PODS, "ns", o -> true, from, e -> events.add(e.type() + " " + Json.name(e.object()) + " @" + e.resourceVersion()));
        store.create(PODS, pod("ns", "d"), false, false);

        assertThat(events).containsExactly(
                "ADDED b @" + (from + 1),
                "MODIFIED a @" + (from + 3),
                "DELETED b @" + (from + 4),
                "ADDED d @" + (from + 5));
    }

    @Test
    void aWatchWithoutAResourceVersionStartsWithEveryMatchingObject() {
        store.create(PODS, pod("ns", "a"), false, false);
        store.create(PODS, pod("other", "b"), false, false);

        List<String> events = new ArrayList<>();
        store.watch(PODS, "ns", o -> true, null, e -> events.add(e.type() + " " + Json.name(e.object())));

        assertThat(events).containsExactly("ADDED a");
    }

    @Test
    void aFilteredWatchSeesObjectsStartAndStopMatching() {
        store.create(PODS, pod("ns", "p"), false, false);
        Predicate<ObjectNode> web = o -> "web".equals(Json.text(o, "metadata", "labels", "app"));
        List<String> events = new ArrayList<>();
        store.watch(PODS, "ns", web, store.resourceVersion(), e -> events.add(e.type().name()));

        store.update(PODS, "ns", "p", p -> label(p, "app", "web"), false);   // starts matching
        store.update(PODS, "ns", "p", p -> label(p, "tier", "1"), false);    // still matches
        store.update(PODS, "ns", "p", p -> label(p, "app", "db"), false);    // stops matching
        store.update(PODS, "ns", "p", p -> label(p, "tier", "2"), false);    // never seen
        store.update(PODS, "ns", "p", p -> label(p, "app", "web"), false);
        store.remove(PODS, "ns", "p", false);

        assertThat(events).containsExactly("ADDED", "MODIFIED", "DELETED", "ADDED", "DELETED");
    }

    @Test
    void aWatchFromACompactedResourceVersionIsGone() {
        ObjectStore small = new ObjectStore(3, Clock.fixed(NOW, ZoneOffset.UTC));
        long start = small.resourceVersion();
        for (int i = 0; i < 5; i++) {
            small.create(PODS, pod("ns", "p" + i), false, false);
        }
        long oldest = small.resourceVersion() - 3; // the three newest changes are still in the log

        assertThatThrownBy(() -> small.watch(PODS, "ns", o -> true, start, e -> { }))
                .isInstanceOfSatisfying(ApiException.class, e -> {
                    assertThat(e.code()).isEqualTo(410);
                    assertThat(e.reason()).isEqualTo("Expired");
                    assertThat(e.getMessage()).startsWith("too old resource version: " + start);
                });
        List<String> replayed = new ArrayList<>();
        small.watch(PODS, "ns", o -> true, oldest, e -> replayed.add(Json.name(e.object())));
        assertThat(replayed).containsExactly("p2", "p3", "p4");
    }

    @Test
    void listPagesWithLimitAndContinue() {
        for (String name : List.of("e", "a", "d", "b", "c")) {
            store.create(PODS, pod("ns", name), false, false);
        }
        store.create(PODS, pod("other", "z"), false, false);

        ListPage first = store.list(PODS, "ns", o -> true, 2, null);
        ListPage second = store.list(PODS, "ns", o -> true, 2, first.nextKey());
        ListPage third = store.list(PODS, "ns", o -> true, 2, second.nextKey());

        assertThat(first.items()).extracting(Json::name).containsExactly("a", "b");
        assertThat(first.remainingItemCount()).isEqualTo(3);
        assertThat(second.items()).extracting(Json::name).containsExactly("c", "d");
        assertThat(third.items()).extracting(Json::name).containsExactly("e");
        assertThat(third.nextKey()).isNull();
        assertThat(third.remainingItemCount()).isZero();
        assertThat(store.list(PODS, null, o -> true, 0, null).items()).hasSize(6);
    }

    @Test
    void listPagingAppliesTheFilterBeforeTheLimit() {
        for (int i = 0; i < 6; i++) {
            ObjectNode pod = pod("ns", "p" + i);
            label(pod, "parity", i % 2 == 0 ? "even" : "odd");
            store.create(PODS, pod, false, false);
        }
        Predicate<ObjectNode> even = o -> "even".equals(Json.text(o, "metadata", "labels", "parity"));

        ListPage first = store.list(PODS, "ns", even, 2, null);
        ListPage second = store.list(PODS, "ns", even, 2, first.nextKey());

        assertThat(first.items()).extracting(Json::name).containsExactly("p0", "p2");
        assertThat(second.items()).extracting(Json::name).containsExactly("p4");
        assertThat(second.nextKey()).isNull();
    }

    // ---- objects ----

    private static ObjectNode pod(String ns, String name) {
        ObjectNode pod = Json.object();
        pod.put("apiVersion", "v1").put("kind", "Pod");
        pod.putObject("metadata").put("namespace", ns).put("name", name);
        pod.putObject("spec").putArray("containers").addObject().put("name", "main").put("image", "app:1");
        return pod;
    }

    private static ObjectNode configMap(String ns, String name, String value) {
        ObjectNode cm = Json.object();
        cm.put("apiVersion", "v1").put("kind", "ConfigMap");
        cm.putObject("metadata").put("namespace", ns).put("name", name);
        cm.putObject("data").put("v", value);
        return cm;
    }

    private static ObjectNode deployment(String ns, String name, int replicas) {
        ObjectNode d = Json.object();
        d.put("apiVersion", "apps/v1").put("kind", "Deployment");
        d.putObject("metadata").put("namespace", ns).put("name", name);
        d.putObject("spec").put("replicas", replicas);
        return d;
    }

    private static ObjectNode withData(ObjectNode cm, String value) {
        cm.withObjectProperty("data").put("v", value);
        return cm;
    }

    private static ObjectNode label(ObjectNode o, String key, String value) {
        Json.metadata(o).withObjectProperty("labels").put(key, value);
        return o;
    }

    /** Tiny reader for metadata fields. */
    private record JsonAssert(com.fasterxml.jackson.databind.JsonNode node) {
        String text(String field) {
            return node.path(field).asText();
        }
    }
}
