package dev.drainboard.kubevirt;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.HashMap;
import java.util.Map;

@DisplayName("the annotations KubeVirt and the descheduler read and write")
class DeschedulerAnnotationsTest {

    static Pod withAnnotation(String key, String value) {
        PodBuilder b = new PodBuilder().withNewMetadata().withName("p").endMetadata();
        if (key != null) {
            b.editMetadata().addToAnnotations(key, value).endMetadata();
        }
        return b.build();
    }

    @ParameterizedTest(name = "{0}: {1} → {2}")
    @CsvSource({
            "requested-by, sigs.k8s.io/descheduler, true",
            "requested-by, kubectl,                 false",
            "other,        sigs.k8s.io/descheduler, false",
            ",             ,                        false",
    })
    @DisplayName("an Eviction the descheduler sent says requested-by: sigs.k8s.io/descheduler")
    void deschedulerEviction(String key, String value, boolean descheduler) {
        Map<String, String> annotations = key == null ? null : Map.of(key, value);
        assertThat(DeschedulerAnnotations.isDeschedulerEviction(annotations)).isEqualTo(descheduler);
    }

    @ParameterizedTest(name = "{0}: {1} → evicted by the descheduler {2}, has a source {3}")
    @CsvSource({
            "kubevirt.io/eviction-source, descheduler, true,  true",
            "kubevirt.io/eviction-source, other,       false, true",
            "team,                        storage,     false, false",
            ",                            ,            false, false",
    })
    @DisplayName("a VMI whose evacuation the descheduler started says kubevirt.io/eviction-source: descheduler")
    void evictionSource(String key, String value, boolean descheduler, boolean hasSource) {
        Pod object = withAnnotation(key, value); // any object's metadata will do
        assertThat(DeschedulerAnnotations.evictedByDescheduler(object)).isEqualTo(descheduler);
        assertThat(DeschedulerAnnotations.hasEvictionSource(object)).isEqualTo(hasSource);
    }

    @Test
    @DisplayName("eviction-in-progress: set to \"true\" and taken off by merge patch; its presence is what counts")
    void evictionInProgress() {
        assertThat(DeschedulerAnnotations.evictionInProgressPatch(true))
                .isEqualTo("{\"metadata\":{\"annotations\":{\"descheduler.alpha.kubernetes.io/eviction-in-progress\":\"true\"}}}");
        assertThat(DeschedulerAnnotations.evictionInProgressPatch(false))
                .isEqualTo("{\"metadata\":{\"annotations\":{\"descheduler.alpha.kubernetes.io/eviction-in-progress\":null}}}");
        assertThat(DeschedulerAnnotations.evictionInProgress(withAnnotation("descheduler.alpha.kubernetes.io/eviction-in-progress", "")))
                .isTrue();
        assertThat(DeschedulerAnnotations.evictionInProgress(withAnnotation(null, null))).isFalse();
    }

    @Test
    @DisplayName("every launcher pod asks the descheduler to evict through the API only")
    void launcherAnnotations() {
        Map<String, String> annotations = new HashMap<>();
        DeschedulerAnnotations.addLauncherAnnotations(annotations);
        assertThat(annotations).containsExactly(Map.entry("descheduler.alpha.kubernetes.io/request-evict-only", ""));
    }
}
