package dev.drainboard.cluster.apiserver;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.drainboard.cluster.apiserver.store.ObjectStore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Clock;
import java.util.List;
import java.util.Map;

/**
 * Lists with {@code continue}, {@code resourceVersion} and {@code resourceVersionMatch}, as kube-apiserver answers them
 * (apiserver's storage/etcd3/store.go and storage/cacher, v1.32), against a change log of ten changes.
 */
class ListResourceVersionTest {

    private static final String CONFIGMAPS = "/api/v1/namespaces/ns/configmaps";

    private final ObjectStore store = new ObjectStore(10, Clock.systemUTC());
    private final ApiServer api = new ApiServer(store, new ResourceRegistry(), ServerOptions.defaults());

    @BeforeEach
    void objects() {
        load("Namespace", null, "ns");
        for (String name : List.of("a", "b", "c")) {
            load("ConfigMap", "ns", name);
        }
    }

    @AfterEach
    void close() {
        api.close();
    }

    @Test
    void continuedPagesShowTheMomentOfTheFirstPage() throws Exception {
        JsonNode first = get(CONFIGMAPS + "?limit=2").body();
        store.remove(BuiltinResources.CONFIG_MAPS, "ns", "c", false);

        JsonNode second = get(CONFIGMAPS + "?limit=2&continue=" + first.path("metadata").path("continue").asText()).body();

        assertThat(names(first)).containsExactly("a", "b");
        assertThat(names(second)).containsExactly("c");
        assertThat(second.path("metadata").path("resourceVersion").asText())
                .isEqualTo(first.path("metadata").path("resourceVersion").asText());
    }

    @Test
    void aContinueTokenFromBeforeTheCompactedPointIsExpiredWithATokenToGoOn() throws Exception {
        JsonNode first = get(CONFIGMAPS + "?limit=2").body();
        churn(12);

        Answer expired = get(CONFIGMAPS + "?limit=2&continue=" + first.path("metadata").path("continue").asText());

        assertThat(expired.code()).isEqualTo(410);
        assertThat(expired.body().path("reason").asText()).isEqualTo("Expired");
        assertThat(expired.body().path("message").asText()).isEqualTo(ResourceHandler.CONTINUE_EXPIRED);
        String goOn = expired.body().path("metadata").path("continue").asText();
        assertThat(goOn).isNotEmpty();
        JsonNode rest = get(CONFIGMAPS + "?limit=2&continue=" + goOn).body();
        assertThat(names(rest)).containsExactly("c", "churn");
        assertThat(rest.path("metadata").path("resourceVersion").asLong()).isEqualTo(store.resourceVersion());
    }

    @Test
    void anExactListShowsThePastUntilItIsCompacted() throws Exception {
        long then = store.resourceVersion();
        store.remove(BuiltinResources.CONFIG_MAPS, "ns", "a", false);

        JsonNode past = get(CONFIGMAPS + "?resourceVersion=" + then + "&resourceVersionMatch=Exact").body();
        assertThat(names(past)).containsExactly("a", "b", "c");
        assertThat(past.path("metadata").path("resourceVersion").asLong()).isEqualTo(then);

        churn(12);
        Answer gone = get(CONFIGMAPS + "?resourceVersion=" + then + "&resourceVersionMatch=Exact");
        assertThat(gone.code()).isEqualTo(410);
        assertThat(gone.body()).isEqualTo(Json.MAPPER.readTree("""
                {"kind": "Status", "apiVersion": "v1", "metadata": {}, "status": "Failure",
                 "message": "The resourceVersion for the provided list is too old.", "reason": "Expired", "code": 410}"""));
    }

    @Test
    void notOlderThanAnOldResourceVersionIsTheCurrentList() throws Exception {
        long then = store.resourceVersion();
        store.remove(BuiltinResources.CONFIG_MAPS, "ns", "a", false);
        churn(12);

        Answer answer = get(CONFIGMAPS + "?resourceVersion=" + then + "&resourceVersionMatch=NotOlderThan");
        Answer plain = get(CONFIGMAPS + "?resourceVersion=" + then);

        assertThat(answer.code()).isEqualTo(200);
        assertThat(names(answer.body())).containsExactly("b", "c", "churn");
        assertThat(names(plain.body())).containsExactly("b", "c", "churn");
    }

    @Test
    void aResourceVersionTheServerHasNotReachedIsTooLarge() throws Exception {
        long future = store.resourceVersion() + 100;

        Answer answer = get(CONFIGMAPS + "?resourceVersion=" + future);

        assertThat(answer.code()).isEqualTo(504);
        assertThat(answer.body().path("reason").asText()).isEqualTo("Timeout");
        assertThat(answer.body().path("message").asText())
                .isEqualTo("Timeout: Too large resource version: " + future + ", current: " + store.resourceVersion());
        assertThat(answer.body().path("details").path("causes").get(0).path("reason").asText()).isEqualTo("ResourceVersionTooLarge");
        assertThat(answer.body().path("details").path("retryAfterSeconds").asInt()).isEqualTo(1);
    }

    @Test
    void resourceVersionMatchNeedsAResourceVersion() throws Exception {
        Answer answer = get(CONFIGMAPS + "?resourceVersionMatch=Exact");

        assertThat(answer.code()).isEqualTo(422);
        assertThat(answer.body().path("message").asText()).isEqualTo("ListOptions.meta.k8s.io \"\" is invalid: "
                + "resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden unless resourceVersion is provided");
    }

    private void churn(int changes) {
        load("ConfigMap", "ns", "churn");
        for (int i = 0; i < changes; i++) {
            int n = i;
            store.update(BuiltinResources.CONFIG_MAPS, "ns", "churn", cm -> {
                cm.with("data").put("n", Integer.toString(n));
                return cm;
            }, false);
        }
    }

    private void load(String kind, String namespace, String name) {
        ObjectNode object = Json.object().put("apiVersion", "v1").put("kind", kind);
        object.putObject("metadata").put("name", name);
        if (namespace != null) {
            Json.metadata(object).put("namespace", namespace);
        }
        api.load(object);
    }

    private static List<String> names(JsonNode list) {
        return list.path("items").findValues("metadata").stream().map(m -> m.path("name").asText()).toList();
    }

    private record Answer(int code, JsonNode body) {
    }

    private Answer get(String pathAndQuery) throws Exception {
        String[] parts = pathAndQuery.split("\\?", 2);
        Map<String, List<String>> query = new java.util.LinkedHashMap<>();
        if (parts.length > 1) {
            for (String pair : parts[1].split("&")) {
                String[] kv = pair.split("=", 2);
                query.put(kv[0], List.of(kv.length > 1 ? kv[1] : ""));
            }
        }
        int[] code = new int[1];
        byte[][] body = new byte[1][];
        api.handle(new ApiRequest("GET", parts[0], query, "application/json", null, null), new ResponseChannel() {
            @Override
            public void respond(int c, String contentType, byte[] b) {
                code[0] = c;
                body[0] = b;
            }

            @Override
            public void startStream(String contentType) {
            }

            @Override
            public void sendFrame(byte[] frame) {
            }

            @Override
            public void endStream() {
            }

            @Override
            public void onClose(Runnable action) {
            }
        });
        return new Answer(code[0], Json.MAPPER.readTree(body[0]));
    }
}
