package dev.drainboard.ui.model;

import io.fabric8.kubernetes.api.model.LabelSelectorBuilder;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudgetBuilder;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.Arrays;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class PdbTargetsTest {

    /** owner: the uid of the owning VMI or empty; selector: k=v pairs joined by ';' (an expression as k in v). */
    @ParameterizedTest(name = "owner \"{0}\", selector \"{1}\" → {2}")
    @CsvSource(delimiter = '|', value = {
            // KubeVirt's own PDB: owned by the VMI and selecting its launcher by created-by.
            "uid-1 | kubevirt.io/created-by=uid-1              | uid-1",
            "''    | kubevirt.io/created-by=uid-2              | uid-2",
            // Anything broader may select any launcher pod of the namespace.
            "''    | app=web                                   | */demo",
            "''    | kubevirt.io/created-by=uid-3;app=web      | */demo",
            "uid-4 | app=web                                   | uid-4 */demo",
            "''    | app in web                                | */demo",
            "''    | ''                                        | */demo",
    })
    void aPdbIsKeyedByTheVmisItCanProtect(String owner, String selector, String keys) {
        assertThat(PdbTargets.keys(pdb(owner, selector))).isEqualTo(List.of(keys.split(" ")));
    }

    private static PodDisruptionBudget pdb(String owner, String selector) {
        LabelSelectorBuilder s = new LabelSelectorBuilder();
        Arrays.stream(selector.split(";")).filter(p -> !p.isBlank()).forEach(p -> {
            if (p.contains(" in ")) {
                String[] kv = p.split(" in ");
                s.addNewMatchExpression().withKey(kv[0]).withOperator("In").withValues(kv[1]).endMatchExpression();
            } else {
                String[] kv = p.split("=");
                s.addToMatchLabels(kv[0], kv[1]);
            }
        });
        PodDisruptionBudgetBuilder b = new PodDisruptionBudgetBuilder().withNewMetadata().withName("p").withNamespace("demo")
                .endMetadata().withNewSpec().withSelector(s.build()).endSpec();
        if (!owner.isEmpty()) {
            b.editMetadata().addNewOwnerReference().withKind("VirtualMachineInstance").withName("vm").withUid(owner)
                    .withController(true).endOwnerReference().endMetadata();
        }
        return b.build();
    }
}
