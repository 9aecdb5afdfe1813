package dev.drainboard.ui.model;

import dev.drainboard.kubevirt.KubeVirtLabels;
import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Which VMIs a PDB can protect, as index keys, so a VMI's row looks at its own few PDBs instead of every PDB in its
 * namespace (KubeVirt makes one PDB per VMI: with 10,000 VMIs a namespace holds thousands).
 *
 * <p>A PDB owned by a VMI, or selecting only on {@code kubevirt.io/created-by} (KubeVirt's own), is keyed by that
 * VMI's uid; any other selector may match any launcher pod of its namespace and is keyed {@code *\/namespace}.
 */
final class PdbTargets {

    private PdbTargets() {
    }

    static String anyIn(String namespace) {
        return "*/" + namespace;
    }

    static List<String> keys(PodDisruptionBudget pdb) {
        List<String> keys = new ArrayList<>();
        if (pdb.getMetadata().getOwnerReferences() != null) {
            pdb.getMetadata().getOwnerReferences().stream()
                    .filter(o -> "VirtualMachineInstance".equals(o.getKind()) && o.getUid() != null)
                    .forEach(o -> keys.add(o.getUid()));
        }
        LabelSelector selector = pdb.getSpec() == null ? null : pdb.getSpec().getSelector();
        Map<String, String> match = selector == null || selector.getMatchLabels() == null ? Map.of() : selector.getMatchLabels();
        boolean onlyCreatedBy = selector != null && match.size() == 1 && match.containsKey(KubeVirtLabels.CREATED_BY)
                && (selector.getMatchExpressions() == null || selector.getMatchExpressions().isEmpty());
        if (onlyCreatedBy) {
            String uid = match.get(KubeVirtLabels.CREATED_BY);
            if (!keys.contains(uid)) {
                keys.add(uid);
            }
        } else {
            keys.add(anyIn(pdb.getMetadata().getNamespace()));
        }
        return keys;
    }
}
