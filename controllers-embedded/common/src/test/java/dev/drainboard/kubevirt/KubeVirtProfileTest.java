package dev.drainboard.kubevirt;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.assertj.core.api.Assertions.assertThat;

class KubeVirtProfileTest {

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(nullValues = "none", value = {
            "v1.0.0, SEEDS",
            "v1.4.1, SEEDS",
            "v1.5.0, V1_5",
            "1.5.3, V1_5",
            "v1.6.0, V1_6",
            "v1.7.0-rc.1, V1_7",
            "v1.8.2, V1_7",
            "v1.9.0, V1_9",
            "v1.10.1+abc, V1_9",
            "v2.0.0, V1_9",
            "v0.59.0, SEEDS",
            "latest, none",
            "'', none",
    })
    void versionsMapToTheReleaseWhoseDrainPathTheyRun(String version, KubeVirtProfile expected) {
        assertThat(KubeVirtProfile.of(version)).isEqualTo(java.util.Optional.ofNullable(expected));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({
            // profile, fails closed, denies repeats, PDBs, EvictionRequested, evacuate/cancel, priority queue
            "SEEDS, false, false, true,  false, false, false",
            "V1_5,  true,  true,  true,  false, false, false",
            "V1_6,  true,  true,  false, false, false, false",
            "V1_7,  true,  true,  false, true,  true,  false",
            "V1_9,  true,  true,  false, true,  true,  true",
    })
    void eachProfileHasItsReleasesDrainPath(KubeVirtProfile profile, boolean failsClosed, boolean deniesRepeats,
                                            boolean pdbs, boolean evictionRequested, boolean cancel, boolean queue) {
        assertThat(profile.webhookFailsClosed()).isEqualTo(failsClosed);
        assertThat(profile.webhookDeniesRepeats()).isEqualTo(deniesRepeats);
        assertThat(profile.protectsWithPdbs()).isEqualTo(pdbs);
        assertThat(profile.reportsEvictionRequested()).isEqualTo(evictionRequested);
        assertThat(profile.servesEvacuateCancel()).isEqualTo(cancel);
        assertThat(profile.migrationPriorityQueue()).isEqualTo(queue);
    }
}
