package dev.drainboard.kubevirt.api;

import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Kind;
import io.fabric8.kubernetes.model.annotation.Plural;
import io.fabric8.kubernetes.model.annotation.ShortNames;
import io.fabric8.kubernetes.model.annotation.Singular;
import io.fabric8.kubernetes.model.annotation.Version;

/** A cluster-wide instance type (the default kind of spec.instancetype). */
@Group(KubeVirtExtensionResource.INSTANCETYPE_GROUP)
@Version("v1beta1")
@Kind("VirtualMachineClusterInstancetype")
@Plural("virtualmachineclusterinstancetypes")
@Singular("virtualmachineclusterinstancetype")
@ShortNames({"vmclusterinstancetype","vmclusterinstancetypes","vmcf","vmcfs"})
public class VirtualMachineClusterInstancetype extends KubeVirtExtensionResource<VirtualMachineInstancetypeSpec, Void> {
}
