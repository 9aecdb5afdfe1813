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

/** A virtual machine that outlives its VMIs: the VM controller creates a VMI from the template per run strategy. */
@Group(KubeVirtResource.GROUP)
@Version(KubeVirtResource.VERSION)
@Kind("VirtualMachine")
@Plural("virtualmachines")
@Singular("virtualmachine")
@ShortNames({"vm", "vms"})
@Categories("all")
public class VirtualMachine extends KubeVirtResource<VirtualMachineSpec, VirtualMachineStatus> {

    /**
     * The run strategy in force: {@code spec.runStrategy}, else the deprecated {@code spec.running} (true → Always,
     * false → Halted), else Halted. Empty only for a run strategy this version does not know.
     */
    @JsonIgnore
    public Optional<RunStrategy> runStrategy() {
        VirtualMachineSpec spec = getSpec();
        if (spec != null && spec.getRunStrategy() != null) {
            return RunStrategy.parse(spec.getRunStrategy());
        }
        if (spec != null && Boolean.TRUE.equals(spec.getRunning())) {
            return Optional.of(RunStrategy.ALWAYS);
        }
        return Optional.of(RunStrategy.HALTED);
    }
}
