package dev.drainboard.labels;

import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.json.JsonMapper;

/** Lenient JSON (single quotes, bare names) so that test tables stay readable. */
public final class LenientJson {
    private static final JsonMapper MAPPER = JsonMapper.builder()
            .enable(JsonReadFeature.ALLOW_SINGLE_QUOTES, JsonReadFeature.ALLOW_UNQUOTED_FIELD_NAMES)
            .build();

    private LenientJson() {
    }

    public static JsonNode of(String lenientJson) {
        try {
            return MAPPER.readTree(lenientJson);
        } catch (Exception e) {
            throw new IllegalArgumentException(lenientJson, e);
        }
    }
}
