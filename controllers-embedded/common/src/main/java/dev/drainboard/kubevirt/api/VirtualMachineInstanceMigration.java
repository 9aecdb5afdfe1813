package dev.drainboard.kubevirt.api;

import com.fasterxml.jackson.annotation.JsonIgnore;
import io.fabric8.kubernetes.model.annotation.Categories;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Kind;
import io.fabric8.kubernetes.model.annotation.Plural;
import io.fabric8.kubernetes.model.annotation.ShortNames;
import io.fabric8.kubernetes.model.annotation.Singular;
import io.fabric8.kubernetes.model.annotation.Version;

import java.util.Optional;

/** A request to live-migrate one VMI to another node (VMIM). */
@Group(KubeVirtResource.GROUP)
@Version(KubeVirtResource.VERSION)
@Kind("VirtualMachineInstanceMigration")
@Plural("virtualmachineinstancemigrations")
@Singular("virtualmachineinstancemigration")
@ShortNames({"vmim", "vmims"})
@Categories("all")
public class VirtualMachineInstanceMigration
        extends KubeVirtResource<VirtualMachineInstanceMigrationSpec, VirtualMachineInstanceMigrationStatus> {

    /** The phase, empty while unset. */
    @JsonIgnore
    public Optional<MigrationPhase> phase() {
        return getStatus() == null ? Optional.empty() : MigrationPhase.parse(getStatus().getPhase());
    }

    /** Succeeded or Failed. */
    @JsonIgnore
    public boolean isFinal() {
        return phase().map(MigrationPhase::isFinal).orElse(false);
    }
}
