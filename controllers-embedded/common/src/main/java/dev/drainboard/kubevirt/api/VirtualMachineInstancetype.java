package dev.drainboard.kubevirt.api;

import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Kind;
import io.fabric8.kubernetes.model.annotation.Plural;
import io.fabric8.kubernetes.model.annotation.ShortNames;
import io.fabric8.kubernetes.model.annotation.Singular;
import io.fabric8.kubernetes.model.annotation.Version;

/** A namespaced instance type: the CPU, memory and placement a VM takes by name (spec.instancetype). */
@Group(KubeVirtExtensionResource.INSTANCETYPE_GROUP)
@Version("v1beta1")
@Kind("VirtualMachineInstancetype")
@Plural("virtualmachineinstancetypes")
@Singular("virtualmachineinstancetype")
@ShortNames({"vminstancetype","vminstancetypes","vmf","vmfs"})
public class VirtualMachineInstancetype extends KubeVirtExtensionResource<VirtualMachineInstancetypeSpec, Void> implements Namespaced {
}
