package dev.drainboard.kubevirt.api;

import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Kind;
import io.fabric8.kubernetes.model.annotation.Plural;
import io.fabric8.kubernetes.model.annotation.ShortNames;
import io.fabric8.kubernetes.model.annotation.Singular;
import io.fabric8.kubernetes.model.annotation.Version;

/** A cluster-wide preference (the default kind of spec.preference). */
@Group(KubeVirtExtensionResource.INSTANCETYPE_GROUP)
@Version("v1beta1")
@Kind("VirtualMachineClusterPreference")
@Plural("virtualmachineclusterpreferences")
@Singular("virtualmachineclusterpreference")
@ShortNames({"vmcp","vmcps"})
public class VirtualMachineClusterPreference extends KubeVirtExtensionResource<VirtualMachinePreferenceSpec, Void> {
}
