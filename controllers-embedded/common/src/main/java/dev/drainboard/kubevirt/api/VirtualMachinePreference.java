package dev.drainboard.kubevirt.api;

import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Kind;
import io.fabric8.kubernetes.model.annotation.Plural;
import io.fabric8.kubernetes.model.annotation.ShortNames;
import io.fabric8.kubernetes.model.annotation.Singular;
import io.fabric8.kubernetes.model.annotation.Version;

/** A namespaced preference: defaults a VM takes where its template leaves a field unset (spec.preference). */
@Group(KubeVirtExtensionResource.INSTANCETYPE_GROUP)
@Version("v1beta1")
@Kind("VirtualMachinePreference")
@Plural("virtualmachinepreferences")
@Singular("virtualmachinepreference")
@ShortNames({"vmpref","vmprefs","vmp","vmps"})
public class VirtualMachinePreference extends KubeVirtExtensionResource<VirtualMachinePreferenceSpec, Void> implements Namespaced {
}
