package dev.drainboard.kubevirt.api;

import io.fabric8.kubernetes.model.annotation.Categories;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Kind;
import io.fabric8.kubernetes.model.annotation.Plural;
import io.fabric8.kubernetes.model.annotation.ShortNames;
import io.fabric8.kubernetes.model.annotation.Singular;
import io.fabric8.kubernetes.model.annotation.Version;

/** The KubeVirt installation; its {@code spec.configuration} is the cluster-wide configuration. */
@Group(KubeVirtResource.GROUP)
@Version(KubeVirtResource.VERSION)
@Kind("KubeVirt")
@Plural("kubevirts")
@Singular("kubevirt")
@ShortNames({"kv", "kvs"})
@Categories("all")
public class KubeVirt extends KubeVirtResource<KubeVirtSpec, KubeVirtStatus> {
}
