package dev.drainboard.cluster.kubelet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

/** The simulated kubelet's eviction configuration, read from Node annotations in the kubelet's flag syntax. */
class EvictionConfigTest {

    static final String SOFT = "sim.drainboard.dev/eviction-soft";
    static final String SOFT_GRACE = "sim.drainboard.dev/eviction-soft-grace-period";
    static final String MAX_GRACE = "sim.drainboard.dev/eviction-max-pod-grace-period";
    static final String HARD = "sim.drainboard.dev/eviction-hard";

    @Test
    void nodePressureProposalsTestValues() {
        EvictionConfig c = EvictionConfig.parse(Map.of(SOFT, "memory.available<3500Mi", SOFT_GRACE, "memory.available=5s",
                MAX_GRACE, "300", HARD, "memory.available<10Mi"));

        assertThat(c.soft().bytesOf(64L << 30)).isEqualTo(3500L << 20);
        assertThat(c.softGracePeriod()).isEqualTo(Duration.ofSeconds(5));
        assertThat(c.maxPodGracePeriodSeconds()).isEqualTo(300);
        assertThat(c.hard().bytesOf(64L << 30)).isEqualTo(10L << 20);
        assertThat(c.pressureTransitionPeriod()).isEqualTo(Duration.ofMinutes(5));
        assertThat(c.enabled()).isTrue();
    }

    @Test
    void aNodeWithoutAnnotationsNeverEvicts() {
        assertThat(EvictionConfig.parse(Map.of()).enabled()).isFalse();
        assertThat(EvictionConfig.parse(Map.of(MAX_GRACE, "60")).enabled()).isFalse();
    }

    @Test
    void aPercentageIsOfTheNodesCapacity() {
        EvictionConfig c = EvictionConfig.parse(Map.of(HARD, "memory.available < 12.5%"));
        assertThat(c.hard().bytesOf(8L << 30)).isEqualTo(1L << 30);
    }

    @ParameterizedTest(name = "[{index}] {0}={1}")
    @CsvSource(delimiter = ';', value = {
            "sim.drainboard.dev/eviction-hard; memory.available>10Mi; expected memory.available<<quantity or percentage>",
            "sim.drainboard.dev/eviction-hard; nodefs.available<10%; expected memory.available<",
            "sim.drainboard.dev/eviction-hard; memory.available<lots; is neither a quantity",
            "sim.drainboard.dev/eviction-hard; memory.available<120%; is neither a quantity",
            "sim.drainboard.dev/eviction-max-pod-grace-period; -1; expected whole seconds",
            "sim.drainboard.dev/eviction-max-pod-grace-period; 5m; expected whole seconds",
            "sim.drainboard.dev/eviction-soft-grace-period; 5s; expected memory.available=<duration>",
            "sim.drainboard.dev/eviction-pressure-transition-period; soon; is not a duration",
    })
    void badValuesAreRefusedNamingTheAnnotation(String key, String value, String message) {
        Map<String, String> annotations = new HashMap<>(Map.of(key, value));
        assertThatThrownBy(() -> EvictionConfig.parse(annotations))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(key)
                .hasMessageContaining(message);
    }

    @Test
    void aSoftThresholdNeedsItsGracePeriodAsTheKubeletSays() {
        assertThatThrownBy(() -> EvictionConfig.parse(Map.of(SOFT, "memory.available<1Gi")))
                .hasMessageContaining("needs sim.drainboard.dev/eviction-soft-grace-period");
    }
}
