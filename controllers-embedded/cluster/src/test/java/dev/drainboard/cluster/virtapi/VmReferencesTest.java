package dev.drainboard.cluster.virtapi;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.drainboard.cluster.apiserver.Json;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Which object a VM's instancetype or preference names (kind resolution as KubeVirt's finders). */
class VmReferencesTest {

    private static JsonNode vm(String spec) {
        try {
            return Json.YAML.readTree("{spec: " + spec + "}");
        } catch (Exception e) {
            throw new IllegalArgumentException(e);
        }
    }

    @ParameterizedTest(name = "[{index}] {0}")
    @CsvSource(delimiter = '|', value = {
            "no kind: cluster-wide        | {instancetype: {name: u1.small}}                                             | virtualmachineclusterinstancetypes false u1.small",
            "namespaced kind              | {instancetype: {name: s, kind: VirtualMachineInstancetype}}                  | virtualmachineinstancetypes true s",
            "plural, any case             | {instancetype: {name: s, kind: VirtualMachineClusterInstancetypes}}          | virtualmachineclusterinstancetypes false s",
            "unknown kind                 | {instancetype: {name: s, kind: Flavor}}                                      | got unexpected kind in InstancetypeMatcher: Flavor",
            "revision: not looked up      | {instancetype: {name: s, revisionName: s-abc}}                               | none",
            "none                         | {}                                                                           | none",
            "preference, no kind          | {preference: {name: fedora}}                                                 | P virtualmachineclusterpreferences false fedora",
            "preference, namespaced       | {preference: {name: fedora, kind: virtualmachinepreference}}                 | P virtualmachinepreferences true fedora",
            "preference, unknown kind     | {preference: {name: fedora, kind: Taste}}                                    | P got unexpected kind in PreferenceMatcher: Taste",
    })
    void reference(String description, String spec, String expected) {
        boolean preference = expected.startsWith("P ");
        var reference = preference ? VmReferences.preference(vm(spec)) : VmReferences.instancetype(vm(spec));
        String shown = reference.map(r -> switch (r) {
            case VmReferences.Target t -> t.plural() + " " + t.namespaced() + " " + t.name();
            case VmReferences.BadKind b -> b.message();
        }).orElse("none");
        assertThat(shown).isEqualTo(preference ? expected.substring(2) : expected);
    }

    @ParameterizedTest(name = "[{index}] {0}")
    @CsvSource(delimiter = '|', value = {
            "instancetype | false | virtualmachineinstancetypes | spec.instancetype | Failure to find instancetype: virtualmachineinstancetypes.instancetype.kubevirt.io \"small\" not found",
            "preference   | true  | virtualmachinepreferences   | spec.preference   | Failure to find preference: virtualmachinepreferences.instancetype.kubevirt.io \"small\" not found",
    })
    void missing(String what, boolean preference, String plural, String field, String message) {
        Cause cause = VmReferences.missing(preference, VmReferences.notFound(new VmReferences.Target(plural, true, "small")));
        assertThat(cause).isEqualTo(new Cause("FieldValueNotFound", message, field));
    }
}
