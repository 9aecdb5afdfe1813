package dev.drainboard.kubevirt.api;

import com.fasterxml.jackson.annotation.JsonIgnore;
import dev.drainboard.kubevirt.KubeVirtConditions;
import io.fabric8.kubernetes.model.annotation.Categories;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Kind;
import io.fabric8.kubernetes.model.annotation.Plural;
import io.fabric8.kubernetes.model.annotation.ShortNames;
import io.fabric8.kubernetes.model.annotation.Singular;
import io.fabric8.kubernetes.model.annotation.Version;

import java.util.Optional;

/** A running virtual machine: one launcher pod on one node (two while it migrates). */
@Group(KubeVirtResource.GROUP)
@Version(KubeVirtResource.VERSION)
@Kind("VirtualMachineInstance")
@Plural("virtualmachineinstances")
@Singular("virtualmachineinstance")
@ShortNames({"vmi", "vmis"})
@Categories("all")
public class VirtualMachineInstance extends KubeVirtResource<VirtualMachineInstanceSpec, VirtualMachineInstanceStatus> {

    /** The phase, empty while unset or unknown to this version. */
    @JsonIgnore
    public Optional<VmiPhase> phase() {
        return getStatus() == null ? Optional.empty() : VmiPhase.parse(getStatus().getPhase());
    }

    /** Succeeded or Failed. */
    @JsonIgnore
    public boolean isFinal() {
        return phase().map(VmiPhase::isFinal).orElse(false);
    }

    /** {@code status.evacuationNodeName} is set: an eviction asked for the VMI to leave that node. */
    @JsonIgnore
    public boolean isMarkedForEviction() {
        return getStatus() != null && getStatus().getEvacuationNodeName() != null
                && !getStatus().getEvacuationNodeName().isEmpty();
    }

    /** {@code LiveMigratable=True}; a missing condition counts as not migratable. */
    @JsonIgnore
    public boolean isMigratable() {
        return getStatus() != null
                && Conditions.isTrue(getStatus().getConditions(), KubeVirtConditions.LIVE_MIGRATABLE);
    }
}
