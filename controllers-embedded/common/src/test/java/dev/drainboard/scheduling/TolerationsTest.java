package dev.drainboard.scheduling;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.List;

/** Kubernetes' toleration rules, one row per case: toleration (key, operator, value, effect) against taint (key, value, effect). */
class TolerationsTest {

    @ParameterizedTest(name = "[{index}] toleration {0}/{1}/{2}/{3} vs taint {4}={5}:{6} → {7}")
    @CsvSource(nullValues = "-", value = {
            // key,    operator, value, effect,       taint key, value, effect,     tolerated
            "k,        Equal,    v,     NoSchedule,   k,         v,     NoSchedule, true",
            "k,        Equal,    v,     NoSchedule,   k,         w,     NoSchedule, false",
            "k,        -,        v,     NoSchedule,   k,         v,     NoSchedule, true",   // Equal is the default
            "k,        Equal,    -,     NoSchedule,   k,         -,     NoSchedule, true",   // empty values are equal
            "k,        Exists,   -,     NoSchedule,   k,         v,     NoSchedule, true",
            "k,        Exists,   -,     -,            k,         v,     NoExecute,  true",   // no effect: every effect
            "k,        Exists,   -,     NoExecute,    k,         v,     NoSchedule, false",  // effect must match
            "other,    Exists,   -,     -,            k,         v,     NoSchedule, false",
            "-,        Exists,   -,     -,            k,         v,     NoSchedule, true",   // empty key + Exists: all
            "-,        Exists,   -,     NoSchedule,   k,         v,     NoExecute,  false",  // ... of that effect only
            "-,        Exists,   -,     NoSchedule,   anything,  -,     NoSchedule, true",
            "k,        Bogus,    v,     -,            k,         v,     NoSchedule, false",
            "node.kubernetes.io/unschedulable, Exists, -, NoSchedule, node.kubernetes.io/unschedulable, -, NoSchedule, true",
    })
    void matching(String key, String operator, String value, String effect,
                  String taintKey, String taintValue, String taintEffect, boolean tolerated) {
        ObjectNode toleration = JsonNodeFactory.instance.objectNode();
        putIf(toleration, "key", key);
        putIf(toleration, "operator", operator);
        putIf(toleration, "value", value);
        putIf(toleration, "effect", effect);
        ObjectNode taint = JsonNodeFactory.instance.objectNode();
        putIf(taint, "key", taintKey);
        putIf(taint, "value", taintValue);
        putIf(taint, "effect", taintEffect);

        assertThat(Tolerations.tolerates(toleration, taint)).isEqualTo(tolerated);
    }

    @ParameterizedTest(name = "[{index}] {0}")
    @CsvSource({
            "PreferNoSchedule taints never block, PreferNoSchedule, -",
            "NoSchedule blocks, NoSchedule, a",
            "NoExecute blocks, NoExecute, a",
    })
    void onlyNoScheduleAndNoExecuteTaintsBlock(String description, String effect, String blockingKey) {
        ObjectNode taint = JsonNodeFactory.instance.objectNode().put("key", "a").put("effect", effect);
        var untolerated = Tolerations.firstUntolerated(List.<JsonNode>of(taint), JsonNodeFactory.instance.arrayNode());
        assertThat(untolerated.map(t -> t.path("key").asText()).orElse("-")).isEqualTo(blockingKey);
    }

    private static void putIf(ObjectNode node, String field, String value) {
        if (value != null) {
            node.put(field, value);
        }
    }
}
