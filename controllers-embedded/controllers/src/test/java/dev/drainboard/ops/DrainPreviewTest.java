package dev.drainboard.ops;

import dev.drainboard.kubevirt.api.Condition;
import dev.drainboard.kubevirt.api.KubeVirt;
import dev.drainboard.kubevirt.api.KubeVirtSpec;
import dev.drainboard.kubevirt.api.VirtualMachine;
import dev.drainboard.kubevirt.api.VirtualMachineInstance;
import dev.drainboard.kubevirt.api.VirtualMachineInstanceSpec;
import dev.drainboard.kubevirt.api.VirtualMachineInstanceStatus;
import dev.drainboard.kubevirt.api.VirtualMachineInstanceTemplateSpec;
import dev.drainboard.kubevirt.api.VirtualMachineSpec;
import dev.drainboard.kubevirt.config.ClusterConfig;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudgetBuilder;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

@DisplayName("Drain preview: per pod, what happens and why")
class DrainPreviewTest {

    static final String NODE = "node01";
    private static final DrainOptions KUBEVIRT_DRAIN = DrainOptions.defaults().withIgnoreDaemonSets(true).withDeleteEmptyDirData(true);

    /** One case: the cluster around one pod, the options, and what the preview must say. */
    record Case(String title, Pod pod, List<VirtualMachineInstance> vmis, List<VirtualMachine> vms,
                List<PodDisruptionBudget> budgets, ClusterConfig config, DrainOptions options,
                PodOutcome outcome, String reasonContains, String expectedMessage) {
        @Override
        public String toString() {
            return title;
        }
    }

