package dev.drainboard.kubevirt.config;

import dev.drainboard.kubevirt.DrainboardAnnotations;
import dev.drainboard.kubevirt.api.KubeVirt;
import io.fabric8.kubernetes.client.utils.Serialization;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The time scale a time-scaled embedded cluster writes on its KubeVirt CR, as the controllers read it. */
class ClusterConfigTimeScaleTest {

    @ParameterizedTest(name = "annotation \"{0}\" is time scale {1}")
    @CsvSource({"10, 10", "2.5, 2.5", "1, 1", "' 20 ', 20", "0.5, 0.5", "1000, 1000"})
    void readsTheAnnotation(String text, double scale) throws InvalidClusterConfigException {
        assertThat(ClusterConfig.from(kubeVirt(text)).timeScale()).isEqualTo(scale);
    }

    @Test
    void aRealClusterRunsAtRealTime() throws InvalidClusterConfigException {
        assertThat(ClusterConfig.from(kubeVirt(null)).timeScale()).isEqualTo(1.0);
        assertThat(ClusterConfig.defaults().timeScale()).isEqualTo(1.0);
    }

    @ParameterizedTest(name = "\"{0}\" is refused")
    @ValueSource(strings = {"0", "-2", "abc", "1e3", "10x", "1001", "NaN", "Infinity"})
    void refusesWhatIsNotAPositiveDecimal(String text) {
        assertThatThrownBy(() -> ClusterConfig.from(kubeVirt(text))).isInstanceOf(InvalidClusterConfigException.class)
                .hasMessage("annotation drainboard.dev/time-scale must be a positive number, got " + text);
    }

    @Test
    void theScaleSurvivesAProfileOverride() throws InvalidClusterConfigException {
        ClusterConfig config = ClusterConfig.from(kubeVirt("10"));
        assertThat(config.withProfile(dev.drainboard.kubevirt.KubeVirtProfile.V1_6).timeScale()).isEqualTo(10.0);
    }

    @ParameterizedTest(name = "{0} at scale {1} is {2}")
    @CsvSource({"PT150S, 10, PT15S", "PT150S, 1, PT150S", "PT0.9S, 10, PT0.09S", "PT0.001S, 100, PT0.001S",
            "PT0S, 10, PT0S", "PT20S, 2.5, PT8S"})
    void scalesDurationsKeepingAPositiveOneAtLeastAMillisecond(String real, double scale, String expected) {
        assertThat(ClusterConfig.scaled(Duration.parse(real), scale)).isEqualTo(Duration.parse(expected));
    }

    private static KubeVirt kubeVirt(String scale) {
        KubeVirt kv = Serialization.unmarshal("{\"apiVersion\":\"kubevirt.io/v1\",\"kind\":\"KubeVirt\",\"metadata\":"
                + "{\"name\":\"kubevirt\",\"namespace\":\"kubevirt\"}}", KubeVirt.class);
        if (scale != null) {
            kv.getMetadata().setAnnotations(java.util.Map.of(DrainboardAnnotations.TIME_SCALE, scale));
        }
        return kv;
    }
}
