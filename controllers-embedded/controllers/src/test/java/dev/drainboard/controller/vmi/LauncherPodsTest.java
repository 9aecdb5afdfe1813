package dev.drainboard.controller.vmi;

import dev.drainboard.kubevirt.api.DomainSpec;
import dev.drainboard.kubevirt.api.VirtualMachineInstance;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.Toleration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;

/** The launcher pod, field by field, as KubeVirt's {@code pkg/virt-controller/services/template.go} renders it. */
class LauncherPodsTest {

    @Test
    void metadataIsKubeVirts() {
        VirtualMachineInstance vmi = Fixtures.vmi("db-01");
        vmi.getMetadata().setLabels(Map.of("app", "db", "kubevirt.io", "overridden"));
        Map<String, String> annotations = new LinkedHashMap<>();
        annotations.put("team", "storage");
        annotations.put("kubectl.kubernetes.io/last-applied-configuration", "{}");
        annotations.put("kubevirt.io/storage-observed-api-version", "v1");
        annotations.put("kubevirt.io/latest-observed-api-version", "v1");
        annotations.put("descheduler.alpha.kubernetes.io/evict", "true");
        vmi.getMetadata().setAnnotations(annotations);

        Pod pod = LauncherPods.render(vmi);

        assertThat(pod.getMetadata().getGenerateName()).isEqualTo("virt-launcher-db-01-");
        assertThat(pod.getMetadata().getName()).isNull();
        assertThat(pod.getMetadata().getNamespace()).isEqualTo("prod");
        assertThat(pod.getMetadata().getLabels()).containsExactlyInAnyOrderEntriesOf(Map.of(
                "app", "db",
                "kubevirt.io", "virt-launcher",
                "kubevirt.io/created-by", Fixtures.UID,
                "vm.kubevirt.io/name", "db-01",
                "vmi.kubevirt.io/id", "db-01"));
        assertThat(pod.getMetadata().getAnnotations()).containsExactlyInAnyOrderEntriesOf(Map.of(
                "kubevirt.io/domain", "db-01",
                "team", "storage",
                "descheduler.alpha.kubernetes.io/evict", "true",
                "kubectl.kubernetes.io/default-container", "compute",
                "kubevirt.io/migrationTransportUnix", "true",
                "descheduler.alpha.kubernetes.io/request-evict-only", ""));
        assertThat(pod.getMetadata().getOwnerReferences()).singleElement().satisfies(ref -> {
            assertThat(ref.getApiVersion()).isEqualTo("kubevirt.io/v1");
            assertThat(ref.getKind()).isEqualTo("VirtualMachineInstance");
            assertThat(ref.getName()).isEqualTo("db-01");
            assertThat(ref.getUid()).isEqualTo(Fixtures.UID);
            assertThat(ref.getController()).isTrue();
            assertThat(ref.getBlockOwnerDeletion()).isTrue();
        });
        assertThat(pod.getSpec().getRestartPolicy()).isEqualTo("Never");
        assertThat(pod.getSpec().getReadinessGates()).singleElement()
                .satisfies(g -> assertThat(g.getConditionType()).isEqualTo("kubevirt.io/virtual-machine-unpaused"));
        assertThat(pod.getSpec().getContainers()).singleElement().satisfies(c -> assertThat(c.getName()).isEqualTo("compute"));
    }

