package dev.drainboard.controller.vm;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.drainboard.kubevirt.api.InstancetypeMatcher;
import dev.drainboard.kubevirt.api.VirtualMachineInstance;
import dev.drainboard.kubevirt.api.VirtualMachineInstanceSpec;
import dev.drainboard.kubevirt.api.VirtualMachineInstancetypeSpec;
import dev.drainboard.kubevirt.api.VirtualMachinePreferenceSpec;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class InstancetypesTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    private static <T> T read(String json, Class<T> type) {
        try {
            return JSON.readValue(json.replace('\'', '"'), type);
        } catch (Exception e) {
            throw new IllegalArgumentException(e);
        }
    }

    private static VirtualMachineInstance vmi(String specJson) {
        VirtualMachineInstance vmi = new VirtualMachineInstance();
        vmi.setMetadata(new ObjectMetaBuilder().withName("vm").withNamespace("ns").build());
        vmi.setSpec(read(specJson, VirtualMachineInstanceSpec.class));
        return vmi;
    }

    private static final InstancetypeMatcher CLUSTER_U1 = new InstancetypeMatcher("u1.medium", null);

    @Test
    void guestMemoryAndCpusComeFromTheInstancetypeAsSocketsByDefault() {
        VirtualMachineInstance vmi = vmi("{'domain':{'devices':{}}}");
        List<String> conflicts = Instancetypes.apply(CLUSTER_U1,
                read("{'cpu':{'guest':4},'memory':{'guest':'4Gi'}}", VirtualMachineInstancetypeSpec.class), null, null, vmi);

        assertThat(conflicts).isEmpty();
        assertThat(vmi.getSpec().getDomain().getMemory().getGuest().toString()).isEqualTo("4Gi");
        assertThat(vmi.getSpec().getDomain().getCpu().getSockets()).isEqualTo(4);
        assertThat(vmi.getSpec().getDomain().getCpu().getCores()).isEqualTo(1);
        assertThat(vmi.getSpec().getDomain().getCpu().getThreads()).isEqualTo(1);
        assertThat(vmi.getMetadata().getAnnotations()).containsEntry("kubevirt.io/cluster-instancetype-name", "u1.medium");
    }

    /** KubeVirt's applyGuestCPUTopology, row by row: topology, spread options, vCPUs → sockets, cores, threads. */
    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "''                                                        | 4 | 4,1,1",
            "{'cpu':{'preferredCPUTopology':'cores'}}                  | 4 | 1,4,1",
            "{'cpu':{'preferredCPUTopology':'preferThreads'}}          | 4 | 1,1,4",
            "{'cpu':{'preferredCPUTopology':'any'}}                    | 4 | 4,1,1",
            "{'cpu':{'preferredCPUTopology':'spread'}}                 | 8 | 4,2,1",
            "{'cpu':{'preferredCPUTopology':'spread','spreadOptions':{'ratio':4}}}                         | 8 | 2,4,1",
            "{'cpu':{'preferredCPUTopology':'spread','spreadOptions':{'across':'CoresThreads'}}}           | 8 | 1,4,2",
            "{'cpu':{'preferredCPUTopology':'spread','spreadOptions':{'across':'SocketsCoresThreads'}}}    | 8 | 2,2,2",
            "{'cpu':{'preferredCPUTopology':'cores'}}                  | 1 | 1,1,1",
    })
    void topologyFollowsThePreference(String preference, int vcpus, String expected) {
        VirtualMachineInstance vmi = vmi("{'domain':{}}");
        VirtualMachinePreferenceSpec pref = preference.isEmpty() ? null : read(preference, VirtualMachinePreferenceSpec.class);
        Instancetypes.apply(CLUSTER_U1, read("{'cpu':{'guest':" + vcpus + "},'memory':{'guest':'1Gi'}}", VirtualMachineInstancetypeSpec.class),
                pref == null ? null : new InstancetypeMatcher("p", "VirtualMachinePreference"), pref, vmi);
        var cpu = vmi.getSpec().getDomain().getCpu();
        assertThat(cpu.getSockets() + "," + cpu.getCores() + "," + cpu.getThreads()).isEqualTo(expected);
    }

    /** Conflicts: what the VM's template sets that the instance type also sets; nothing is applied then. */
    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "{'domain':{'cpu':{'sockets':2}}}                                  | spec.domain.cpu.sockets",
            "{'domain':{'cpu':{'cores':2,'threads':2}}}                        | spec.domain.cpu.cores, spec.domain.cpu.threads",
            "{'domain':{'resources':{'requests':{'cpu':'2'}}}}                 | spec.domain.resources.requests.cpu",
            "{'domain':{'memory':{'guest':'2Gi'}}}                             | spec.domain.memory.guest",
            "{'domain':{'resources':{'requests':{'memory':'2Gi'},'limits':{'memory':'2Gi'}}}} | spec.domain.resources.requests.memory",
            "{'domain':{'cpu':{'sockets':2},'memory':{'guest':'2Gi'}}}          | spec.domain.cpu.sockets, spec.domain.memory.guest",
            "{'nodeSelector':{'a':'b'},'domain':{}}                            | spec.nodeSelector",
    })
    void conflictsAreReportedAndNothingIsApplied(String template, String expected) {
        VirtualMachineInstance vmi = vmi(template);
        String before = JSON.valueToTree(vmi.getSpec()).toString();
        List<String> conflicts = Instancetypes.apply(CLUSTER_U1,
                read("{'cpu':{'guest':4},'memory':{'guest':'4Gi'},'nodeSelector':{'x':'y'}}", VirtualMachineInstancetypeSpec.class),
                null, null, vmi);

        assertThat(String.join(", ", conflicts)).isEqualTo(expected);
        assertThat(JSON.valueToTree(vmi.getSpec()).toString()).isEqualTo(before);
        assertThat(Instancetypes.conflictMessage(conflicts)).isEqualTo("VMI conflicts with instancetype spec in fields: [" + expected + "]");
    }

    @Test
    void overcommitLowersTheMemoryRequestBelowTheGuest() {
        VirtualMachineInstance vmi = vmi("{'domain':{}}");
        Instancetypes.apply(CLUSTER_U1, read("{'cpu':{'guest':1},'memory':{'guest':'4Gi','overcommitPercent':25}}",
                VirtualMachineInstancetypeSpec.class), null, null, vmi);
        assertThat(vmi.getSpec().getDomain().getResources().getRequests().get("memory").toString()).isEqualTo(Long.toString(3L << 30));
    }

    @Test
    void preferenceFillsOnlyWhatTheVmiLeavesUnset() {
        VirtualMachineInstance vmi = vmi("{'terminationGracePeriodSeconds':0,'domain':{'machine':{'type':'q35'}}}");
        vmi.getMetadata().setAnnotations(new java.util.HashMap<>(java.util.Map.of("keep", "mine")));
        List<String> conflicts = Instancetypes.apply(null, null, new InstancetypeMatcher("p", "VirtualMachinePreference"),
                read("{'preferredTerminationGracePeriodSeconds':180,'machine':{'preferredMachineType':'pc'},"
                        + "'preferredSubdomain':'sub','annotations':{'keep':'theirs','added':'x'}}", VirtualMachinePreferenceSpec.class), vmi);

        assertThat(conflicts).isEmpty();
        assertThat(vmi.getSpec().getTerminationGracePeriodSeconds()).isZero();
        assertThat(JSON.valueToTree(vmi.getSpec()).path("domain").path("machine").path("type").asText()).isEqualTo("q35");
        assertThat(JSON.valueToTree(vmi.getSpec()).path("subdomain").asText()).isEqualTo("sub");
        assertThat(vmi.getMetadata().getAnnotations()).containsEntry("keep", "mine").containsEntry("added", "x")
                .containsEntry("kubevirt.io/preference-name", "p");
    }

    @Test
    void preferenceGracePeriodAppliesWhenUnset() {
        VirtualMachineInstance vmi = vmi("{'domain':{}}");
        Instancetypes.apply(null, null, new InstancetypeMatcher("p", null),
                read("{'preferredTerminationGracePeriodSeconds':180}", VirtualMachinePreferenceSpec.class), vmi);
        assertThat(vmi.getSpec().getTerminationGracePeriodSeconds()).isEqualTo(180);
        assertThat(vmi.getMetadata().getAnnotations()).containsEntry("kubevirt.io/cluster-preference-name", "p");
    }

    @Test
    void instancetypeAnnotationWithAnotherValueConflicts() {
        VirtualMachineInstance vmi = vmi("{'domain':{}}");
        vmi.getMetadata().setAnnotations(new java.util.HashMap<>(java.util.Map.of("team", "a")));
        List<String> conflicts = Instancetypes.apply(new InstancetypeMatcher("it", "VirtualMachineInstancetype"),
                read("{'cpu':{'guest':1},'memory':{'guest':'1Gi'},'annotations':{'team':'b'}}", VirtualMachineInstancetypeSpec.class), null, null, vmi);
        assertThat(conflicts).containsExactly("annotations.team");
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', nullValues = "null", value = {
            "null                               | CLUSTER",
            "VirtualMachineClusterInstancetype  | CLUSTER",
            "virtualmachineinstancetypes        | NAMESPACED",
            "VirtualMachineInstancetype         | NAMESPACED",
            "Something                          | null",
    })
    void kindSelectsTheScope(String kind, String scope) {
        assertThat(Instancetypes.instancetypeScope(new InstancetypeMatcher("x", kind)))
                .isEqualTo(scope == null ? null : Instancetypes.Scope.valueOf(scope));
    }
}
