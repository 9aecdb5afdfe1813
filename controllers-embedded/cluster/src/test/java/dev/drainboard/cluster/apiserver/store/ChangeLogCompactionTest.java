package dev.drainboard.cluster.apiserver.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.drainboard.cluster.apiserver.ApiException;
import dev.drainboard.cluster.apiserver.BuiltinResources;
import dev.drainboard.cluster.apiserver.Json;
import org.junit.jupiter.api.Test;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;

/**
 * The change log is bounded by count and by the bytes of the objects it keeps; the oldest changes go first, and a
 * resourceVersion from before them can no longer be replayed or listed at.
 */
class ChangeLogCompactionTest {

    private static final Clock CLOCK = Clock.fixed(Instant.parse("2026-01-01T00:00:00Z"), ZoneOffset.UTC);
    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void theByteBudgetCompactsTheOldestChangesFirst() {
        ObjectStore store = new ObjectStore(1_000, 20_000, CLOCK);
        long start = store.resourceVersion();
        store.create(BuiltinResources.CONFIG_MAPS, configMap("big", 0, 1_000), false, false);
        for (int i = 1; i <= 40; i++) {
            int n = i;
            store.update(BuiltinResources.CONFIG_MAPS, "ns", "big", cm -> withData(cm, n, 1_000), false);
        }

        ObjectStore.ChangeLogUse use = store.changeLogUse();
        assertThat(use.bytes()).isLessThanOrEqualTo(20_000);
        assertThat(use.changes()).isBetween(10, 30); // ~1 KiB each: far fewer than the 1,000 the count allows
        long compacted = store.compactedResourceVersion();
        assertThat(compacted).isEqualTo(store.resourceVersion() - use.changes());

        assertThatThrownBy(() -> store.watch(BuiltinResources.CONFIG_MAPS, "ns", o -> true, start, e -> { }))
                .isInstanceOfSatisfying(ApiException.class, e -> {
                    assertThat(e.code()).isEqualTo(410);
                    assertThat(e.reason()).isEqualTo("Expired");
                    assertThat(e.getMessage()).isEqualTo("too old resource version: " + start + " (" + compacted + ")");
                });
        List<Long> replayed = new ArrayList<>();
        store.watch(BuiltinResources.CONFIG_MAPS, "ns", o -> true, compacted, e -> replayed.add(e.resourceVersion()));
        assertThat(replayed).hasSize(use.changes()).last().isEqualTo(store.resourceVersion());
    }

    @Test
    void theLogCountsEachTreeItKeepsOnce() {
        ObjectStore store = new ObjectStore(2, Long.MAX_VALUE, CLOCK);
        ObjectNode v1 = store.create(BuiltinResources.CONFIG_MAPS, configMap("c", 1, 100), false, false);
        assertThat(store.changeLogUse().bytes()).isEqualTo(JsonSize.of(v1));

        ObjectNode v2 = store.update(BuiltinResources.CONFIG_MAPS, "ns", "c", cm -> withData(cm, 2, 200), false);
        // v2's previous is v1, which the first change already holds
        assertThat(store.changeLogUse().bytes()).isEqualTo(JsonSize.of(v1) + JsonSize.of(v2));

        ObjectNode v3 = store.update(BuiltinResources.CONFIG_MAPS, "ns", "c", cm -> withData(cm, 3, 300), false);
        // the first change is compacted, but v1 stays as the previous object of the second: still counted
        assertThat(store.changeLogUse().changes()).isEqualTo(2);
        assertThat(store.changeLogUse().bytes()).isEqualTo(JsonSize.of(v1) + JsonSize.of(v2) + JsonSize.of(v3));
    }

    @Test
    void aDeletionCostsTheLogTheDeletedObjectsMetadataOnly() {
        ObjectStore store = new ObjectStore(1_000, Long.MAX_VALUE, CLOCK);
        ObjectNode big = store.create(BuiltinResources.CONFIG_MAPS, configMap("big", 0, 50_000), false, false);
        long afterCreate = store.changeLogUse().bytes();

        ObjectNode last = store.remove(BuiltinResources.CONFIG_MAPS, "ns", "big", false);

        long deletionCost = store.changeLogUse().bytes() - afterCreate;
        assertThat(deletionCost).isEqualTo(JsonSize.of(last.get("metadata"))).isLessThan(500);
        // the deleted object still reads whole, with the deletion's resourceVersion, sharing the stored content
        assertThat(last.get("data")).isSameAs(big.get("data"));
        assertThat(Json.resourceVersion(last)).isEqualTo(store.resourceVersion());
        assertThat(Json.resourceVersion(big)).isEqualTo(store.resourceVersion() - 1);
    }

