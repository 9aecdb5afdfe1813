package dev.drainboard.kubevirt;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.assertj.core.api.Assertions.assertThat;

/** The one decision of which profile applies: CR status, else the virt-controller image tag, else the default. */
class ProfileChoiceTest {

    @ParameterizedTest(name = "status={0} image={1} -> {2} from {3}")
    @CsvSource(delimiter = '|', nullValues = "-", textBlock = """
            v1.6.2     | quay.io/kubevirt/virt-controller:v1.9.0          | V1_6  | CR_STATUS             | v1.6.2
            -          | quay.io/kubevirt/virt-controller:v1.5.1          | V1_5  | VIRT_CONTROLLER_IMAGE | v1.5.1
            ''         | registry:5000/kubevirt/virt-controller:v1.8.0    | V1_7  | VIRT_CONTROLLER_IMAGE | v1.8.0
            garbage    | quay.io/kubevirt/virt-controller:v1.9.0@sha256:ab | V1_9  | VIRT_CONTROLLER_IMAGE | v1.9.0
            -          | registry:5000/kubevirt/virt-controller           | SEEDS | DEFAULT               | ''
            -          | quay.io/kubevirt/virt-controller:latest          | SEEDS | DEFAULT               | ''
            -          | -                                                | SEEDS | DEFAULT               | ''
            v1.3.1     | -                                                | SEEDS | CR_STATUS             | v1.3.1
            v1.10.0-rc.1 | -                                              | V1_9  | CR_STATUS             | v1.10.0-rc.1
            """)
    void crStatusThenImageTagThenDefault(String status, String image, KubeVirtProfile profile, ProfileChoice.Source source, String version) {
        ProfileChoice choice = ProfileChoice.resolve(status, image);
        assertThat(choice.profile()).isEqualTo(profile);
        assertThat(choice.source()).isEqualTo(source);
        assertThat(choice.version()).isEqualTo(version);
    }

    @Test
    void anOverrideNamesAVersion() {
        assertThat(ProfileChoice.override("v1.6.0")).contains(new ProfileChoice(KubeVirtProfile.V1_6, ProfileChoice.Source.OVERRIDE, "v1.6.0"));
        assertThat(ProfileChoice.override("newest")).isEmpty();
    }

    @Test
    void describeSaysWhatSaidSo() {
        assertThat(ProfileChoice.resolve("v1.6.2", null).describe()).isEqualTo("KubeVirt 1.6 (v1.6.2, from KubeVirt CR status)");
        assertThat(ProfileChoice.defaults().describe()).isEqualTo("KubeVirt ≤ 1.4 (default)");
    }
}
