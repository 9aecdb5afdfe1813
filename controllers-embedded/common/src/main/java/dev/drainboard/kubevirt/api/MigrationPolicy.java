package dev.drainboard.kubevirt.api;

import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Kind;
import io.fabric8.kubernetes.model.annotation.Plural;
import io.fabric8.kubernetes.model.annotation.Singular;
import io.fabric8.kubernetes.model.annotation.Version;

/**
 * A cluster-wide MigrationPolicy ({@code migrations.kubevirt.io/v1alpha1}): migration settings for the VMIs its
 * selectors pick, overriding the KubeVirt CR's {@code spec.configuration.migrations} for their migrations.
 */
@Group(KubeVirtExtensionResource.MIGRATIONS_GROUP)
@Version("v1alpha1")
@Kind("MigrationPolicy")
@Plural("migrationpolicies")
@Singular("migrationpolicy")
public class MigrationPolicy extends KubeVirtExtensionResource<MigrationPolicySpec, ExtensibleObject.Tree> {
}
