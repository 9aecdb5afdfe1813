package dev.drainboard.admission;

import static dev.drainboard.admission.Fixtures.NODE;
import static dev.drainboard.admission.Fixtures.evictionOf;
import static dev.drainboard.admission.Fixtures.launcher;
import static dev.drainboard.admission.Fixtures.vmi;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.drainboard.admission.EvictionDecision.Why;
import dev.drainboard.kubevirt.api.EvictionStrategy;
import dev.drainboard.kubevirt.api.VirtualMachineInstance;
import dev.drainboard.kubevirt.config.ClusterConfig;
import dev.drainboard.kubevirt.config.MigrationConfig;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.Optional;
import java.util.Set;

/**
 * KubeVirt's {@code PodEvictionAdmitter.Admit} (v1.4) and the "Pod Eviction Webhook" tables of its
 * {@code docs/handling-eviction-requests.md}, row by row.
 */
@DisplayName("eviction admitter (KubeVirt v1.4's Admit)")
class EvictionAdmitterTest {

    private static final ClusterConfig DEFAULTS = ClusterConfig.defaults();

    private static EvictionDecision decide(VirtualMachineInstance vmi, Pod pod, boolean dryRun, ClusterConfig config) {
        return EvictionAdmitter.decide(evictionOf(pod, dryRun), pod, VmiLookup.found(vmi), config);
    }

    /** The answer after the mark (if any) was written, as the API server receives it. */
    private static EvictionDecision answered(EvictionDecision d) {
        return d instanceof EvictionDecision.Mark m ? m.denial() : d;
    }

    @ParameterizedTest(name = "{0}, migratable={1}: marked={2}, approved={3}, {4}")
    @DisplayName("webhook response table")
    @CsvSource(delimiter = '|', textBlock = """
            None                  | true  | false | true  | 200
            None                  | false | false | true  | 200
            LiveMigrate           | true  | true  | false | 429 - evacuation triggered
            LiveMigrate           | false | false | false | 429
            LiveMigrateIfPossible | true  | true  | false | 429 - evacuation triggered
            LiveMigrateIfPossible | false | false | true  | 200
            External              | true  | true  | false | 429 - evacuation triggered
            External              | false | true  | false | 429 - evacuation triggered
            """)
    void webhookResponse(String strategy, boolean migratable, boolean marked, boolean approved, String response) {
        VirtualMachineInstance vmi = vmi("vm-cirros", strategy, migratable, false);
        Pod pod = launcher("vm-cirros", NODE);

        EvictionDecision decision = decide(vmi, pod, false, DEFAULTS);

        assertThat(decision instanceof EvictionDecision.Mark).as("VMI marked for evacuation").isEqualTo(marked);
        if (decision instanceof EvictionDecision.Mark m) {
            assertThat(m.mark()).isEqualTo(new MarkForEvacuation("default", "vm-cirros", NODE, false));
        }
        EvictionDecision answer = answered(decision);
        assertThat(answer instanceof EvictionDecision.Allow).as("webhook approves").isEqualTo(approved);
        if (answer instanceof EvictionDecision.Deny deny) {
            assertThat(deny.code()).isEqualTo(429);
            assertThat(response).startsWith("429");
            assertThat(deny.message()).isEqualTo(response.endsWith("evacuation triggered")
                    ? "Eviction triggered evacuation of VMI \"default/vm-cirros\""
                    : "VMI vm-cirros is configured with an eviction strategy but is not live-migratable");
        } else {
            assertThat(response).isEqualTo("200");
        }
    }

    @ParameterizedTest(name = "{0}, migratable={1}: approved={2}")
    @DisplayName("additional requests on a VMI already marked for evacuation: passed on to the PDB")
    @CsvSource(delimiter = '|', textBlock = """
            LiveMigrate           | true  | true
            LiveMigrateIfPossible | true  | true
            External              | true  | true
            External              | false | true
            """)
    void additionalRequests(String strategy, boolean migratable, boolean approved) {
        VirtualMachineInstance vmi = vmi("vm-cirros", strategy, migratable, true);

        EvictionDecision decision = decide(vmi, launcher("vm-cirros", NODE), false, DEFAULTS);

        assertThat(decision instanceof EvictionDecision.Allow).isEqualTo(approved);
        assertThat(decision.why()).isEqualTo(Why.ALREADY_MARKED);
    }

