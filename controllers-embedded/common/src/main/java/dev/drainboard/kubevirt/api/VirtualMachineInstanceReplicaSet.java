package dev.drainboard.kubevirt.api;

import dev.drainboard.kubevirt.KubeVirtNames;
import io.fabric8.kubernetes.model.annotation.Categories;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Kind;
import io.fabric8.kubernetes.model.annotation.Plural;
import io.fabric8.kubernetes.model.annotation.ShortNames;
import io.fabric8.kubernetes.model.annotation.Singular;
import io.fabric8.kubernetes.model.annotation.Version;

/** Keeps a number of alike VMIs from one template (VMIRS); scalable with {@code kubectl scale}. */
@Group(KubeVirtNames.GROUP)
@Version(KubeVirtNames.VERSION)
@Kind("VirtualMachineInstanceReplicaSet")
@Plural("virtualmachineinstancereplicasets")
@Singular("virtualmachineinstancereplicaset")
@ShortNames({"vmirs", "vmirss"})
@Categories("all")
public class VirtualMachineInstanceReplicaSet
        extends KubeVirtResource<VirtualMachineInstanceReplicaSetSpec, VirtualMachineInstanceReplicaSetStatus> {
}
