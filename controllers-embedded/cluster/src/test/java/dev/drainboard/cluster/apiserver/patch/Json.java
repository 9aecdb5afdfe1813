package dev.drainboard.cluster.apiserver.patch;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

/** Test documents written as JSON with single quotes, so they read well inside Java strings. */
final class Json {

    private static final ObjectMapper MAPPER = JsonMapper.builder().enable(JsonReadFeature.ALLOW_SINGLE_QUOTES).build();

    private Json() {
    }

    static JsonNode node(String json) {
        try {
            return MAPPER.readTree(json);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("bad test JSON: " + json, e);
        }
    }

    static ObjectNode object(String json) {
        return (ObjectNode) node(json);
    }
}