    @ParameterizedTest(name = "cluster {0}, VMI {1}, migratable={2} → {3}")
    @DisplayName("the VMI's own strategy wins over the KubeVirt CR's; without one the CR's applies")
    @CsvSource(delimiter = '|', nullValues = "-", textBlock = """
            LiveMigrate | -           | true  | EVACUATION_TRIGGERED
            LiveMigrate | -           | false | NOT_LIVE_MIGRATABLE
            LiveMigrate | None        | true  | NO_EVACUATION_WANTED
            None        | External    | false | EVACUATION_TRIGGERED
            External    | -           | false | EVACUATION_TRIGGERED
            None        | -           | true  | NO_EVACUATION_WANTED
            None        | Sometimes   | true  | NO_EVACUATION_WANTED
            """)
    void strategyResolution(String cluster, String own, boolean migratable, Why why) {
        ClusterConfig config = new ClusterConfig(EvictionStrategy.parse(cluster).orElseThrow(), MigrationConfig.defaults(),
                Set.of(), Optional.of("kubevirt/kubevirt"));

        EvictionDecision decision = decide(vmi("vm", own, migratable, false), launcher("vm", NODE), false, config);

        assertThat(decision.why()).isEqualTo(why);
    }

    @Test
    @DisplayName("a pod that is not a virt-launcher pod passes, whatever its annotations")
    void nonLauncherPodPasses() {
        Pod pod = new PodBuilder(launcher("vm", NODE)).editMetadata().addToLabels("kubevirt.io", "virt-handler").endMetadata().build();

        EvictionDecision decision = EvictionAdmitter.decide(evictionOf(pod, false), pod, VmiLookup.notNeeded(), DEFAULTS);

        assertThat(decision).isEqualTo(new EvictionDecision.Allow(Why.NOT_A_LAUNCHER_POD));
        assertThat(EvictionAdmitter.vmiNameOf(pod)).isEmpty();
    }

    @ParameterizedTest(name = "pod {0}, strategy {1}, migratable={2} → {3}")
    @DisplayName("a completed launcher pod passes whatever its VMI says; a running one does not")
    @CsvSource(delimiter = '|', textBlock = """
            Succeeded | LiveMigrate | false | COMPLETED_POD
            Failed    | LiveMigrate | false | COMPLETED_POD
            Succeeded | External    | true  | COMPLETED_POD
            Failed    | LiveMigrate | true  | COMPLETED_POD
            Running   | LiveMigrate | false | NOT_LIVE_MIGRATABLE
            Pending   | LiveMigrate | false | NOT_LIVE_MIGRATABLE
            Running   | External    | true  | EVACUATION_TRIGGERED
            """)
    void completedLauncherPodPasses(String phase, String strategy, boolean migratable, Why why) {
        Pod pod = new PodBuilder(launcher("vm", NODE)).withNewStatus().withPhase(phase).endStatus().build();
        boolean completed = why == Why.COMPLETED_POD;

        EvictionDecision decision = EvictionAdmitter.decide(evictionOf(pod, false), pod,
                completed ? VmiLookup.notNeeded() : VmiLookup.found(vmi("vm", strategy, migratable, false)), DEFAULTS);

        assertThat(decision.why()).isEqualTo(why);
        assertThat(decision instanceof EvictionDecision.Allow).isEqualTo(completed);
        assertThat(EvictionAdmitter.vmiToRead(pod)).as("VMI read for the decision").isEqualTo(completed ? Optional.empty() : Optional.of("vm"));
    }

    @Test
    @DisplayName("a launcher pod without the kubevirt.io/domain annotation passes")
    void launcherWithoutDomainPasses() {
        Pod pod = new PodBuilder(launcher("vm", NODE)).editMetadata().withAnnotations(null).endMetadata().build();

        EvictionDecision decision = EvictionAdmitter.decide(evictionOf(pod, false), pod, VmiLookup.notNeeded(), DEFAULTS);

        assertThat(decision).isEqualTo(new EvictionDecision.Allow(Why.NO_DOMAIN_ANNOTATION));
    }

    @Test
    @DisplayName("a pod that could not be read passes")
    void unreadablePodPasses() {
        EvictionDecision decision = EvictionAdmitter.decide(new EvictionRequest("default", "gone", false), null,
                VmiLookup.notNeeded(), DEFAULTS);

        assertThat(decision).isEqualTo(new EvictionDecision.Allow(Why.POD_NOT_READ));
    }

    @Test
    @DisplayName("failing to get the VMI denies with 429 and the error")
    void vmiLookupFailureDenies() {
        Pod pod = launcher("vm-gone", NODE);

        EvictionDecision decision = EvictionAdmitter.decide(evictionOf(pod, false), pod,
                VmiLookup.failed("virtualmachineinstances.kubevirt.io \"vm-gone\" not found"), DEFAULTS);

        assertThat(decision).isEqualTo(new EvictionDecision.Deny(Why.VMI_NOT_READ,
                "kubevirt failed getting the vmi: virtualmachineinstances.kubevirt.io \"vm-gone\" not found"));
        assertThat(((EvictionDecision.Deny) decision).code()).isEqualTo(429);
    }