    @Test
    void jsonSizeIsTheLengthOfTheCompactJson() throws Exception {
        ObjectNode object = (ObjectNode) JSON.readTree("""
                {"a": "text", "n": -1234, "f": 1.5, "t": true, "z": false, "nil": null, "list": [1, "x", {}], "o": {"k": []}}""");
        assertThat(JsonSize.of(object)).isEqualTo(JSON.writeValueAsString(object).length());
    }

    @Test
    void aListAtAnEarlierResourceVersionUndoesTheLaterChanges() {
        ObjectStore store = new ObjectStore(1_000, Long.MAX_VALUE, CLOCK);
        store.create(BuiltinResources.CONFIG_MAPS, configMap("a", 1, 10), false, false);
        store.create(BuiltinResources.CONFIG_MAPS, configMap("b", 1, 10), false, false);
        store.create(BuiltinResources.PODS, pod("p"), false, false);
        long then = store.resourceVersion();
        store.update(BuiltinResources.CONFIG_MAPS, "ns", "a", cm -> withData(cm, 2, 10), false);
        store.remove(BuiltinResources.CONFIG_MAPS, "ns", "b", false);
        store.create(BuiltinResources.CONFIG_MAPS, configMap("c", 1, 10), false, false);

        ListPage page = store.listAt(BuiltinResources.CONFIG_MAPS, "ns", o -> true, 0, null, then).orElseThrow();

        assertThat(page.resourceVersion()).isEqualTo(then);
        assertThat(page.items()).extracting(Json::name).containsExactly("a", "b");
        assertThat(page.items().getFirst().path("data").path("n").asText()).isEqualTo("1");
        assertThat(store.list(BuiltinResources.CONFIG_MAPS, "ns", o -> true)).extracting(Json::name).containsExactly("a", "c");
        // pages of that moment, one after the other
        ListPage first = store.listAt(BuiltinResources.CONFIG_MAPS, "ns", o -> true, 1, null, then).orElseThrow();
        ListPage second = store.listAt(BuiltinResources.CONFIG_MAPS, "ns", o -> true, 1, first.nextKey(), then).orElseThrow();
        assertThat(first.items()).extracting(Json::name).containsExactly("a");
        assertThat(second.items()).extracting(Json::name).containsExactly("b");
        assertThat(second.nextKey()).isNull();
    }

    @Test
    void aListAtACompactedResourceVersionIsNotPossible() {
        ObjectStore store = new ObjectStore(2, Long.MAX_VALUE, CLOCK);
        long start = store.resourceVersion();
        for (int i = 0; i < 3; i++) {
            store.create(BuiltinResources.CONFIG_MAPS, configMap("c" + i, 1, 10), false, false);
        }

        assertThat(store.listAt(BuiltinResources.CONFIG_MAPS, "ns", o -> true, 0, null, start)).isEmpty();
        assertThat(store.listAt(BuiltinResources.CONFIG_MAPS, "ns", o -> true, 0, null, store.compactedResourceVersion()))
                .get().extracting(ListPage::items).asList().hasSize(1);
    }

    private static ObjectNode configMap(String name, int n, int bytes) {
        ObjectNode cm = JSON.createObjectNode();
        cm.put("apiVersion", "v1").put("kind", "ConfigMap");
        cm.putObject("metadata").put("namespace", "ns").put("name", name);
        return withData(cm, n, bytes);
    }

    private static ObjectNode withData(ObjectNode cm, int n, int bytes) {
        cm.putObject("data").put("n", Integer.toString(n)).put("filler", "x".repeat(bytes));
        return cm;
    }

    private static ObjectNode pod(String name) {
        ObjectNode pod = JSON.createObjectNode();
        pod.put("apiVersion", "v1").put("kind", "Pod");
        pod.putObject("metadata").put("namespace", "ns").put("name", name);
        return pod;
    }
}
