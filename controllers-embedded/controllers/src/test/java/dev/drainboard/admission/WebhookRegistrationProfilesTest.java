package dev.drainboard.admission;

import dev.drainboard.kubevirt.KubeVirtProfile;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.MatchCondition;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingWebhook;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.assertj.core.api.Assertions.assertThat;

/** KubeVirt's launcher eviction webhook registration per release ({@code webhooks.go} at v1.4.0 and v1.5.0). */
class WebhookRegistrationProfilesTest {

    @ParameterizedTest(name = "{0}: failurePolicy {1}, matchConditions {2}")
    @CsvSource(delimiter = '|', textBlock = """
            SEEDS | Ignore | none
            V1_5  | Fail   | only-vms
            V1_6  | Fail   | only-vms
            V1_7  | Fail   | only-vms
            V1_9  | Fail   | only-vms
            """)
    void failurePolicyAndMatchConditionFollowTheRelease(KubeVirtProfile profile, String policy, String condition) {
        ValidatingWebhook hook = WebhookRegistration.webhook("https://10.0.0.1:8443/launcher-eviction-validate", "PEM", profile);

        assertThat(hook.getName()).isEqualTo("virt-launcher-eviction-interceptor.kubevirt.io");
        assertThat(hook.getFailurePolicy()).isEqualTo(policy);
        if (condition.equals("none")) {
            assertThat(hook.getMatchConditions()).isNullOrEmpty();
        } else {
            assertThat(hook.getMatchConditions()).extracting(MatchCondition::getName, MatchCondition::getExpression)
                    .containsExactly(org.assertj.core.groups.Tuple.tuple(condition, "object.metadata.name.startsWith(\"virt-launcher\")"));
        }
        assertThat(hook.getRules()).singleElement().satisfies(r -> assertThat(r.getResources()).containsExactly("pods/eviction"));
    }
}