    @Test
    @DisplayName("a launcher pod that names a VMI must come with the VMI looked up")
    void lookupRequired() {
        Pod pod = launcher("vm", NODE);
        assertThatThrownBy(() -> EvictionAdmitter.decide(evictionOf(pod, false), pod, VmiLookup.notNeeded(), DEFAULTS))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @ParameterizedTest(name = "VMI on {0}, pod on {1}")
    @DisplayName("a pod on another node than the VMI (a migration target) is not marked but passed on to the PDB")
    @CsvSource(delimiter = '|', nullValues = "-", textBlock = """
            node01 | node02
            node01 | -
            -      | -
            """)
    void podNotOnVmiNodePasses(String vmiNode, String podNode) {
        VirtualMachineInstance vmi = vmi("vm", "LiveMigrate", true, false);
        vmi.getStatus().setNodeName(vmiNode);

        EvictionDecision decision = decide(vmi, launcher("vm", podNode), false, DEFAULTS);

        assertThat(decision).isEqualTo(new EvictionDecision.Allow(Why.NOT_ON_VMI_NODE));
    }

    @Test
    @DisplayName("a dry-run eviction marks with a dry-run patch and is denied just the same")
    void dryRunMarksWithDryRun() {
        EvictionDecision decision = decide(vmi("vm", "External", false, false), launcher("vm", NODE), true, DEFAULTS);

        assertThat(decision).isInstanceOf(EvictionDecision.Mark.class);
        EvictionDecision.Mark mark = (EvictionDecision.Mark) decision;
        assertThat(mark.mark().dryRun()).isTrue();
        assertThat(mark.denial().message()).isEqualTo("Eviction triggered evacuation of VMI \"default/vm\"");
    }

    @Test
    @DisplayName("the mark is a JSON patch adding /status/evacuationNodeName with the VMI's node")
    void markPatch() {
        assertThat(new MarkForEvacuation("default", "vm", "node01", false).jsonPatch())
                .isEqualTo("[{\"op\":\"add\",\"path\":\"/status/evacuationNodeName\",\"value\":\"node01\"}]");
    }

    @ParameterizedTest(name = "VMI with annotations: {0}")
    @CsvSource(delimiter = '|', value = {
            "true  | [{\"op\":\"add\",\"path\":\"/status/evacuationNodeName\",\"value\":\"node01\"},{\"op\":\"add\",\"path\":\"/metadata/annotations/kubevirt.io~1eviction-source\",\"value\":\"descheduler\"}]",
            "false | [{\"op\":\"add\",\"path\":\"/status/evacuationNodeName\",\"value\":\"node01\"},{\"op\":\"add\",\"path\":\"/metadata/annotations\",\"value\":{\"kubevirt.io/eviction-source\":\"descheduler\"}}]",
    })
    @DisplayName("an eviction the descheduler sent also annotates the VMI kubevirt.io/eviction-source: descheduler (KubeVirt's markVMI)")
    void deschedulerMarkPatch(boolean vmiHasAnnotations, String patch) {
        assertThat(new MarkForEvacuation("default", "vm", "node01", false, true, vmiHasAnnotations).jsonPatch()).isEqualTo(patch);
    }

    @ParameterizedTest(name = "sent by the descheduler: {0}, VMI annotated: {1}")
    @CsvSource({"true, true", "true, false", "false, true"})
    @DisplayName("the mark carries who sent the eviction and whether the VMI has annotations to add to")
    void markSaysWhoSentTheEviction(boolean byDescheduler, boolean annotated) {
        VirtualMachineInstance vmi = vmi("vm", "LiveMigrate", true, false);
        if (annotated) {
            vmi.getMetadata().setAnnotations(java.util.Map.of("team", "storage"));
        }
        Pod pod = launcher("vm", NODE);
        EvictionDecision decision = EvictionAdmitter.decide(
                new EvictionRequest(pod.getMetadata().getNamespace(), pod.getMetadata().getName(), false, byDescheduler),
                pod, VmiLookup.found(vmi), DEFAULTS);

        assertThat(decision).isInstanceOfSatisfying(EvictionDecision.Mark.class, m -> {
            assertThat(m.mark().byDescheduler()).isEqualTo(byDescheduler);
            assertThat(m.mark().vmiHasAnnotations()).isEqualTo(annotated);
        });
    }

    @Test
    @DisplayName("a failed mark denies with 429 and the error")
    void markFailed() {
        EvictionDecision.Deny deny = EvictionAdmitter.markFailed("the server rejected our request");

        assertThat(deny.code()).isEqualTo(429);
        assertThat(deny.message()).isEqualTo("kubevirt failed marking the vmi for eviction: the server rejected our request");
        assertThat(deny.why()).isEqualTo(Why.MARK_FAILED);
    }
}
