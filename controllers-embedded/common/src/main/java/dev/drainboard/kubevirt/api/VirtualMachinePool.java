package dev.drainboard.kubevirt.api;

import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Kind;
import io.fabric8.kubernetes.model.annotation.Plural;
import io.fabric8.kubernetes.model.annotation.ShortNames;
import io.fabric8.kubernetes.model.annotation.Singular;
import io.fabric8.kubernetes.model.annotation.Version;

/** A pool of alike VMs ({@code pool.kubevirt.io/v1alpha1}) named {@code <pool>-<index>}; scalable with {@code kubectl scale}. */
@Group(KubeVirtExtensionResource.POOL_GROUP)
@Version("v1alpha1")
@Kind("VirtualMachinePool")
@Plural("virtualmachinepools")
@Singular("virtualmachinepool")
@ShortNames({"vmpool", "vmpools"})
public class VirtualMachinePool extends KubeVirtExtensionResource<VirtualMachinePoolSpec, VirtualMachinePoolStatus>
        implements Namespaced {
}