    @ParameterizedTest(name = "VMI grace {0} → pod grace {1}, monitor {2}")
    @CsvSource(nullValues = "unset", value = {
            "unset, 60, 45",
            "0,     30, 15",
            "30,    60, 45",
            "180,  210, 195",
    })
    void gracePeriodIsPaddedTwiceBy15Seconds(Long vmiGrace, long podGrace, long monitorGrace) {
        VirtualMachineInstance vmi = Fixtures.vmi("db-01");
        vmi.getSpec().setTerminationGracePeriodSeconds(vmiGrace);
        Pod pod = LauncherPods.render(vmi);
        assertThat(pod.getSpec().getTerminationGracePeriodSeconds()).isEqualTo(podGrace);
        List<String> command = pod.getSpec().getContainers().getFirst().getCommand();
        assertThat(command.get(command.indexOf("--grace-period-seconds") + 1)).isEqualTo(Long.toString(monitorGrace));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({
            "db-01, db-01",
            // 63 characters: kept
            "a23456789012345678901234567890123456789012345678901234567890123, a23456789012345678901234567890123456789012345678901234567890123",
            // 64 characters: 54 + '-' + first 8 hex digits of SHA-1
            "a234567890123456789012345678901234567890123456789012345678901234, a23456789012345678901234567890123456789012345678901234-87731ad4",
    })
    void vmiIdLabelFitsALabelValue(String name, String expected) {
        assertThat(LauncherPods.vmiIdLabel(name)).isEqualTo(expected).hasSizeLessThanOrEqualTo(63);
    }

    @ParameterizedTest(name = "requests {0}/{1}, guest {2}, cores {3} → {4} / {5}")
    @CsvSource(nullValues = "-", value = {
            "2Gi, 500m, -,   -, 2Gi,    500m",
            "-,   -,    2Gi, -, 2304Mi, 100m",
            "-,   -,    1Gi, 4, 1280Mi, 400m",
            "1Gi, -,    4Gi, 2, 1Gi,    200m",
            "-,   2,    -,   -, -,      2",
    })
    void requestsComeFromTheVmi(String memory, String cpu, String guest, Integer cores, String podMemory, String podCpu) {
        VirtualMachineInstance vmi = Fixtures.vmi("db-01");
        DomainSpec domain = new DomainSpec();
        DomainSpec.Resources resources = new DomainSpec.Resources();
        Map<String, Quantity> requests = new LinkedHashMap<>();
        if (memory != null) {
            requests.put("memory", new Quantity(memory));
        }
        if (cpu != null) {
            requests.put("cpu", new Quantity(cpu));
        }
        resources.setRequests(requests);
        domain.setResources(resources);
        if (guest != null) {
            DomainSpec.Memory m = new DomainSpec.Memory();
            m.setGuest(new Quantity(guest));
            domain.setMemory(m);
        }
        if (cores != null) {
            DomainSpec.Cpu c = new DomainSpec.Cpu();
            c.setCores(cores);
            domain.setCpu(c);
        }
        vmi.getSpec().setDomain(domain);

        Map<String, Quantity> podRequests = LauncherPods.render(vmi).getSpec().getContainers().getFirst().getResources().getRequests();
        if (podMemory == null) {
            assertThat(podRequests).doesNotContainKey("memory");
        } else {
            assertThat(podRequests.get("memory").getNumericalAmount()).isEqualByComparingTo(new Quantity(podMemory).getNumericalAmount());
        }
        assertThat(podRequests.get("cpu").getNumericalAmount()).isEqualByComparingTo(new Quantity(podCpu).getNumericalAmount());
    }

    @Test
    void placementComesFromTheVmi() {
        VirtualMachineInstance vmi = Fixtures.vmi("db-01");
        vmi.getSpec().setNodeSelector(Map.of("disk", "ssd"));
        vmi.getSpec().setTolerations(List.of(new Toleration("NoSchedule", "dedicated", "Equal", null, "db")));
        vmi.getSpec().setAffinity(new io.fabric8.kubernetes.api.model.AffinityBuilder().withNewNodeAffinity().endNodeAffinity().build());
        vmi.getSpec().setAdditionalProperty("hostname", "database");

        Pod pod = LauncherPods.render(vmi);

        assertThat(pod.getSpec().getNodeSelector()).containsExactly(entry("disk", "ssd"));
        assertThat(pod.getSpec().getTolerations()).containsExactlyElementsOf(vmi.getSpec().getTolerations());
        assertThat(pod.getSpec().getAffinity()).isEqualTo(vmi.getSpec().getAffinity());
        assertThat(pod.getMetadata().getLabels()).containsEntry("vm.kubevirt.io/name", "database");
    }
}