    static Stream<Arguments> outcomes() {
        List<Case> cases = new ArrayList<>();
        cases.add(new Case("ReplicaSet pod", owned(pod("web-1", "web"), "ReplicaSet", "web-rs"), List.of(), List.of(), List.of(),
                ClusterConfig.defaults(), KUBEVIRT_DRAIN, PodOutcome.EVICTED, "its ReplicaSet web-rs recreates it elsewhere", null));
        cases.add(new Case("unmanaged pod with --force", pod("lonely", "x"), List.of(), List.of(), List.of(),
                ClusterConfig.defaults(), KUBEVIRT_DRAIN.withForce(true), PodOutcome.EVICTED, "gone for good", null));
        cases.add(new Case("finished unmanaged pod", phase(pod("job-done", "x"), "Succeeded"), List.of(), List.of(), List.of(),
                ClusterConfig.defaults(), KUBEVIRT_DRAIN, PodOutcome.EVICTED, "already Succeeded", null));
        cases.add(new Case("unmanaged pod without --force", pod("lonely", "x"), List.of(), List.of(), List.of(),
                ClusterConfig.defaults(), KUBEVIRT_DRAIN, PodOutcome.NEEDS_FORCE, "without --force", null));
        cases.add(new Case("emptyDir pod without --delete-emptydir-data", emptyDir(owned(pod("tool", "t"), "ReplicaSet", "t-rs")),
                List.of(), List.of(), List.of(), ClusterConfig.defaults(), DrainOptions.defaults(),
                PodOutcome.NEEDS_DELETE_EMPTYDIR_DATA, "--delete-emptydir-data", null));
        cases.add(new Case("DaemonSet pod with --ignore-daemonsets", owned(pod("exporter", "e"), "DaemonSet", "node-exporter"),
                List.of(), List.of(), List.of(), ClusterConfig.defaults(), KUBEVIRT_DRAIN,
                PodOutcome.SKIPPED_DAEMONSET, "DaemonSet node-exporter", null));
        cases.add(new Case("DaemonSet pod without --ignore-daemonsets", owned(pod("exporter", "e"), "DaemonSet", "node-exporter"),
                List.of(), List.of(), List.of(), ClusterConfig.defaults(), DrainOptions.defaults(),
                PodOutcome.NEEDS_IGNORE_DAEMONSETS, "--ignore-daemonsets", null));
        cases.add(new Case("mirror pod", mirror(pod("etcd-node01", "etcd")), List.of(), List.of(), List.of(),
                ClusterConfig.defaults(), KUBEVIRT_DRAIN, PodOutcome.SKIPPED_MIRROR, "mirror pod", null));
        cases.add(new Case("pod under a PDB with no disruption allowed", owned(pod("web-1", "web"), "ReplicaSet", "web-rs"),
                List.of(), List.of(), List.of(pdb("web", "web", 0)), ClusterConfig.defaults(), KUBEVIRT_DRAIN,
                PodOutcome.BLOCKED_BY_PDB, "PodDisruptionBudget demo/web allows no disruption now",
                DrainPreview.BUDGET_VIOLATION));
        cases.add(new Case("pod under a PDB that allows a disruption", owned(pod("web-1", "web"), "ReplicaSet", "web-rs"),
                List.of(), List.of(), List.of(pdb("web", "web", 1)), ClusterConfig.defaults(), KUBEVIRT_DRAIN,
                PodOutcome.EVICTED, "recreates it", null));
        cases.add(new Case("pod under two PDBs", owned(pod("web-1", "web"), "ReplicaSet", "web-rs"),
                List.of(), List.of(), List.of(pdb("web", "web", 1), pdb("web-too", "web", 1)), ClusterConfig.defaults(), KUBEVIRT_DRAIN,
                PodOutcome.REFUSED, "2 PodDisruptionBudgets", DrainPreview.SEVERAL_BUDGETS));

        VirtualMachineInstance migratable = vmi("db", "LiveMigrate", true, null);
        cases.add(new Case("LiveMigrate, migratable", launcher("db"), List.of(migratable), List.of(),
                List.of(kubevirtPdb("db")), ClusterConfig.defaults(), KUBEVIRT_DRAIN, PodOutcome.LIVE_MIGRATION,
                "triggers a live migration of VMI db (strategy LiveMigrate)",
                "admission webhook \"virt-launcher-eviction-interceptor.kubevirt.io\" denied the request: "
                        + "Eviction triggered evacuation of VMI \"demo/db\""));
        VirtualMachineInstance marked = vmi("db", "LiveMigrate", true, null);
        marked.getStatus().setEvacuationNodeName(NODE);
        cases.add(new Case("LiveMigrate, already marked", launcher("db"), List.of(marked), List.of(),
                List.of(kubevirtPdb("db")), ClusterConfig.defaults(), KUBEVIRT_DRAIN, PodOutcome.LIVE_MIGRATION,
                "already being evacuated", DrainPreview.BUDGET_VIOLATION));
        cases.add(new Case("LiveMigrateIfPossible, migratable", launcher("cache"), List.of(vmi("cache", "LiveMigrateIfPossible", true, null)),
                List.of(), List.of(), ClusterConfig.defaults(), KUBEVIRT_DRAIN, PodOutcome.LIVE_MIGRATION,
                "strategy LiveMigrateIfPossible", null));
        cases.add(new Case("cluster default LiveMigrate", launcher("db"), List.of(vmi("db", null, true, null)), List.of(), List.of(),
                config("LiveMigrate"), KUBEVIRT_DRAIN, PodOutcome.LIVE_MIGRATION, "strategy LiveMigrate", null));
        cases.add(new Case("External", launcher("appliance"), List.of(vmi("appliance", "External", false, null)), List.of(), List.of(),
                ClusterConfig.defaults(), KUBEVIRT_DRAIN, PodOutcome.EXTERNAL_EVACUATION, "something outside KubeVirt", null));
        cases.add(new Case("LiveMigrate, not migratable", launcher("ledger"), List.of(vmi("ledger", "LiveMigrate", false, null)),
                List.of(), List.of(), ClusterConfig.defaults(), KUBEVIRT_DRAIN, PodOutcome.BLOCKED_NOT_MIGRATABLE,
                "not live-migratable (DisksNotLiveMigratable: cannot migrate VMI: PVC local-disk is not shared)",
                "admission webhook \"virt-launcher-eviction-interceptor.kubevirt.io\" denied the request: "
                        + "VMI ledger is configured with an eviction strategy but is not live-migratable"));
        cases.add(new Case("VMI not found", launcher("ghost"), List.of(), List.of(), List.of(), ClusterConfig.defaults(), KUBEVIRT_DRAIN,
                PodOutcome.REFUSED, "kubevirt failed getting the vmi", null));
        cases.add(new Case("None, no VM", launcher("scratch"), List.of(vmi("scratch", "None", true, null)), List.of(), List.of(),
                ClusterConfig.defaults(), KUBEVIRT_DRAIN, PodOutcome.EVICTED_VMI_LOST, "no VirtualMachine starts it again", null));
        cases.add(new Case("cluster default None, no VM", launcher("batch"), List.of(vmi("batch", null, true, null)), List.of(), List.of(),
                ClusterConfig.defaults(), KUBEVIRT_DRAIN, PodOutcome.EVICTED_VMI_LOST, "strategy None (cluster default)", null));
        cases.add(new Case("LiveMigrateIfPossible, not migratable, no VM", launcher("ml"),
                List.of(vmi("ml", "LiveMigrateIfPossible", false, null)), List.of(), List.of(), ClusterConfig.defaults(), KUBEVIRT_DRAIN,
                PodOutcome.EVICTED_VMI_LOST, "LiveMigrateIfPossible but not live-migratable", null));
        cases.add(new Case("None, VM runStrategy Always", launcher("web-vm"),
                List.of(vmi("web-vm", "None", true, "VirtualMachine")), List.of(vm("web-vm", "Always")), List.of(),
                ClusterConfig.defaults(), KUBEVIRT_DRAIN, PodOutcome.EVICTED_VM_RESTARTS, "runStrategy Always", null));
        cases.add(new Case("None, VM runStrategy RerunOnFailure", launcher("web-vm"),
                List.of(vmi("web-vm", "None", true, "VirtualMachine")), List.of(vm("web-vm", "RerunOnFailure")), List.of(),
                ClusterConfig.defaults(), KUBEVIRT_DRAIN, PodOutcome.EVICTED_VM_RESTARTS, "runStrategy RerunOnFailure", null));
        cases.add(new Case("None, VM runStrategy Manual", launcher("web-vm"),
                List.of(vmi("web-vm", "None", true, "VirtualMachine")), List.of(vm("web-vm", "Manual")), List.of(),
                ClusterConfig.defaults(), KUBEVIRT_DRAIN, PodOutcome.EVICTED_VMI_LOST, "does not start it again", null));
        cases.add(new Case("None, VMIRS", launcher("rs-abc"),
                List.of(vmi("rs-abc", "None", true, "VirtualMachineInstanceReplicaSet")), List.of(), List.of(),
                ClusterConfig.defaults(), KUBEVIRT_DRAIN, PodOutcome.EVICTED_VMI_REPLACED, "creates a new VMI in its place", null));
        cases.add(new Case("None, but a user PDB allows no disruption", withLabel(launcher("scratch"), "app", "scratch"),
                List.of(vmi("scratch", "None", true, null)), List.of(), List.of(pdb("scratch", "scratch", 0)),
                ClusterConfig.defaults(), KUBEVIRT_DRAIN, PodOutcome.BLOCKED_BY_PDB, "demo/scratch", DrainPreview.BUDGET_VIOLATION));
        return cases.stream().map(Arguments::of);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource
    void outcomes(Case c) {
        DrainPreview preview = DrainPreview.compute(new DrainInputs(NODE, List.of(c.pod()), c.vmis(), c.vms(), c.budgets(),
                c.config(), c.options(), Instant.parse("2025-01-01T00:00:00Z")));
        PodPreview pod = preview.pods().getFirst();
        assertThat(pod.outcome()).as(pod.reason()).isEqualTo(c.outcome());
        assertThat(pod.reason()).contains(c.reasonContains());
        if (c.expectedMessage() != null) {
            assertThat(pod.expectedMessage()).isEqualTo(c.expectedMessage());
        }
        assertThat(preview.canStart()).isEqualTo(c.outcome().effect() != PodOutcome.Effect.REFUSE_TO_START);
    }

    @Test
    @DisplayName("refusals are kubectl's, one line per option, naming the pods")
    void refusalsAreKubectls() {
        DrainPreview preview = DrainPreview.compute(new DrainInputs(NODE, List.of(pod("a", "x"), pod("b", "x"),
                owned(pod("e", "e"), "DaemonSet", "ds")), List.of(), List.of(), List.of(), ClusterConfig.defaults(),
                DrainOptions.defaults(), Instant.now()));
        assertThat(preview.errors()).containsExactly(
                "cannot delete Pods that declare no controller (use --force to override): demo/a, demo/b",
                "cannot delete DaemonSet-managed Pods (use --ignore-daemonsets to ignore): demo/e");
        assertThat(preview.canStart()).isFalse();
        assertThat(preview.toEvict()).isEmpty();
    }

    // ---- fixtures

    static Pod pod(String name, String app) {
        return new PodBuilder().withNewMetadata().withNamespace("demo").withName(name).withUid("uid-" + name)
                .addToLabels("app", app).endMetadata()
                .withNewSpec().withNodeName(NODE).addNewContainer().withName("c").withImage("i").endContainer().endSpec()
                .withNewStatus().withPhase("Running").endStatus().build();
    }

    static Pod owned(Pod pod, String kind, String name) {
        pod.getMetadata().setOwnerReferences(List.of(new OwnerReferenceBuilder().withApiVersion("apps/v1").withKind(kind)
                .withName(name).withUid("uid-" + name).withController(true).build()));
        return pod;
    }

    static Pod phase(Pod pod, String phase) {
        pod.getStatus().setPhase(phase);
        return pod;
    }

    static Pod withLabel(Pod pod, String key, String value) {
        pod.getMetadata().getLabels().put(key, value);
        return pod;
    }

    static Pod emptyDir(Pod pod) {
        pod.getSpec().setVolumes(List.of(new io.fabric8.kubernetes.api.model.VolumeBuilder().withName("scratch")
                .withNewEmptyDir().endEmptyDir().build()));
        return pod;
    }

    static Pod mirror(Pod pod) {
        pod.getMetadata().setAnnotations(Map.of(DrainPreview.MIRROR_ANNOTATION, "abc"));
        return pod;
    }

    static Pod launcher(String vmi) {
        Pod pod = owned(pod("virt-launcher-" + vmi + "-abcde", "x"), "VirtualMachineInstance", vmi);
        pod.getMetadata().getLabels().put("kubevirt.io", "virt-launcher");
        pod.getMetadata().getLabels().put("kubevirt.io/created-by", "uid-" + vmi);
        pod.getMetadata().setAnnotations(Map.of("kubevirt.io/domain", vmi));
        return pod;
    }

    static VirtualMachineInstance vmi(String name, String strategy, boolean migratable, String ownerKind) {
        VirtualMachineInstance vmi = new VirtualMachineInstance();
        ObjectMeta meta = new ObjectMetaBuilder().withNamespace("demo").withName(name).withUid("uid-" + name).build();
        if (ownerKind != null) {
            meta.setOwnerReferences(List.of(new OwnerReferenceBuilder().withApiVersion("kubevirt.io/v1").withKind(ownerKind)
                    .withName(ownerKind.equals("VirtualMachine") ? name : "rs").withUid("uid-vm-" + name).withController(true).build()));
        }
        vmi.setMetadata(meta);
        VirtualMachineInstanceSpec spec = new VirtualMachineInstanceSpec();
        spec.setEvictionStrategy(strategy);
        vmi.setSpec(spec);
        VirtualMachineInstanceStatus status = new VirtualMachineInstanceStatus();
        status.setPhase("Running");
        status.setNodeName(NODE);
        status.setConditions(List.of(migratable ? new Condition("LiveMigratable", "True", null, null)
                : new Condition("LiveMigratable", "False", "DisksNotLiveMigratable", "cannot migrate VMI: PVC local-disk is not shared")));
        vmi.setStatus(status);
        return vmi;
    }

    static VirtualMachine vm(String name, String runStrategy) {
        VirtualMachine vm = new VirtualMachine();
        vm.setMetadata(new ObjectMetaBuilder().withNamespace("demo").withName(name).withUid("uid-vm-" + name).build());
        VirtualMachineSpec spec = new VirtualMachineSpec();
        spec.setRunStrategy(runStrategy);
        VirtualMachineInstanceTemplateSpec template = new VirtualMachineInstanceTemplateSpec();
        template.setSpec(new VirtualMachineInstanceSpec());
        spec.setTemplate(template);
        vm.setSpec(spec);
        return vm;
    }

    static PodDisruptionBudget pdb(String name, String app, int allowed) {
        return new PodDisruptionBudgetBuilder().withNewMetadata().withNamespace("demo").withName(name).endMetadata()
                .withNewSpec().withMinAvailable(new IntOrString(1)).withNewSelector().addToMatchLabels("app", app).endSelector().endSpec()
                .withNewStatus().withDisruptionsAllowed(allowed).withCurrentHealthy(1).withExpectedPods(1).endStatus().build();
    }

    static PodDisruptionBudget kubevirtPdb(String vmi) {
        return new PodDisruptionBudgetBuilder().withNewMetadata().withNamespace("demo").withName("kubevirt-disruption-budget-x").endMetadata()
                .withNewSpec().withMinAvailable(new IntOrString(1)).withNewSelector()
                .addToMatchLabels("kubevirt.io/created-by", "uid-" + vmi).endSelector().endSpec()
                .withNewStatus().withDisruptionsAllowed(0).endStatus().build();
    }

    static ClusterConfig config(String strategy) {
        KubeVirt kv = new KubeVirt();
        kv.setMetadata(new ObjectMetaBuilder().withNamespace("kubevirt").withName("kubevirt").build());
        KubeVirtSpec spec = new KubeVirtSpec();
        KubeVirtSpec.Configuration configuration = new KubeVirtSpec.Configuration();
        configuration.setEvictionStrategy(strategy);
        spec.setConfiguration(configuration);
        kv.setSpec(spec);
        try {
            return ClusterConfig.from(kv);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
