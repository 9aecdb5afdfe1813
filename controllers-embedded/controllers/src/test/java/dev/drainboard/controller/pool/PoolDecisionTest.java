package dev.drainboard.controller.pool;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.drainboard.kubevirt.api.Condition;
import dev.drainboard.kubevirt.api.TemplateMetadata;
import dev.drainboard.kubevirt.api.VirtualMachine;
import dev.drainboard.kubevirt.api.VirtualMachinePool;
import dev.drainboard.kubevirt.api.VirtualMachinePoolSpec;
import dev.drainboard.kubevirt.api.VirtualMachineSpec;
import dev.drainboard.kubevirt.api.VirtualMachineStatus;
import dev.drainboard.kubevirt.replicaset.ReplicaSetSelector;
import io.fabric8.kubernetes.api.model.LabelSelectorBuilder;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

class PoolDecisionTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    private static VirtualMachinePool pool(int replicas, String sortPolicy) {
        VirtualMachinePool pool = new VirtualMachinePool();
        pool.setMetadata(new ObjectMetaBuilder().withName("web").withNamespace("ns").withUid("pool-uid").withGeneration(3L).build());
        VirtualMachinePoolSpec spec = new VirtualMachinePoolSpec();
        spec.setReplicas(replicas);
        spec.setSelector(new LabelSelectorBuilder().withMatchLabels(Map.of("app", "web")).build());
        VirtualMachinePoolSpec.VirtualMachineTemplateSpec template = new VirtualMachinePoolSpec.VirtualMachineTemplateSpec();
        TemplateMetadata meta = new TemplateMetadata();
        meta.setLabels(Map.of("app", "web"));
        template.setMetadata(meta);
        template.setSpec(new VirtualMachineSpec());
        spec.setVirtualMachineTemplate(template);
        if (sortPolicy != null) {
            spec.setAdditionalProperty("scaleInStrategy", Map.of("proactive", Map.of("selectionPolicy", Map.of("sortPolicy", sortPolicy))));
        }
        pool.setSpec(spec);
        return pool;
    }

    /** "name[:d][:r][@minute]" — d: being deleted, r: Ready; owned by the pool, labelled app=web. */
    private static List<VirtualMachine> vms(String text) {
        List<VirtualMachine> vms = new ArrayList<>();
        if (text == null || text.isBlank()) {
            return vms;
        }
        for (String item : text.split(" ")) {
            String[] at = item.split("@");
            String[] parts = at[0].split(":");
            VirtualMachine vm = new VirtualMachine();
            var meta = new ObjectMetaBuilder().withName(parts[0]).withNamespace("ns").withUid("uid-" + parts[0])
                    .withLabels(Map.of("app", "web"))
                    .withCreationTimestamp("2026-01-01T00:" + (at.length > 1 ? String.format("%02d", Integer.parseInt(at[1])) : "00") + ":00Z")
                    .withOwnerReferences(new OwnerReferenceBuilder().withKind("VirtualMachinePool").withName("web")
                            .withUid("pool-uid").withController(true).build());
            List<String> flags = List.of(parts).subList(1, parts.length);
            if (flags.contains("d")) {
                meta.withDeletionTimestamp("2026-01-01T01:00:00Z");
            }
            vm.setMetadata(meta.build());
            if (flags.contains("r")) {
                VirtualMachineStatus status = new VirtualMachineStatus();
                Condition ready = new Condition();
                ready.setType("Ready");
                ready.setStatus("True");
                status.setConditions(List.of(ready));
                vm.setStatus(status);
            }
            vms.add(vm);
        }
        return vms;
    }

    private static PoolPlan decide(VirtualMachinePool pool, List<VirtualMachine> vms, boolean satisfied) throws Exception {
        return PoolDecision.decide(pool, ReplicaSetSelector.parse(pool.getSpec().getSelector()), vms, satisfied, 250, new Random(1));
    }

    /** replicas, existing VMs, sort policy → created names | deleted names, status replicas/ready. */
    @ParameterizedTest
    @CsvSource(delimiter = '|', nullValues = "null", value = {
            // scale up from nothing: web-0, web-1, web-2
            "3 | ''                              | null            | web-0 web-1 web-2 | ''          | 0 0",
            // a deleted VM comes back under its name; the others stay
            "3 | web-0:r web-2:r                  | null            | web-1             | ''          | 2 2",
            // a VM still being deleted counts: nothing is created until it is gone
            "3 | web-0:r web-1:d web-2:r          | null            | ''                | ''          | 3 2",
            // scale down by index, by age
            "1 | web-0 web-1 web-2                | DescendingOrder | ''                | web-2 web-1 | 3 0",
            "1 | web-0 web-1 web-2                | AscendingOrder  | ''                | web-0 web-1 | 3 0",
            "1 | web-0@5 web-1@1 web-2@9          | Newest          | ''                | web-2 web-0 | 3 0",
            "1 | web-0@5 web-1@1 web-2@9          | Oldest          | ''                | web-1 web-0 | 3 0",
            // VMs already being deleted are deducted from the scale-in
            "1 | web-0 web-1:d web-2              | DescendingOrder | ''                | web-2       | 3 0",
            "1 | web-0 web-1:d web-2:d            | DescendingOrder | ''                | ''          | 3 0",
            // nothing to do
            "2 | web-0:r web-1                    | null            | ''                | ''          | 2 1",
    })
    void scalesAsKubeVirtsPoolController(int replicas, String existing, String sortPolicy, String created, String deleted,
                                         String status) throws Exception {
        PoolPlan plan = decide(pool(replicas, sortPolicy), vms(existing), true);
        assertThat(String.join(" ", plan.create())).isEqualTo(created);
        assertThat(String.join(" ", plan.delete().stream().map(vm -> vm.getMetadata().getName()).toList())).isEqualTo(deleted);
        assertThat(plan.replicas() + " " + plan.readyReplicas()).isEqualTo(status);
        assertThat(plan.labelSelector()).isEqualTo("app=web");
    }

    @Test
    void randomScaleInIsTheDefaultAndPicksAmongTheLiveOnes() throws Exception {
        PoolPlan plan = decide(pool(1, null), vms("web-0 web-1 web-2"), true);
        assertThat(plan.delete()).hasSize(2);
        assertThat(plan.delete()).allSatisfy(vm -> assertThat(vm.getMetadata().getName()).startsWith("web-"));
        assertThat(PoolDecision.sortPolicy(pool(1, null))).isEqualTo("Random");
    }

    @Test
    void namesSkipIndexesAnyVmOfTheNamespaceHas() throws Exception {
        List<VirtualMachine> vms = vms("web-1");
        VirtualMachine foreign = new VirtualMachine();
        foreign.setMetadata(new ObjectMetaBuilder().withName("web-0").withNamespace("ns").withLabels(Map.of("app", "other")).build());
        vms.add(foreign);
        assertThat(decide(pool(3, null), vms, true).create()).containsExactly("web-2", "web-3");
    }

    @Test
    void noScalingWhileExpectationsArePendingOrPaused() throws Exception {
        assertThat(decide(pool(3, null), vms("web-0"), false).create()).isEmpty();
        VirtualMachinePool paused = pool(3, null);
        paused.getSpec().setPaused(true);
        PoolPlan plan = decide(paused, vms("web-0"), true);
        assertThat(plan.create()).isEmpty();
        assertThat(plan.scaling()).isFalse();
        assertThat(plan.replicas()).as("status still follows").isEqualTo(1);
    }

    @Test
    void claimsAdoptMatchingOrphansAndReleaseWhatNoLongerMatches() throws Exception {
        List<VirtualMachine> vms = vms("web-0");
        VirtualMachine orphan = new VirtualMachine();
        orphan.setMetadata(new ObjectMetaBuilder().withName("stray").withNamespace("ns").withLabels(Map.of("app", "web")).build());
        VirtualMachine relabelled = vms("web-1").getFirst();
        relabelled.getMetadata().setLabels(Map.of("app", "db"));
        VirtualMachine someoneElses = vms("web-2").getFirst();
        someoneElses.getMetadata().getOwnerReferences().getFirst().setUid("other");
        vms.addAll(List.of(orphan, relabelled, someoneElses));

        PoolPlan plan = decide(pool(2, null), vms, true);

        assertThat(plan.adopt()).extracting(vm -> vm.getMetadata().getName()).containsExactly("stray");
        assertThat(plan.release()).extracting(vm -> vm.getMetadata().getName()).containsExactly("web-1");
        assertThat(plan.replicas()).as("web-0 and the adopted one").isEqualTo(2);
        assertThat(plan.create()).isEmpty();
    }

    @Test
    void templateNamesTheVmAndIndexesItsDataVolumes() throws Exception {
        VirtualMachinePool pool = pool(1, null);
        VirtualMachineSpec spec = JSON.readValue("""
                {"runStrategy":"Always","dataVolumeTemplates":[{"metadata":{"name":"disk"}}],
                 "template":{"metadata":{"labels":{"app":"web"}},"spec":{"volumes":[
                   {"name":"root","dataVolume":{"name":"disk"}},{"name":"cfg","configMap":{"name":"cfg"}}]}}}""", VirtualMachineSpec.class);
        pool.getSpec().getVirtualMachineTemplate().setSpec(spec);

        VirtualMachine vm = PoolTemplates.render(pool, "web-4");

        assertThat(vm.getMetadata().getName()).isEqualTo("web-4");
        assertThat(vm.getMetadata().getLabels()).containsEntry("app", "web").containsEntry("kubevirt.io/vm-pool-revision-name", "web-3");
        assertThat(vm.getMetadata().getOwnerReferences()).singleElement().satisfies(ref -> {
            assertThat(ref.getApiVersion()).isEqualTo("pool.kubevirt.io/v1alpha1");
            assertThat(ref.getKind()).isEqualTo("VirtualMachinePool");
            assertThat(ref.getController()).isTrue();
        });
        var tree = JSON.valueToTree(vm.getSpec());
        assertThat(tree.at("/dataVolumeTemplates/0/metadata/name").asText()).isEqualTo("disk-4");
        assertThat(tree.at("/template/spec/volumes/0/dataVolume/name").asText()).isEqualTo("disk-4");
        assertThat(tree.at("/template/spec/volumes/1/configMap/name").asText()).as("only with nameGeneration").isEqualTo("cfg");
        assertThat(tree.at("/template/metadata/labels/kubevirt.io~1vm-pool-revision-name").asText()).isEqualTo("web-3");
    }
}
