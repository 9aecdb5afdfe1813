package dev.drainboard.controller.disruptionbudget;

import com.fasterxml.jackson.databind.node.TextNode;
import dev.drainboard.kubevirt.KubeVirtLabels;
import dev.drainboard.kubevirt.KubeVirtValues;
import dev.drainboard.kubevirt.api.KubeVirtResource;
import dev.drainboard.kubevirt.api.VirtualMachineInstance;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudgetBuilder;

import java.util.Map;
import java.util.Optional;

/** The PDBs KubeVirt (up to v1.5) keeps for its VMIs: their shape and how to recognise them. */
public final class DisruptionBudgets {

    public static final String VMI_KIND = "VirtualMachineInstance";

    private DisruptionBudgets() {
    }

    /**
     * A VMI's PDB: {@code generateName: kubevirt-disruption-budget-}, one controller owner reference to the VMI,
     * no labels, {@code minAvailable: 1} over the pods labelled {@code kubevirt.io/created-by=<VMI uid>} (the
     * launcher pod, and a migration target pod too).
     */
    public static PodDisruptionBudget budgetFor(VirtualMachineInstance vmi) {
        return new PodDisruptionBudgetBuilder()
                .withNewMetadata()
                    .withGenerateName(KubeVirtValues.DISRUPTION_BUDGET_GENERATE_NAME)
                    .withNamespace(vmi.getMetadata().getNamespace())
                    .withOwnerReferences(ownerReferenceTo(vmi))
                .endMetadata()
                .withNewSpec()
                    .withMinAvailable(new IntOrString(1))
                    .withNewSelector()
                        .withMatchLabels(Map.of(KubeVirtLabels.CREATED_BY, vmi.getMetadata().getUid()))
                    .endSelector()
                .endSpec()
                .build();
    }

    static OwnerReference ownerReferenceTo(VirtualMachineInstance vmi) {
        return new OwnerReferenceBuilder()
                .withApiVersion(KubeVirtResource.API_VERSION)
                .withKind(VMI_KIND)
                .withName(vmi.getMetadata().getName())
                .withUid(vmi.getMetadata().getUid())
                .withController(true)
                .withBlockOwnerDeletion(true)
                .build();
    }

    /** The owner reference with {@code controller: true}, if it names a VMI. */
    public static Optional<OwnerReference> controllingVmi(HasMetadata object) {
        if (object == null || object.getMetadata() == null || object.getMetadata().getOwnerReferences() == null) {
            return Optional.empty();
        }
        return object.getMetadata().getOwnerReferences().stream()
                .filter(ref -> Boolean.TRUE.equals(ref.getController()) && VMI_KIND.equals(ref.getKind()))
                .findFirst();
    }

    /** {@code spec.minAvailable} as a number, empty when unset or a percentage. */
    public static Optional<Integer> minAvailable(PodDisruptionBudget pdb) {
        IntOrString min = pdb.getSpec() == null ? null : pdb.getSpec().getMinAvailable();
        return min == null || min.getIntVal() == null ? Optional.empty() : Optional.of(min.getIntVal());
    }

    /** The VMIM that expanded this PDB (label {@code kubevirt.io/migrationName}), if one did. */
    public static Optional<String> migrationName(PodDisruptionBudget pdb) {
        Map<String, String> labels = pdb.getMetadata().getLabels();
        return Optional.ofNullable(labels == null ? null : labels.get(KubeVirtLabels.MIGRATION_NAME));
    }

    /**
     * A PDB an older migration controller left behind: a {@code kubevirt-migration-pdb-} one with a migration
     * label, or a VMI's PDB at {@code minAvailable: 2} that no migration label explains.
     */
    public static boolean isLegacyMigrationBudget(PodDisruptionBudget pdb) {
        String name = pdb.getMetadata().getName() == null ? "" : pdb.getMetadata().getName();
        boolean labelled = migrationName(pdb).isPresent();
        if (name.startsWith(KubeVirtValues.LEGACY_MIGRATION_PDB_GENERATE_NAME) && labelled) {
            return true;
        }
        return !labelled && minAvailable(pdb).map(n -> n == 2).orElse(false);
    }

    /**
     * JSON patch of the shrink: {@code minAvailable} back to 1 and the migration label removed, guarded by the label
     * still naming that migration (a second shrink from a cache that has not seen the first fails the guard instead of
     * undoing a newer expansion).
     */
    public static String shrinkPatch(String migrationName) {
        return "[{\"op\":\"test\",\"path\":\"/metadata/labels/kubevirt.io~1migrationName\",\"value\":"
                + TextNode.valueOf(migrationName).toString() + "},"
                + "{\"op\":\"replace\",\"path\":\"/spec/minAvailable\",\"value\":1},"
                + "{\"op\":\"remove\",\"path\":\"/metadata/labels/kubevirt.io~1migrationName\"}]";
    }
}
