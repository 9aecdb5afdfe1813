package dev.drainboard.controller.vmi;

import dev.drainboard.kubevirt.KubeVirtAnnotations;
import dev.drainboard.kubevirt.KubeVirtProfile;
import dev.drainboard.kubevirt.api.Condition;
import dev.drainboard.kubevirt.api.VirtualMachineInstance;
import io.fabric8.kubernetes.api.model.Pod;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.time.Instant;
import java.util.HashMap;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * KubeVirt v1.7 (PR #15423): the VMI controller keeps {@code EvictionRequested} and the launcher pod's
 * {@code descheduler.alpha.kubernetes.io/eviction-in-progress} in step with {@code status.evacuationNodeName}; before,
 * neither (the annotation was the migration controller's).
 */
class VmiDecisionProfilesTest {

    private static final Instant NOW = Instant.parse("2025-03-04T05:06:07Z");

    @ParameterizedTest(name = "{0}, marked={1}, pod annotated={2}, pod ready={3}: condition {4}, annotation {5}")
    @CsvSource(delimiter = '|', textBlock = """
            SEEDS | true  | false | true  | none  | unchanged
            V1_5  | true  | false | true  | none  | unchanged
            V1_6  | false | true  | true  | none  | unchanged
            V1_7  | true  | false | true  | added | add
            V1_9  | true  | false | true  | added | add
            V1_7  | true  | true  | true  | added | unchanged
            V1_7  | false | true  | true  | none  | remove
            V1_9  | false | false | true  | none  | unchanged
            V1_7  | true  | false | false | added | unchanged
            """)
    void evictionMarkFollowersPerProfile(KubeVirtProfile profile, boolean marked, boolean annotated, boolean ready,
                                         String condition, String annotation) {
        VirtualMachineInstance vmi = Fixtures.vmi("Running", false, "node01", marked ? "node01" : null);
        Pod pod = Fixtures.pod("virt-launcher-db-01-abcde", "node01", "Running", ready, false);
        if (annotated) {
            var annotations = new HashMap<>(pod.getMetadata().getAnnotations() == null ? java.util.Map.of() : pod.getMetadata().getAnnotations());
            annotations.put(KubeVirtAnnotations.DESCHEDULER_EVICTION_IN_PROGRESS, "true");
            pod.getMetadata().setAnnotations(annotations);
        }

        VmiPlan plan = VmiDecision.decide(vmi, List.of(pod), false, profile, NOW);

        List<Condition> conditions = plan.change().conditions();
        if (condition.equals("added")) {
            assertThat(conditions).extracting(Condition::getType).contains("EvictionRequested");
        } else {
            assertThat(conditions == null ? List.<Condition>of() : conditions).extracting(Condition::getType).doesNotContain("EvictionRequested");
        }
        switch (annotation) {
            case "unchanged" -> assertThat(plan.evictionInProgress()).isNull();
            case "add" -> assertThat(plan.evictionInProgress()).isEqualTo(new VmiPlan.EvictionInProgress(pod, true));
            case "remove" -> assertThat(plan.evictionInProgress()).isEqualTo(new VmiPlan.EvictionInProgress(pod, false));
            default -> throw new IllegalArgumentException(annotation);
        }
    }
}
