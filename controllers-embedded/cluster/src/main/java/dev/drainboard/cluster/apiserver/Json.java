package dev.drainboard.cluster.apiserver;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.util.JsonRecyclerPools;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLGenerator;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;

/** Shared JSON/YAML mappers and small helpers for objects kept as Jackson trees. */
public final class Json {

    /*
     * Requests run on virtual threads, one per request, so Jackson's default thread-local buffer
     * recycling never reuses a buffer: a shared pool does, and halves the garbage of each request.
     */
    public static final ObjectMapper MAPPER = new ObjectMapper(JsonFactory.builder()
            .recyclerPool(JsonRecyclerPools.sharedConcurrentDequePool())
            .build())
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS);
    public static final ObjectMapper YAML = new ObjectMapper(YAMLFactory.builder()
            .disable(YAMLGenerator.Feature.WRITE_DOC_START_MARKER)
            .enable(YAMLGenerator.Feature.MINIMIZE_QUOTES)
            .enable(com.fasterxml.jackson.core.StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            // "spec:" with nothing after it is null, as sigs.k8s.io/yaml (kubectl, kube-apiserver) reads it; without
            // this, Jackson reads an empty plain scalar that ends a document as "" (quoted '' stays "").
            .enable(com.fasterxml.jackson.dataformat.yaml.YAMLParser.Feature.EMPTY_STRING_AS_NULL)
            .build())
            .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS);
    public static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private static final DateTimeFormatter RFC3339 = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss'Z'").withZone(ZoneOffset.UTC);
    private static final DateTimeFormatter RFC3339_MICRO = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSSSS'Z'").withZone(ZoneOffset.UTC);

    private Json() {
    }

    public static ObjectNode object() {
        return NODES.objectNode();
    }

    /** Kubernetes metav1.Time: RFC 3339 with second precision, UTC. */
    public static String timestamp(Instant instant) {
        return RFC3339.format(instant.truncatedTo(ChronoUnit.SECONDS));
    }

    /** Kubernetes metav1.MicroTime, as leases and events.k8s.io use it. */
    public static String microTimestamp(Instant instant) {
        return RFC3339_MICRO.format(instant);
    }

    public static Instant parseTimestamp(String text) {
        return text == null || text.isEmpty() ? null : Instant.parse(text);
    }

    /** The text at a path of field names, or "" when any step is missing. */
    public static String text(JsonNode node, String... path) {
        JsonNode at = at(node, path);
        return at == null || at.isNull() || at.isMissingNode() ? "" : at.asText();
    }

    public static JsonNode at(JsonNode node, String... path) {
        JsonNode at = node;
        for (String step : path) {
            if (at == null || !at.isObject()) {
                return null;
            }
            at = at.get(step);
        }
        return at;
    }

    public static ObjectNode metadata(ObjectNode object) {
        JsonNode meta = object.get("metadata");
        if (meta instanceof ObjectNode m) {
            return m;
        }
        return object.putObject("metadata");
    }

    public static String name(JsonNode object) {
        return text(object, "metadata", "name");
    }

    public static String namespace(JsonNode object) {
        return text(object, "metadata", "namespace");
    }

    public static String uid(JsonNode object) {
        return text(object, "metadata", "uid");
    }

    public static long resourceVersion(JsonNode object) {
        String rv = text(object, "metadata", "resourceVersion");
        return rv.isEmpty() ? 0 : Long.parseLong(rv);
    }

    public static byte[] bytes(JsonNode node) {
        try {
            return MAPPER.writeValueAsBytes(node);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot serialise a JSON tree", e);
        }
    }

    public static String string(JsonNode node) {
        try {
            return MAPPER.writeValueAsString(node);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot serialise a JSON tree", e);
        }
    }
}
