package dev.drainboard.kubevirt.api;

/**
 * An object of one of KubeVirt's newer API groups ({@code instancetype.kubevirt.io}, {@code migrations.kubevirt.io},
 * {@code pool.kubevirt.io}) that keeps top-level fields besides apiVersion, kind, metadata, spec and status.
 */
public abstract class KubeVirtExtensionResource<S, T> extends KubeVirtObject<S, T> {

    /** {@code instancetype.kubevirt.io}: instance types and preferences. */
    public static final String INSTANCETYPE_GROUP = "instancetype.kubevirt.io";
    /** {@code migrations.kubevirt.io}: migration policies. */
    public static final String MIGRATIONS_GROUP = "migrations.kubevirt.io";
    /** {@code pool.kubevirt.io}: VM pools. */
    public static final String POOL_GROUP = "pool.kubevirt.io";
}
