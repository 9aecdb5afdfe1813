package dev.drainboard.kubevirt.api;

import io.fabric8.kubernetes.model.annotation.Categories;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Kind;
import io.fabric8.kubernetes.model.annotation.Plural;
import io.fabric8.kubernetes.model.annotation.ShortNames;
import io.fabric8.kubernetes.model.annotation.Singular;
import io.fabric8.kubernetes.model.annotation.Version;

/** Keeps a number of alike VMIs from one template (VMIRS); scalable with {@code kubectl scale}. */
@Group(KubeVirtResource.GROUP)
@Version(KubeVirtResource.VERSION)
@Kind("VirtualMachineInstanceReplicaSet")
@Plural("virtualmachineinstancereplicasets")
@Singular("virtualmachineinstancereplicaset")
@ShortNames({"vmirs", "vmirss"})
@Categories("all")
public class VirtualMachineInstanceReplicaSet
        extends KubeVirtResource<VirtualMachineInstanceReplicaSetSpec, VirtualMachineInstanceReplicaSetStatus> {
}
